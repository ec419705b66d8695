// The table page: a seat, a spectator or a replay. Everything shown comes from the server's
// state messages (built from view(seat)); this page holds no secret of its own.
"use strict";

const CODE = (location.pathname.match(/\/t\/([A-Za-z0-9_-]+)/) || [])[1] || "";
const PARAMS = new URLSearchParams(location.search);
const TOKEN_KEY = "fuyuki.token." + CODE;
let ws = null, last = null, events = [], summary = null, spectate = PARAMS.has("watch");
let promptTurn = null, selected = null, sentTurn = null, deadlineAt = null, timerHandle = null;
let replayStep = null, replaySteps = 0, reconnectDelay = 800, sentRematch = false;

Object.assign(I18N.ja, { phase_setup: "準備", phase_draft_master: "マスタードラフト", phase_draft_servant: "サーヴァントドラフト",
  phase_gems: "GEM配置", phase_bid: "入札", phase_reveal: "公開", phase_battle: "バトル", phase_events: "イベント",
  phase_draw: "補充", phase_paused: "中断", phase_over: "終了" });
Object.assign(I18N.en, { phase_setup: "Setup", phase_draft_master: "Master draft", phase_draft_servant: "Servant draft",
  phase_gems: "Gems", phase_bid: "Bidding", phase_reveal: "Reveal", phase_battle: "Battle", phase_events: "Events",
  phase_draw: "Draw", phase_paused: "Paused", phase_over: "Over" });

const $ = id => document.getElementById(id);
const show = (id, on) => $(id).classList.toggle("hidden", !on);

function seatName(i) {
  const seats = (last && last.seats) || (summary && summary.seats) || [];
  const s = seats[i];
  let name = s ? (s.name || (s.kind === "bot" ? `${t("bot")}` : t("open_seat"))) : "";
  return `P${i} ${name}`.trim();
}

function eventText(e) {
  let text = e.text ? (e.text[lang()] || e.text.ja) : `${e.kind} ${JSON.stringify(e.data)}`;
  const seats = (last && last.seats) || [];
  text = text.replace(/\bP(\d)\b/g, (m, d) => {
    const s = seats[+d];
    const n = s && (s.name || (s.kind === "bot" ? t("bot") : ""));
    return n ? `P${d}(${n})` : m;
  });
  return text;
}

// ------------------------------------------------------------------ start
async function init() {
  applyI18n();
  $("code").textContent = CODE;
  Social.invite($("invite-btn"), CODE);
  const soundLabel = Social.soundButton($("sound-btn"));
  Social.chatPanel($("chat"), send);
  setupLangButton(() => {
    promptTurn = null; sentTurn = null; soundLabel();
    const lines = Social.chat.slice();
    Social.chatPanel($("chat"), send);
    Social.chatUpdate({ chat: lines, chat_from: 0 }, seatName, !!last && last.you !== null);
    rerender();
  });
  try {
    summary = await api(`/api/tables/${CODE}`);
  } catch (e) {
    show("unknown", true);
    return;
  }
  await loadCards(summary.config.edition, summary.config.mode);
  $("watch-btn").addEventListener("click", () => { spectate = true; show("join", false); connect(); });
  $("join-form").addEventListener("submit", joinTable);
  $("start-btn").addEventListener("click", () => send({ type: "start" }));
  $("back-btn").addEventListener("click", () => send({ type: "back" }));
  $("confirm").addEventListener("click", () => { if (selected !== null) move(selected); });
  $("replay-btn").addEventListener("click", () => openReplay(0));
  $("rematch-btn").addEventListener("click", () => { sentRematch = true; send({ type: "rematch" }); });
  $("rematch-go").addEventListener("click", () => { if (last && last.rematch) Social.goRematch(CODE, last.rematch); });
  $("rp-hands").addEventListener("change", () => openReplay(replayStep || 0));
  // a tap on a card that is not a choice shows it large with its text (touch has no hover)
  $("game").addEventListener("click", ev => {
    const f = ev.target.closest(".face");
    if (f && !f.classList.contains("option")) openCardDetail(f.dataset.card, last && last.view ? last.view.lands : null);
  });
  $("rp-prev").addEventListener("click", () => openReplay(Math.max(0, replayStep - 1)));
  $("rp-next").addEventListener("click", () => openReplay(Math.min(replaySteps, replayStep + 1)));
  $("rp-start").addEventListener("click", () => openReplay(0));
  $("rp-end").addEventListener("click", () => openReplay(replaySteps));
  const token = localStorage.getItem(TOKEN_KEY);
  const open = summary.seats.some(s => s.open);
  if (!token && !spectate && summary.status === "waiting" && open) {
    $("join-name").value = localStorage.getItem("fuyuki.name") || "";
    show("join", true);
    return;
  }
  if (PARAMS.has("replay") && summary.status === "over") { show("game", true); openReplay(0); return; }
  connect();
}

