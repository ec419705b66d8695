// The Grail War Board's table page: the map of 冬木 (SVG), the camps, your hand and plotted
// cards, the prompt (legal actions chosen on the map or by clicking cards), the last battle
// with its dice, and the log. Every text about the game (prompts, options, events) comes from
// the server in ja and en (rendered from the seat's view by fuyuki.board.text); this script
// only draws. The machinery (connection, join, timer, replay) is client.js.
"use strict";

Object.assign(I18N.ja, {
  b_title: "聖杯戦争ボード オンライン", b_hand: "手札", b_plotted: "プロット", b_camps: "陣営",
  b_battle: "直近の戦闘とダイス", b_map_hint: "光っている場所・駒・カードを押して選べます",
  b_turn: "手番", b_phase: "ステップ", b_round: "ラウンド", b_deck: "山札", b_instant: "《刹那の時間》",
  b_spells: "令呪", b_territory: "陣地", b_barrier: "結界", b_building: "準備中", b_built: "完成", b_out: "脱落",
  b_stray: "はぐれ", b_alone: "単独行動", b_dead: "死亡",
  b_winner: "勝者：{camp}", b_no_winner: "勝者なし", b_master: "マスター", b_servant: "サーヴァント",
  b_skills: "スキル", b_abilities: "魔術・宝具",
  b_plot_full: "プロットは上限（CH {ch}枚）まで埋まっているので、今できるのはパスか令呪だけです。",
  b_plot_setup: "準備で山札から{n}枚があなたのプロットに伏せられ、上限（CH {ch}枚）に達しています。だから今できるのはパスか令呪だけです。",
  b_rank_rule: "順位：最後まで残った陣営が上、脱落した陣営は後まで残ったほど上。",
  b_standing: "残った（マスター健在）", b_fell: "脱落（{n}番目）",
  ph_setup: "準備", ph_start: "準備", ph_draw: "ドロー", ph_plot: "プロット", ph_unit: "ユニット",
  ph_action: "アクション", ph_end: "エンド", ph_over: "終了",
});
Object.assign(I18N.en, {
  b_title: "Grail War Board online", b_hand: "Hand", b_plotted: "Plotted", b_camps: "Camps",
  b_battle: "Last battle and dice", b_map_hint: "Tap a glowing area, piece or card to choose",
  b_turn: "Turn", b_phase: "Step", b_round: "Round", b_deck: "Deck", b_instant: "《刹那の時間》",
  b_spells: "令呪", b_territory: "陣地", b_barrier: "結界 (barrier)", b_building: "in preparation", b_built: "complete", b_out: "out",
  b_stray: "stray", b_alone: "alone", b_dead: "dead",
  b_winner: "Winner: {camp}", b_no_winner: "No winner", b_master: "Master", b_servant: "Servant",
  b_skills: "Skills", b_abilities: "魔術 / 宝具",
  b_plot_full: "Your plotted cards are at the limit (CH {ch}): you may only pass or use a 令呪 now.",
  b_plot_setup: "The setup plotted {n} cards from the deck for you, up to the limit (CH {ch}): that is why you may only pass or use a 令呪 now.",
  b_rank_rule: "Ranking: the camps still standing first, then the fallen camps, the last to fall first.",
  b_standing: "still standing (master alive)", b_fell: "fell ({n}. out)",
  ph_setup: "setup", ph_start: "setup", ph_draw: "draw", ph_plot: "plot", ph_unit: "unit",
  ph_action: "action", ph_end: "end", ph_over: "over",
});

const CAMP_COLOURS = ["#3d6fd1", "#c8453f", "#8a4fc4", "#c9a227", "#3e9b57"];
const SVG = "http://www.w3.org/2000/svg";
const CW = 80, CH = 74;                   // one area of the map, in SVG units
const BATTLE_KINDS = new Set(["battle", "preempt", "battle_cancelled", "attack_cancelled", "attack",
  "cover", "defence", "instant_begin", "instant_end", "attack_roll", "hit", "damage", "death", "revive",
  "camp_out", "stray", "spell", "card_used"]);
let DATA = null, promptTurn = null, infoChar = null;

