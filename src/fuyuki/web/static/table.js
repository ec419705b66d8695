// Servant Big Battle's table page: lands, players, your cards, the prompt, the last battle.
// The machinery (connection, join, timer, replay) is client.js; this draws the page data.
"use strict";

let promptTurn = null, selected = null;

const SBB = {
  async load(summary) {
    await loadCards(summary.config.edition, summary.config.mode);
    $("confirm").addEventListener("click", () => { if (selected !== null) move(selected); });
  },
  forget() { promptTurn = null; sentTurn = null; },
  render(v, freshCount) {
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
    drawBoard(f.view);
    drawLog(f.events, f.events.length);
  },
};

function drawBoard(v) {
  const line = [
    `${t("round")} ${v.round}`, `${t("parent")}: ${seatName(v.parent)}`,
    `${t("pool")} ${v.pool}`, `${t("deck")} ${v.decks.action}`,
  ];
  $("status-line").replaceChildren(...line.map(s => el("span", { text: s })));
  $("lands").replaceChildren(...v.lands.map(l => el("div", { class: `land c-${landColour(l.id)}`, "data-land": l.id },
    el("div", { text: cardName(l.id) }), el("div", { class: "gems", text: `◆ ${l.gems}` }))));
  const rows = v.seats.map(p => {
    const s = last.seats[p.seat] || {};
    const tags = el("div", { class: "tags" });
    if (p.seat === v.parent) tags.append(el("span", { class: "parent", text: t("parent") }));
    if (p.locked) tags.append(el("span", { class: "locked", text: t("locked") }));
    if (s.kind === "bot") tags.append(el("span", { text: t("bot") }));
    else if (s.auto) tags.append(el("span", { class: "auto", text: t("auto") }));
    else if (!s.connected) tags.append(el("span", { class: "off", text: t("offline") }));
    if (p.seat === last.you) tags.append(el("span", { text: t("you") }));
    const master = p.master ? `${cardName(p.master)}${p.dark ? `(${t("dark")})` : ""}` : t("hidden");
    const servant = p.servant ? cardName(p.servant) : t("hidden");
    let cards = `${t("master")}: ${master} / ${t("servant")}: ${servant}`;
    if (p.mana !== null && p.mana !== undefined) cards += ` / ${t("mana")} ${p.mana}`;
    if (p.bid) cards += ` / ${t("bid_label")}: ${cardName(p.bid)}`;
    return el("div", { class: "player" + (p.seat === last.you ? " me" : ""), "data-seat": p.seat },
      el("div", null, el("div", { class: "name", text: seatName(p.seat) }), tags),
      el("div", { class: "stats" }, el("div", { text: `◆ ${p.gems}${p.coins !== undefined ? ` · ● ${p.coins}` : ""}` }),
        el("div", { class: "dim", text: `${t("hand")} ${p.hand_size}` })),
      el("div", { class: "cards", text: cards }));
  });
  $("players").replaceChildren(...rows);
}

function bigCard(id, up, dark) {
  if (!id) return el("div", { class: "bigcard dim", text: t("none") });
  const c = CARD_INDEX[id] || {};
  const badge = el("span", { class: "badge " + (up ? "up" : "hid"), text: up ? t("revealed") : t("hidden") });
  const title = el("div", { class: "title" }, cardName(id), badge);
  if (dark) title.append(el("span", { class: "badge dark", text: t("dark") }));
  const meta = c.group === "servants" ? `${t("power")} ${c.power} · ${t("np")}: ${c.np_name.ja}${c.auto ? ` (${t("auto_np")})` : ""}`
    : c.group === "masters" ? `${t("mana")} ${c.mana} · ${c.ability_name.ja}` : "";
  return el("div", { class: "bigcard", "data-card": id }, title, el("div", { class: "dim", text: meta }),
    el("div", { class: "text", text: cardText(id) }));
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
  $("my-hand").replaceChildren(...me.hand.map(c => {
    const b = cardElement(c, { tabindex: "-1" });
    b.classList.add("static");
    return b;
  }));
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
  $("prompt-title").textContent = `${t("your_turn")}: ${promptTitle(d)}`;
  const box = $("prompt-options");
  const buttons = [];
  const cardOpts = d.options.filter(isCardOption);
  for (const o of d.options) {
    if (isCardOption(o)) {
      const b = cardElement(o, { "data-option": String(o) });
      b.classList.add("option");
      b.addEventListener("click", () => {
        selected = o;
        box.querySelectorAll(".card").forEach(x => x.classList.toggle("selected", x === b));
        $("confirm").disabled = false;
      });
      const txt = cardText(o);
      buttons.push(txt && d.kind.startsWith("draft") ? el("div", null, b, el("div", { class: "dim", text: txt })) : b);
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
  "tsubame", "np_resolves", "np_fizzle", "luck", "prevented", "substitute", "lost", "return_gems",
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