async function joinTable(ev) {
  ev.preventDefault();
  const name = $("join-name").value.trim();
  localStorage.setItem("fuyuki.name", name);
  try {
    const r = await api(`/api/tables/${CODE}/join`, { name });
    localStorage.setItem(TOKEN_KEY, r.token);
    show("join", false);
    connect();
  } catch (e) {
    $("join-err").textContent = e.code === "table_full" || e.code === "table_started" ? t("table_full") : errText(e.code, e.message);
    if (e.code === "table_full" || e.code === "table_started") { spectate = true; setTimeout(() => { show("join", false); connect(); }, 1200); }
  }
}

// ------------------------------------------------------------------ the connection
function connect() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  ws = new WebSocket(`${proto}//${location.host}/ws/${CODE}`);
  $("conn").textContent = t("connecting");
  ws.onopen = () => {
    Social.connection(true);
    reconnectDelay = 800;
    promptTurn = null;
    sentTurn = null;
    const token = spectate ? null : localStorage.getItem(TOKEN_KEY);
    ws.send(JSON.stringify({ type: "hello", token }));
  };
  ws.onmessage = ev => {
    const msg = JSON.parse(ev.data);
    if (msg.type === "state") onState(msg);
    else if (msg.type === "error") onError(msg);
  };
  ws.onclose = ev => {
    $("conn").textContent = t("disconnected");
    if (replayStep !== null) return;
    Social.connection(false);
    if (ev.code === 4001 || ev.code === 4008 || ev.code === 4004) {   // replaced by a newer page, no place, no table
      $("reconnect").textContent = errText(ev.code === 4008 ? "no_room" : ev.code === 4004 ? "not_found" : "replaced");
      return;
    }
    setTimeout(connect, reconnectDelay);
    reconnectDelay = Math.min(reconnectDelay * 2, 10000);
  };
}

function send(msg) { if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(msg)); }

function move(choice) {
  if (!ws || ws.readyState !== WebSocket.OPEN) return;     // the banner says why
  if (!last || last.turn === null || last.turn === undefined || sentTurn === last.turn) return;
  sentTurn = last.turn;
  $("prompt-err").textContent = "";
  send({ type: "move", choice, turn: last.turn });
  document.querySelectorAll("#prompt button").forEach(b => { b.disabled = true; });
}

function onError(msg) {
  if (msg.code === "bad_token") { localStorage.removeItem(TOKEN_KEY); spectate = true; return; }
  sentTurn = null;
  $("prompt-err").textContent = errText(msg.code, msg.message);
  document.querySelectorAll("#prompt button").forEach(b => { b.disabled = false; });
}

function onState(msg) {
  if (msg.from_start) events = [];
  const fresh = msg.events || [];
  events.push(...fresh);
  last = msg;
  $("conn").textContent = msg.you === null ? t("spectating") : "";
  Social.chatUpdate(msg, seatName, msg.you !== null);
  if (msg.you !== null && msg.you !== undefined) {
    Social.remember(CODE, { game: msg.config.game, title: { ja: "サーヴァント大戦", en: "Servant Big Battle" },
      names: msg.seats.map(s => s.name || t("bot")), status: msg.status });
  }
  if (msg.rematch && sentRematch) Social.goRematch(CODE, msg.rematch);
  rerender(fresh.length);
}