const BOARD = {
  replayPace: 350,                 // a game is hundreds of small steps
  async load() { DATA = await api("/api/games/board/data"); },
  forget() { promptTurn = null; sentTurn = null; },
  render(v, freshCount) {
    drawStatus(v);
    drawPrompt(v);
    drawMap(v);
    drawCamps(v);
    drawMine(v);
    drawBattle(events, freshCount);
    drawLog(events, freshCount);
    drawEnd(v);
  },
  replay(f) {
    show("mine", false);
    drawStatus(f.view);
    drawMap(f.view);
    drawCamps(f.view);
    drawBattle(f.events, f.events.length);
    drawLog(f.events, f.events.length);
  },
};

// ------------------------------------------------------------------ helpers
function pickText(x) { return x && typeof x === "object" ? (x[lang()] || x.ja) : String(x || ""); }
function campName(v, seat) { return seat === null || seat === undefined ? t("b_stray") : pickText(v.camps[seat].name); }
function colour(seat) { return seat === null || seat === undefined ? "#6b6b6b" : CAMP_COLOURS[seat % CAMP_COLOURS.length]; }
function svg(tag, attrs, ...children) {
  const e = document.createElementNS(SVG, tag);
  for (const k in attrs || {}) if (attrs[k] !== null && attrs[k] !== undefined) e.setAttribute(k, attrs[k]);
  for (const c of children) if (c !== null && c !== undefined) e.append(c);
  return e;
}
function dot(seat) {                      // a camp's colour (CSSOM: the CSP forbids style attributes)
  const d = el("span", { class: "dot" });
  d.style.background = colour(seat);
  return d;
}
// squeeze an SVG text into ``room`` units when it would be wider (CJK ~1 em, the rest ~0.6 em)
function fitText(node, text, size, room) {
  let width = 0;
  for (const ch of text) width += ch.charCodeAt(0) > 0x2e80 ? size : size * 0.6;
  if (width > room) { node.setAttribute("textLength", room); node.setAttribute("lengthAdjust", "spacingAndGlyphs"); }
  return node;
}
function stat(base, boost) { return boost ? `${base}+${boost}` : String(base); }
function hp(c) { return Math.max(0, c.hp); }            // the dead show 0, never "HP -10"
function charLine(c) {
  return `${c.name}  HP ${hp(c)}/${c.max_hp}  AT ${stat(c.at, c.boost_at)}  DF ${stat(c.df, c.boost_df)}`;
}
function charDetail(v, c) {
  const skills = Object.entries(c.skills).map(([k, lv]) => {
    const s = DATA.skills[k];
    return `${s ? s.name : k}${lv > 1 ? " Lv" + lv : ""}`;
  });
  const abil = c.abilities.map(a => {
    const x = DATA.abilities[a];
    return x ? `${x.name}（${pickText(x.text)}）` : a;
  });
  const lines = [`${c.name} — ${c.role === "master" ? t("b_master") : t("b_servant")} / ${campName(v, c.camp)}`,
    `HP ${hp(c)}/${c.max_hp}  AT ${stat(c.at, c.boost_at)}  DF ${stat(c.df, c.boost_df)}`];
  if (skills.length) lines.push(`${t("b_skills")}: ${skills.join("、")}`);
  if (abil.length) lines.push(`${t("b_abilities")}: ${abil.join(" ")}`);
  if (c.alone) lines.push(t("b_alone"));
  return lines;
}
// the open decision's options pointing at what (refs: char / areas / card)
function choices(v) {
  const d = v.decision;
  if (!d || !last || last.turn === null || last.turn === undefined || v.over || replayStep !== null) return [];
  return d.options.map((o, i) => ({ o, i, ref: (v.refs || [])[i] || null }));
}
function pickFrom(list) {
  if (list.length === 1) { move(list[0].o); return true; }
  if (list.length > 1) {
    document.querySelectorAll("#prompt-options .option").forEach(b =>
      b.classList.toggle("focus", list.some(x => String(x.o) === b.dataset.option)));
    $("prompt").scrollIntoView({ block: "nearest" });
    return true;
  }
  return false;
}

// ------------------------------------------------------------------ status and prompt
function drawStatus(v) {
  const turn = el("span", { class: "turn" }, dot(v.turn),
    `${t("b_turn")}: ${campName(v, v.turn)} (${seatName(v.turn)})`);
  const parts = [el("span", { text: `${t("b_round")} ${v.round}` }), turn,
    el("span", { class: "phase", text: `${t("b_phase")}: ${t("ph_" + v.phase)}` }),
    el("span", { class: "dim", text: `${t("b_deck")} ${v.deck_count}` })];
  if (v.instant) parts.push(el("span", { class: "instant", text: t("b_instant") }));
  $("status-line").replaceChildren(...parts);
}

