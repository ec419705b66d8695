"""What the learned evaluation sees of a seat in a game: one row of numbers per seat.

:func:`seat_features` is the only place that reads an engine state for the learned
evaluation (:mod:`.learned_eval`) and its training data (:mod:`.train_eval`): a seat's
gems against its victory target and against the best rival, the pool and the round, its
hand (出撃 and 宝具 values, events), its 魔力 and the cards it will draw, its servant's
power, face-up and dark flags, the parent, how well its hand fits the gems on the lands,
and which master and servant it holds. In the hard bot the state is a sampled world (its
own guess of the hidden cards), so reading it whole is no leak.
"""

from __future__ import annotations

#: the default card set's masters and servants, in a fixed order (one-hot columns); a
#: user's own card gets no column
MASTERS = ("shirou", "rin", "sakura", "shinji", "illya", "kirei", "zouken", "bazett",
           "kuzuki", "taiga")
SERVANTS = ("saber", "archer", "lancer", "rider", "caster", "assassin", "berserker",
            "gilgamesh", "true_assassin", "avenger")
NAMES = ("gems/target", "lead", "gem share", "pool", "round", "1/players", "hand",
         "sortie sum", "sorties", "np sum", "nps", "grail", "luck", "swap", "mana", "to draw",
         "power", "servant up", "master up", "dark", "parent", "after parent", "fit",
         "best land", "land gems", "reach") \
    + tuple("master " + m for m in MASTERS) + tuple("servant " + s for s in SERVANTS)
SIZE = len(NAMES)
_M = {m: i for i, m in enumerate(MASTERS)}
_S = {s: i for i, s in enumerate(SERVANTS)}


def seat_features(g) -> list[list[float]]:
    """One row of :data:`NAMES` per seat of the game ``g`` (drafts done)."""
    s = g.s
    t = g.t          # the card table: the state holds cards as ints
    n = s.n
    colours = [t.colour[land] for land in s.lands]
    on_lands = s.gems_on
    land_total = sum(on_lands)
    targets = [g.victory_target(i) if s.master[i] else g.rules.victory_gems for i in range(n)]
    scaled = [s.gems[i] * 12 / max(targets[i], 1) for i in range(n)]
    all_gems = sum(s.gems)
    rows = []
    for i in range(n):
        best_other = max((scaled[j] for j in range(n) if j != i), default=0.0)
        sortie_sum = np_sum = 0
        sorties = nps = grail = luck = swap = 0
        top = dict.fromkeys(colours, 0)
        for card in s.hand[i]:
            ev = t.event[card]
            if ev:
                grail += ev == "grail"
                luck += ev == "luck"
                swap += ev == "swap"
                continue
            colour, v = t.colour[card], t.value[card]
            if not t.np[card]:
                sorties += 1
                sortie_sum += v
                if colour in top and v > top[colour]:
                    top[colour] = v
            else:
                nps += 1
                np_sum += v
        fit = sum(g_on * top[c] for g_on, c in zip(on_lands, colours))
        best = max((g_on for g_on, c in zip(on_lands, colours) if top[c]), default=0)
        reach = float(s.gems[i] + best >= targets[i])
        master, servant = t.names[s.master[i]], t.names[s.servant[i]]
        mana = g.mana(i) if master else 3
        power = g.power(i) if servant else 0
        row = [s.gems[i] / max(targets[i], 1), (scaled[i] - best_other) / 12,
               s.gems[i] / (all_gems + 1), s.pool / 40, s.round / 10, 1 / n,
               len(s.hand[i]) / 5, sortie_sum / 10, sorties / 5, np_sum / 6, nps / 5,
               grail, luck, swap, mana / 5, max(mana - len(s.hand[i]), 0) / 5,
               power / 4, float(s.s_up[i]), float(s.m_up[i]), float(s.dark[i]),
               float(s.parent == i), ((i - s.parent) % n) / n, fit / 20, best / 10,
               land_total / 20, reach]
        onehot = [0.0] * (len(MASTERS) + len(SERVANTS))
        if master in _M:
            onehot[_M[master]] = 1.0
        if servant in _S:
            onehot[len(MASTERS) + _S[servant]] = 1.0
        rows.append(row + onehot)
    return rows
