"""The card data the pages show (names and texts in ja and en), read from the rules' card set.

Nothing here is hidden information: it is the printed text of every card of the edition.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from typing import Any

from fuyuki.web.games.sbb import rules_for


@lru_cache(maxsize=32)
def card_data(edition: str = "final", mode: str = "standard") -> dict[str, Any]:
    rules = rules_for(edition, mode, ())
    cs = rules.cards
    masters = [{"id": m.id, "name": m.name, "mana": m.mana, "ability_name": m.ability_name,
                "text": m.text} for mid in rules.masters if (m := cs.masters.get(mid))]
    servants = [{"id": s.id, "name": s.name, "power": rules.power_override.get(s.id, s.power),
                 "np_name": s.np_name, "keyword": s.keyword, "auto": s.auto, "text": s.text,
                 "indestructible": s.indestructible, "hand_penalty": s.hand_penalty}
                for sid in rules.servants if (s := cs.servants.get(sid))]
    lands = [{"id": land.id, "name": land.name, "colour": land.colour,
              "modifier": {"servant": land.mod_servant, "bonus": land.mod_bonus}
              if rules.land_modifiers and land.mod_servant else None}
             for land in cs.lands.values()]
    actions = []
    for kind, values in (("sortie", cs.sortie_values), ("np", cs.np_values)):
        for value, count in sorted(Counter(values).items()):
            actions.append({"kind": kind, "name": cs.action_names[kind], "value": value,
                            "count_per_colour": count})
    events = [{"id": e.id, "kind": e.kind, "name": e.name, "text": e.text}
              for eid in rules.events if (e := cs.events.get(eid))]
    return {"edition": rules.edition, "mode": rules.mode, "masters": masters,
            "servants": servants, "lands": lands, "actions": actions, "events": events,
            "victory_gems": rules.victory_gems, "gem_pool": rules.gem_pool}