function drawPrompt(v) {
  const list = choices(v);
  const mine = list.length > 0;
  show("prompt", mine);
  if (!mine) { promptTurn = null; stopTimer(); return; }
  if (promptTurn === last.turn) return;            // same decision: keep it as drawn
  promptTurn = last.turn;
  $("prompt").dataset.kind = v.decision.kind;
  $("prompt-err").textContent = "";
  $("prompt-title").textContent = `${t("your_turn")}: ${v.prompt[lang()] || v.prompt.ja}`;
  $("prompt-note").textContent = plotNote(v);
  const labels = v.labels[lang()] || v.labels.ja;
  show("map-hint", list.some(x => x.ref));
  $("prompt-options").replaceChildren(...list.map(x => el("button", {
    type: "button", class: "option" + (x.ref ? " mapped" : ""), "data-option": String(x.o),
    text: labels[x.i], onclick: () => move(x.o) })));
  drawTimer();
}

// a plot that offers only パス / 令呪: why (the plotted cards are at the limit — at the start,
// because the setup plotted them from the deck)
function plotNote(v) {
  const camp = v.camps[v.seat];
  if (v.decision.kind !== "plot" || !v.plotted || v.plotted.length < camp.ch) return "";
  // (a plot phase plots one card at most: full at the first one means the setup filled it)
  return v.round === 1 ? t("b_plot_setup", { n: v.plotted.length, ch: camp.ch }) : t("b_plot_full", { ch: camp.ch });
}

// ------------------------------------------------------------------ the map
function drawMap(v) {
  const W = v.map.width * CW, H = v.map.height * CH;
  const list = choices(v);
  const areaRefs = {}, charRefs = {};
  for (const x of list) {
    if (!x.ref) continue;
    for (const p of x.ref.areas || []) (areaRefs[p.join(",")] = areaRefs[p.join(",")] || []).push(x);
    if (x.ref.char && !x.ref.areas) (charRefs[x.ref.char] = charRefs[x.ref.char] || []).push(x);
  }
  const phone = window.matchMedia("(max-width: 480px)").matches;   // larger letters on a phone
  const areaFont = phone ? 13 : 12, pieceFont = phone ? 12 : 11;
  const root = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "map" + (phone ? " phone" : ""), role: "img" });
  for (let r = 0; r < v.map.height; r++) for (let c = 0; c < v.map.width; c++) {
    const key = `${r},${c}`, name = v.map.areas[r][c];
    const refs = Array.from(new Set(areaRefs[key] || []));
    const g = svg("g", { class: "area" + (refs.length ? " target" : ""), "data-area": name, "data-pos": key });
    g.append(svg("rect", { x: c * CW + 1, y: r * CH + 1, width: CW - 2, height: CH - 2, rx: 6 }));
    g.append(fitText(svg("text", { x: c * CW + 4, y: r * CH + 14, class: "area-name" }, name), name, areaFont, CW - 8));
    if (refs.length) g.addEventListener("click", () => pickFrom(refs));
    root.append(g);
  }
  // 陣地 markers: a flag in the camp's colour (dashed while in preparation)
  for (const camp of v.camps) {
    const tr = camp.territory;
    if (!tr) continue;
    const x = tr.pos[1] * CW + CW - 17, y = tr.pos[0] * CH + 59;
    root.append(svg("g", { class: "territory" + (tr.done ? " done" : " building"), "data-camp": camp.seat },
      svg("rect", { x, y, width: 15, height: 13, rx: 3, fill: tr.done ? colour(camp.seat) : "none", stroke: colour(camp.seat) }),
      svg("text", { x: x + 7.5, y: y + 10.5, "text-anchor": "middle" }, "陣"),
      svg("title", null, `${t("b_territory")} — ${campName(v, camp.seat)} (${tr.done ? t("b_built") : t("b_building")})`)));
  }
  // 結界 markers: a ring-marked tag in the camp's colour, left of the 陣地 flag
  for (const camp of v.camps) {
    const br = camp.barrier;
    if (!br) continue;
    const x = br.pos[1] * CW + CW - 34, y = br.pos[0] * CH + 59;
    root.append(svg("g", { class: "barrier", "data-camp": camp.seat },
      svg("rect", { x, y, width: 15, height: 13, rx: 7, fill: "none", stroke: colour(camp.seat) }),
      svg("text", { x: x + 7.5, y: y + 10.5, "text-anchor": "middle" }, "結"),
      svg("title", null, `${t("b_barrier")} — ${campName(v, camp.seat)}`)));
  }
  // pieces: one a row (up to 3 in an area), else two a row (up to 6)
  const byArea = {};
  for (const ch of v.chars) if (ch.alive) (byArea[ch.pos.join(",")] = byArea[ch.pos.join(",")] || []).push(ch);
  for (const key in byArea) {
    const [r, c] = key.split(",").map(Number);
    const cols = byArea[key].length > 3 ? 2 : 1, w = cols === 1 ? CW - 6 : (CW - 8) / 2;
    byArea[key].forEach((ch, k) => {
      if (k >= 6) return;
      const x = c * CW + 3 + (k % cols) * (w + 2), y = r * CH + 18 + Math.floor(k / cols) * 18;
      const refs = charRefs[ch.id] || [];
      const cls = ["piece", ch.role];
      if (ch.stray) cls.push("stray");
      if (ch.alone) cls.push("alone");
      if (refs.length) cls.push("target");
      if (v.seat !== null && ch.camp === v.seat) cls.push("mine");
      const label = `${(ch.short || ch.name).slice(0, cols === 1 ? 6 : 2)} ${hp(ch)}`;
      const text = fitText(svg("text", { x: x + w / 2, y: y + 12, "text-anchor": "middle" }, label), label, pieceFont, w - 5);
      const frac = Math.min(1, hp(ch) / ch.max_hp);
      const g = svg("g", { class: cls.join(" "), "data-char": ch.id, tabindex: "0" },
        svg("rect", { x, y, width: w, height: 16, rx: ch.role === "master" ? 2 : 8, fill: colour(ch.camp) }),
        svg("rect", { x: x + 4, y: y + 13.5, width: (w - 8) * frac, height: 2, class: "hpbar" }),
        text, svg("title", null, charDetail(v, ch).join("\n")));
      g.addEventListener("click", ev => {
        ev.stopPropagation();
        if (!pickFrom(refs) && !pickFrom(Array.from(new Set(areaRefs[key] || [])))) showInfo(v, ch);
      });
      root.append(g);
    });
  }
  $("map").replaceChildren(root);
  if (infoChar) {
    const ch = v.chars.find(c => c.id === infoChar);
    if (ch) $("piece-info").replaceChildren(...charDetail(v, ch).map(s => el("div", { text: s })));
  }
}

