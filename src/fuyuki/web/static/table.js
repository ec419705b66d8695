// The table page: a seat, a spectator or a replay. Everything shown comes from the server's
// state messages (built from view(seat)); this page holds no secret of its own.
"use strict";

const CODE = (location.pathname.match(/\/t\/([A-Za-z0-9_-]+)/) || [])[1] || "";
const PARAMS = new URLSearchParams(location.search);
const TOKEN_KEY = "fuyuki.token." + CODE;
let ws = null, last = null, events = [], summary = null, spectate = PARAMS.has("watch");
let promptTurn = null, selected = null, sentTurn = null, deadlineAt = null, timerHandle = null;
let replayStep = null, replaySteps = 0, reconnectDelay = 800;

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
  setupLangButton(() => { promptTurn = null; sentTurn = null; rerender(); });
  $("code").textContent = CODE;
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
  ws.onclose = () => {
    $("conn").textContent = t("disconnected");
    if (replayStep !== null) return;
    setTimeout(connect, reconnectDelay);
    reconnectDelay = Math.min(reconnectDelay * 2, 10000);
  };
}

function send(msg) { if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(msg)); }

function move(choice) {
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
}

// ------------------------------------------------------------------ replay (finished games)
async function openReplay(step) {
  try {
    const f = await api(`/api/tables/${CODE}/replay/${step}`);
    replayStep = f.step;
    replaySteps = f.steps;
    if (!last) last = { seats: summary.seats, you: null };
    show("replay", true);
    show("prompt", false);
    show("mine", false);
    show("end", false);
    show("autobar", false);
    show("battle", false);
    show("lobby", false);
    show("game", true);
    $("rp-step").textContent = f.step;
    $("rp-steps").textContent = f.steps;
    drawBoard(f.view);
    drawLog(f.events, f.events.length);
  } catch (e) {
    $("prompt-err").textContent = errText(e.code, e.message);
  }
}

init();