// ------------------------------------------------------------------ drawing
function rerender(freshCount) {
  if (replayStep !== null) return;
  if (!last) return;
  if (last.status === "waiting") { drawLobby(); return; }
  show("lobby", false);
  show("game", true);
  const v = last.view;
  drawTurn(v);
  drawBoard(v);
  drawMine(v);
  drawPrompt(v);
  drawLog(events, freshCount || 0);
  drawBattle(events, freshCount || 0);
  drawEnd(v);
  show("autobar", !!last.auto && !v.over);
}

function drawLobby() {
  show("game", false);
  show("lobby", true);
  $("lobby-link").textContent = `${location.origin}/t/${CODE}`;
  $("lobby-seats").replaceChildren(...last.seats.map(s => el("li", { class: s.seat === last.you ? "me" : "" },
    `${seatName(s.seat)}${s.seat === last.you ? ` (${t("you")})` : ""}`)));
  show("start-btn", last.you === 0);
}

// whose turn, in every phase, and the round's facts
function drawTurn(v) {
  const mine = !!(v.me && v.me.decision) && !v.over && last.turn !== null && last.turn !== undefined;
  Social.turn(mine, last.turn);
  const text = v.over ? t("game_over") : Social.waitingText(last.waiting_for, last.you, seatName);
  $("turn-text").textContent = text;
  $("turnbar").classList.toggle("mine", mine);
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
  deadlineAt = last.deadline ? Date.now() + last.deadline * 1000 : null;
  drawTimer();
}

function drawTimer() {
  stopTimer();
  if (!deadlineAt) { $("timer").textContent = ""; return; }
  const tick = () => {
    const n = Math.max(0, Math.ceil((deadlineAt - Date.now()) / 1000));
    $("timer").textContent = t("seconds_left", { n });
  };
  tick();
  timerHandle = setInterval(tick, 500);
}
function stopTimer() { if (timerHandle) clearInterval(timerHandle); timerHandle = null; }

function drawLog(list, freshCount) {
  const box = $("log");
  const atBottom = box.scrollHeight - box.scrollTop - box.clientHeight < 40;
  const start = Math.max(0, list.length - 400);
  box.replaceChildren(...list.slice(start).map((e, i) => {
    const cls = ["ev", e.kind];
    if (e.private) cls.push("private");
    if (i + start >= list.length - freshCount) cls.push("new");
    return el("div", { class: cls.join(" "), "data-kind": e.kind, text: eventText(e) });
  }));
  if (atBottom || freshCount) box.scrollTop = box.scrollHeight;
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
  const seated = last.you !== null && last.you !== undefined;
  show("rematch-btn", seated && !last.rematch);
  show("rematch-note", !!last.rematch);
  $("rematch-go").textContent = seated ? t("rematch_go") : t("watch_btn");
  if (!seated && last.rematch) $("rematch-go").onclick = () => { location.href = `/t/${last.rematch}?watch=1`; };
}

// ------------------------------------------------------------------ replay (finished games)
async function openReplay(step) {
  try {
    const hands = $("rp-hands").checked;
    const f = await api(`/api/tables/${CODE}/replay/${step}${hands ? "?hands=1" : ""}`);
    replayStep = f.step;
    replaySteps = f.steps;
    if (!last) last = { seats: summary.seats, you: null };
    show("replay", true);
    ["prompt", "mine", "end", "autobar", "battle", "lobby"].forEach(id => show(id, false));
    show("game", true);
    $("rp-step").textContent = f.step;
    $("rp-steps").textContent = f.steps;
    $("turn-text").textContent = `${t("replay")} ${f.step}/${f.steps}`;
    drawBoard(f.view);
    drawLog(f.events, f.events.length);
    Social.chatUpdate({ chat: f.chat || [], chat_from: 0 }, seatName, false, "chat_replay");
    show("rp-hands-box", !!f.hands);
    if (f.hands) {
      $("rp-hands-box").replaceChildren(el("h2", { text: t("hands_h") }), ...f.hands.map((h, s) => el("div", { class: "hand-row" },
        el("div", { class: "name", text: seatName(s) }),
        el("div", { class: "cards-row mini" },
          ...[h.me.master, h.me.servant, ...h.me.hand].filter(Boolean).map(c => cardFace(c, { lands: f.view.lands }))))));
    }
  } catch (e) {
    $("prompt-err").textContent = errText(e.code, e.message);
  }
}

init();