function showInfo(v, ch) {
  infoChar = infoChar === ch.id ? null : ch.id;
  show("piece-info", !!infoChar);
  $("piece-info").replaceChildren(...charDetail(v, ch).map(s => el("div", { text: s })));
}

// ------------------------------------------------------------------ camps, hand, plotted
function drawCamps(v) {
  const seats = (last && last.seats) || [];
  $("camps").replaceChildren(...v.camps.map(camp => {
    const s = seats[camp.seat] || {};
    const tags = el("span", { class: "tags" });
    if (camp.seat === v.seat) tags.append(el("span", { text: t("you") }));
    if (camp.out) tags.append(el("span", { class: "off", text: t("b_out") }));
    if (s.kind === "bot") tags.append(el("span", { text: t("bot") }));
    else if (s.auto) tags.append(el("span", { class: "auto", text: t("auto") }));
    else if (s.kind === "human" && !s.connected) tags.append(el("span", { class: "off", text: t("offline") }));
    const terr = camp.territory ? ` · ${t("b_territory")} ${v.map.areas[camp.territory.pos[0]][camp.territory.pos[1]]}(${camp.territory.done ? t("b_built") : t("b_building")})` : "";
    const barrier = camp.barrier ? ` · ${t("b_barrier")} ${v.map.areas[camp.barrier.pos[0]][camp.barrier.pos[1]]}` : "";
    const chars = v.chars.filter(c => c.camp === camp.seat);
    return el("div", { class: "camp" + (camp.seat === v.seat ? " me" : "") + (camp.out ? " out" : ""), "data-seat": camp.seat },
      el("div", { class: "head" }, dot(camp.seat),
        el("b", { text: campName(v, camp.seat) }), " ", el("span", { class: "dim", text: seatName(camp.seat) }), tags),
      el("div", { class: "dim", text: `${t("b_spells")} ${"●".repeat(camp.spells)}${"○".repeat(Math.max(0, 3 - camp.spells))} · ${t("b_hand")} ${camp.hand_count} · ${t("b_plotted")} ${camp.plotted_count}/${camp.ch}${terr}${barrier}` }),
      ...chars.map(c => el("div", { class: "char" + (c.alive ? "" : " dead"), "data-char": c.id,
        text: (c.alive ? "" : `✝ `) + charLine(c) + (c.alone ? ` [${t("b_alone")}]` : "") })));
  }).concat(strays(v)));
}
function strays(v) {
  const list = v.chars.filter(c => c.stray && c.alive);
  if (!list.length) return [];
  return [el("div", { class: "camp" }, el("div", { class: "head" }, dot(null), el("b", { text: t("b_stray") })),
    ...list.map(c => el("div", { class: "char", "data-char": c.id, text: charLine(c) })))];
}

