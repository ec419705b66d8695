// Servant Big Battle's table page: lands, players, your cards (drawn as the print-and-play
// faces, cardface.js), the prompt, the last battle. The machinery (connection, join, timer,
// replay, chat, rematch, whose turn, the reconnect banner) is client.js and social.js; this
// draws the page data.
"use strict";

let promptTurn = null, selected = null;

Object.assign(I18N.ja, { phase_setup: "準備", phase_draft_master: "マスタードラフト", phase_draft_servant: "サーヴァントドラフト",
  phase_gems: "GEM配置", phase_bid: "入札", phase_reveal: "公開", phase_battle: "バトル", phase_events: "イベント",
  phase_draw: "補充", phase_paused: "中断", phase_over: "終了" });
Object.assign(I18N.en, { phase_setup: "Setup", phase_draft_master: "Master draft", phase_draft_servant: "Servant draft",
  phase_gems: "Gems", phase_bid: "Bidding", phase_reveal: "Reveal", phase_battle: "Battle", phase_events: "Events",
  phase_draw: "Draw", phase_paused: "Paused", phase_over: "Over" });

const SBB = {
  hands: true,                     // the replay's 全員の手札を見る
  async load(summary) {
    await loadCards(summary.config.edition, summary.config.mode);
    $("confirm").addEventListener("click", () => { if (selected !== null) move(selected); });
    // a tap on a card that is not a choice shows it large with its text (touch has no hover)
    $("game").addEventListener("click", ev => {
      const f = ev.target.closest(".face");
      if (f && !f.classList.contains("option")) openCardDetail(f.dataset.card, last && last.view ? last.view.lands : null);
    });
  },
  forget() { promptTurn = null; sentTurn = null; },
  render(v, freshCount) {
    drawStatus(v);
    drawBoard(v);
    drawMine(v);
    drawPrompt(v);
    drawLog(events, freshCount);
    drawBattle(events, freshCount);
    drawEnd(v);
  },
  replay(f) {
    show("mine", false);
    show("battle", false);
    drawStatus(f.view);
    drawBoard(f.view);
    drawLog(f.events, f.events.length);
    show("rp-hands-box", !!f.hands);
    if (f.hands) {         // every seat's cards (the game is over)
      $("rp-hands-box").replaceChildren(el("h2", { text: t("hands_h") }), ...f.hands.map((h, s) => el("div", { class: "hand-row" },
        el("div", { class: "name", text: seatName(s) }),
        el("div", { class: "cards-row mini" },
          ...[h.me.master, h.me.servant, ...h.me.hand].filter(Boolean).map(c => cardFace(c, { lands: f.view.lands }))))));
    }
  },
};

// the round's facts beside whom the table waits for (client.js writes that part)
function drawStatus(v) {
  const line = [
    `${t("round")} ${v.round}`, t("phase_" + v.phase), `${t("parent")}: ${seatName(v.parent)}`,
    `${t("pool")} ${v.pool}`, `${t("deck")} ${v.decks.action}`,
  ];
  $("status-line").replaceChildren(...line.map(x => el("span", { text: x })));
}

function drawBoard(v) {
  $("lands").replaceChildren(...v.lands.map(l => el("div", { class: `land c-${landColour(l.id)}`, "data-land": l.id },
    el("div", { class: "lname", text: cardName(l.id) }), el("div", { class: "gems", text: `◆ ${l.gems}` }))));
  const waiting = new Set(last.waiting_for || []);
  const rows = v.seats.map(p => {
    const s = last.seats[p.seat] || {};
    const tags = el("div", { class: "tags" });
    if (waiting.has(p.seat) && !v.over) tags.append(el("span", { class: "turn", text: "●" }));
    if (p.seat === v.parent) tags.append(el("span", { class: "parent", text: t("parent") }));
    if (p.locked) tags.append(el("span", { class: "locked", text: t("locked") }));
    if (s.kind === "bot") tags.append(el("span", { text: t("bot") }));
    else if (s.auto) tags.append(el("span", { class: "auto", text: t("auto") }));
    else if (!s.connected) tags.append(el("span", { class: "off", text: t("offline") }));
    if (p.seat === last.you) tags.append(el("span", { text: t("you") }));
    const cards = el("div", { class: "cards-row mini" },
      p.master ? cardFace(p.master, { attrs: p.dark ? { title: t("dark") } : {} }) : cardBack(t("master")),
      p.servant ? cardFace(p.servant) : cardBack(t("servant")));
    if (p.bid) cards.append(cardFace(p.bid, { lands: v.lands }));
    if (p.mana !== null && p.mana !== undefined) cards.append(el("div", { class: "dim", text: `${t("mana")} ${p.mana}${p.dark ? ` · ${t("dark")}` : ""}` }));
    return el("div", { class: "player" + (p.seat === last.you ? " me" : "") + (waiting.has(p.seat) && !v.over ? " waiting" : ""), "data-seat": p.seat },
      el("div", null, el("div", { class: "name", text: seatName(p.seat) }), tags),
      el("div", { class: "stats" }, el("div", { text: `◆ ${p.gems}${p.coins !== undefined ? ` · ● ${p.coins}` : ""}` }),
        el("div", { class: "dim", text: `${t("hand")} ${p.hand_size}` })),
      cards);
  });
  $("players").replaceChildren(...rows);
}

function bigCard(id, up, dark) {
  if (!id) return cardBack(t("none"));
  const f = cardFace(id, { big: true });
  const badges = el("div", { class: "badges" }, el("span", { class: "badge " + (up ? "up" : "hid"), text: up ? t("revealed") : t("hidden") }));
  if (dark) badges.append(el("span", { class: "badge dark", text: t("dark") }));
  return el("div", { class: "withbadge" }, f, badges);
}

function drawMine(v) {
  const me = v.me;
  show("mine", !!me);
  if (!me) return;
  const p = v.seats[v.seat];
  $("my-master").replaceChildren(bigCard(me.master, p.master_up, me.dark));
  $("my-servant").replaceChildren(bigCard(me.servant, p.servant_up, false));
  const seen = (me.seen || []).filter(c => c !== me.master && c !== me.servant);
  $("my-seen").textContent = seen.length ? `${t("seen")}: ${seen.map(cardName).join("、")}` : "";
  $("my-hand").replaceChildren(...me.hand.map(c => cardFace(c, { lands: v.lands })));
}

function isCardOption(o) {
  if (typeof o !== "string") return false;
  if (parseAction(o)) return true;
  const c = CARD_INDEX[o];
  return !!c && c.group !== "lands";
}

function optionLabel(o) {
  if (typeof o === "number") return seatName(o);
  return cardName(o);
}

function promptTitle(d) {
  const info = d.info || {};
  const params = {};
  if (info.land) params.land = cardName(info.land);
  if (info.source !== undefined) params.source = seatName(info.source);
  return t("p_" + d.kind, params);
}