function cardBox(card, refs) {
  const c = DATA.cards[card.card] || { name: card.card, text: {} };
  const b = el(refs.length ? "button" : "div", { class: "bcard" + (refs.length ? " option mapped" : ""), "data-card": card.id, type: refs.length ? "button" : null },
    el("div", { class: "title", text: c.name }),
    el("div", { class: "text", text: pickText(c.text) }));
  if (refs.length) b.addEventListener("click", () => pickFrom(refs));
  return b;
}

function drawMine(v) {
  show("mine", !!v.hand && replayStep === null);
  if (!v.hand) return;
  const list = choices(v);
  const refs = id => list.filter(x => x.ref && x.ref.card === id);
  const camp = v.camps[v.seat];
  $("hand-count").textContent = `${v.hand.length}/${camp.hand_limit}`;
  $("plot-count").textContent = `${v.plotted.length}/${camp.ch}`;
  $("my-hand").replaceChildren(...(v.hand.length ? v.hand.map(c => cardBox(c, refs(c.id))) : [el("span", { class: "dim", text: t("none") })]));
  $("my-plotted").replaceChildren(...(v.plotted.length ? v.plotted.map(c => cardBox(c, refs(c.id))) : [el("span", { class: "dim", text: t("none") })]));
}

// ------------------------------------------------------------------ battle, end
function drawBattle(list, freshCount) {
  let start = -1;
  for (let i = list.length - 1; i >= 0; i--) if (list[i].kind === "battle" || list[i].kind === "recontract") { start = i; break; }
  show("battle", start >= 0);
  if (start < 0) return;
  const firstFresh = list.length - freshCount;
  const lines = [];
  let k = 0;
  for (let i = start; i < list.length; i++) {
    const e = list[i];
    if (!BATTLE_KINDS.has(e.kind) && e.kind !== "recontract") continue;
    if (i > start && e.kind === "turn") break;
    const div = el("div", { class: `ev ${e.kind}` + (e.private ? " private" : ""), "data-kind": e.kind, text: eventText(e) });
    if (i >= firstFresh) { div.classList.add("step-in"); div.style.animationDelay = `${0.25 * k++}s`; }
    lines.push(div);
  }
  $("battle-log").replaceChildren(...lines);
}

function drawEnd(v) {
  show("end", !!v.over);
  if (!v.over || !v.result) return;
  const r = v.result;
  const over = events.find(e => e.kind === "game_over");
  $("end-reason").textContent = over ? eventText(over) : (r.winners.length ? t("b_winner", { camp: campName(v, r.winners[0]) }) : t("b_no_winner"));
  // why the camps rank so: those still standing first, then the fallen, the last to fall first
  const fallen = r.ranking.flat().filter(s => v.camps[s].out);
  const why = seat => v.camps[seat].out ? t("b_fell", { n: fallen.length - fallen.indexOf(seat) }) : t("b_standing");
  $("rank-rule").textContent = t("b_rank_rule");
  $("ranking").replaceChildren(...r.ranking.flatMap(place => place.map(seat =>
    el("li", { class: r.winners.includes(seat) ? "win" : "", "data-seat": seat },
      dot(seat), `${campName(v, seat)} — ${seatName(seat)}`, el("span", { class: "dim why", text: ` · ${why(seat)}` })))));
}

startTable(BOARD);