function drawPrompt(v) {
  const d = v.me && v.me.decision;
  const mine = !!d && !v.over && last.turn !== null && last.turn !== undefined;
  show("prompt", mine);
  show("waiting-note", !!v.me && !mine && !v.over && v.phase === "bid" && v.seats[v.seat].locked);
  if (!mine) { promptTurn = null; stopTimer(); return; }
  if (promptTurn === last.turn) return;  // same decision: keep the selection and the timer
  promptTurn = last.turn;
  selected = null;
  $("prompt-err").textContent = "";
  $("option-text").textContent = "";
  $("prompt-title").textContent = `${t("your_turn")}: ${promptTitle(d)}`;
  // your master and servant beside the bid (what your card will fight with)
  const me = v.me;
  $("prompt-mine").replaceChildren(...(d.kind === "bid" || d.kind === "jewel" || d.kind === "luck"
    ? [me.master ? cardFace(me.master) : null, me.servant ? cardFace(me.servant) : null].filter(Boolean) : []));
  const box = $("prompt-options");
  const buttons = [];
  const cardOpts = d.options.filter(isCardOption);
  for (const o of d.options) {
    if (isCardOption(o)) {
      // a draft shows each card with its text: the choice is the card's ability
      const b = cardFace(o, { button: true, lands: v.lands, big: d.kind.startsWith("draft"), attrs: { "data-option": String(o) } });
      b.classList.add("card", "option");
      b.addEventListener("click", () => {
        selected = o;
        box.querySelectorAll(".option").forEach(x => x.classList.toggle("selected", x === b));
        $("confirm").disabled = false;
        $("option-text").textContent = cardText(o);      // tap: the card's text (touch has no hover)
      });
      buttons.push(b);
    } else {
      const cls = typeof o === "string" && CARD_INDEX[o] && CARD_INDEX[o].group === "lands" ? ` land c-${landColour(o)}` : "";
      const b = el("button", { type: "button", class: "option" + cls, "data-option": String(o), text: optionLabel(o) });
      b.addEventListener("click", () => move(o));
      buttons.push(b);
    }
  }
  box.replaceChildren(...buttons);
  const confirm = $("confirm");
  confirm.textContent = d.kind === "bid" ? t("lock_bid") : t("confirm");
  confirm.disabled = true;
  show("confirm", cardOpts.length > 0);
  drawTimer();
}

// the last reveal and what followed it, one line a step (battles, effects, gems, draws)
const BATTLE_KINDS = new Set(["reveal", "flip", "battle", "totals", "case1", "case2_win", "case2_tie",
  "case3_win", "case3_split", "uncontested", "misfire", "take", "jewel", "np_as_sortie", "fragarach",
  "tsubame", "np_resolves", "np_fizzle", "blades_fizzle", "luck", "prevented", "substitute", "lost", "return_gems",
  "overseer", "life_extension", "darken", "dojo", "retaliate", "pool_take", "swap", "swap_cards",
  "grail", "tie_dice", "coin", "fetch", "fetch_back", "fetch_nothing", "new_master_up"]);
function drawBattle(list, freshCount) {
  let start = -1;
  for (let i = list.length - 1; i >= 0; i--) if (list[i].kind === "reveal") { start = i; break; }
  show("battle", start >= 0);
  if (start < 0) return;
  const firstFresh = list.length - freshCount;
  let k = 0;
  const lines = [];
  for (let i = start; i < list.length; i++) {
    const e = list[i];
    if (!BATTLE_KINDS.has(e.kind)) continue;
    const div = el("div", {
      class: "ev " + e.kind + (e.kind === "battle" ? " battle" : "") + (e.private ? " private" : ""),
      "data-kind": e.kind, text: eventText(e) });
    if (i >= firstFresh) {                 // new lines appear one after another
      div.classList.add("step-in");
      div.style.animationDelay = `${0.35 * k++}s`;
    }
    lines.push(div);
  }
  $("battle-log").replaceChildren(...lines);
}

function drawEnd(v) {
  show("end", !!v.over);
  if (!v.over || !v.result) return;
  const r = v.result;
  const reasonEvent = events.find(e => e.kind === "game_over");
  $("end-reason").textContent = reasonEvent ? eventText(reasonEvent) : `${t("reason")}: ${r.reason}`;
  let ranking = r.ranking;
  if (!ranking) {
    const order = [...v.seats.keys()].sort((a, b) => r.gems[b] - r.gems[a]);
    ranking = order.map(s => [s]);
  }
  const items = [];
  ranking.forEach((group, i) => {
    for (const s of group) {
      const win = r.winners.includes(s);
      items.push(el("li", { class: win ? "win" : "", "data-seat": s },
        `${seatName(s)} ◆${r.gems[s]}${win ? (r.draw ? ` — ${t("draw")}` : ` — ${t("winner")}`) : ""}`));
    }
  });
  $("ranking").replaceChildren(...items);
}

startTable(SBB);
