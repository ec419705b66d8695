// The table page's machinery, the same for every game: join, seat token, WebSocket with
// reconnect, the waiting room, moves with their "turn", the decision timer, the "bot plays for
// you" bar, the log and the replay of a finished game. A game's page script calls
// startTable(GAME) with its drawing functions:
//   GAME.load(summary)       async: fetch the game's static data (card texts)
//   GAME.render(view, fresh) draw a state message's page data (fresh: new events count)
//   GAME.replay(frame)       draw a replay frame (public view and events of one step)
//   GAME.forget()            the language changed (forget cached prompts)
// What players expect comes with it for every page that has the elements (social.js): the
// reconnect banner, whose turn (#turnbar/#turn-text, the tab title, the optional sound of
// #sound-btn), the invite dialog (#invite-btn), the chat (#chat), the rematch (#rematch-btn,
// #rematch-note, #rematch-go), the replay's every hand (#rp-hands), this browser's games.
// Everything shown comes from the server's state messages (built from view(seat)); the page
// holds no secret of its own. Needs common.js and social.js.
"use strict";

const CODE = (location.pathname.match(/\/t\/([A-Za-z0-9_-]+)/) || [])[1] || "";
const PARAMS = new URLSearchParams(location.search);
const TOKEN_KEY = "fuyuki.token." + CODE;
// a seat's link (/t/CODE#k=TOKEN, made by `fuyuki link`) gives this browser that seat; the
// token leaves the address bar at once
const LINK = /^#k=([A-Za-z0-9_-]+)$/.exec(location.hash);
if (LINK) {
  localStorage.setItem(TOKEN_KEY, LINK[1]);
  history.replaceState(null, "", location.pathname + location.search);
}
// (a link pasted over this very page changes only the hash: load it as a page)
addEventListener("hashchange", () => { if (/^#k=/.test(location.hash)) location.reload(); });
let ws = null, last = null, events = [], summary = null, spectate = PARAMS.has("watch");
let sentTurn = null, deadlineAt = null, timerHandle = null;
let replayStep = null, replaySteps = 0, reconnectDelay = 800, GAME = null;
let sentRematch = false, soundLabel = null;

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
async function startTable(game) {
  GAME = game;
  applyI18n();
  setupLangButton(() => {
    GAME.forget();
    if (soundLabel) soundLabel();
    if ($("chat")) {
      const lines = Social.chat.slice();
      Social.chatPanel($("chat"), send);
      Social.chatUpdate({ chat: lines, chat_from: 0 }, seatName, !!last && last.you !== null && replayStep === null);
    }
    rerender();
  });
  $("code").textContent = CODE;
  try {
    summary = await api(`/api/tables/${CODE}`);
  } catch (e) {
    show("unknown", true);
    return;
  }
  await GAME.load(summary);
  setupSocial();
  $("watch-btn").addEventListener("click", () => { spectate = true; show("join", false); connect(); });
  $("join-form").addEventListener("submit", joinTable);
  $("start-btn").addEventListener("click", () => send({ type: "start" }));
  $("back-btn").addEventListener("click", () => send({ type: "back" }));
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

function setupSocial() {
  if ($("invite-btn")) Social.invite($("invite-btn"), CODE);
  if ($("sound-btn")) soundLabel = Social.soundButton($("sound-btn"));
  if ($("chat")) Social.chatPanel($("chat"), send);
  if ($("rematch-btn")) $("rematch-btn").addEventListener("click", () => { sentRematch = true; send({ type: "rematch" }); });
  if ($("rematch-go")) $("rematch-go").addEventListener("click", () => {
    if (!last || !last.rematch) return;
    if (last.you === null || last.you === undefined) location.href = `/t/${last.rematch}?watch=1`;
    else Social.goRematch(CODE, last.rematch);
  });
  if ($("rp-hands")) $("rp-hands").addEventListener("change", () => openReplay(replayStep || 0));
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
    GAME.forget();
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
    const final = { 4001: "replaced", 4004: "not_found", 4008: "no_room" }[ev.code];
    if (final) { $("reconnect").textContent = errText(final); return; }   // no use trying again
    setTimeout(connect, reconnectDelay);
    reconnectDelay = Math.min(reconnectDelay * 2, 10000);
  };
}

function send(msg) { if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(msg)); }

// answer the open decision (once per decision: "turn" names it)
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
  if ($("chat")) Social.chatUpdate(msg, seatName, msg.you !== null);
  if (msg.you !== null && msg.you !== undefined) {
    Social.remember(CODE, { game: msg.config.game, title: t(document.body.dataset.title || "title"),
      names: msg.seats.map(s => s.name || t("bot")), status: msg.status });
  }
  if (msg.rematch && sentRematch) Social.goRematch(CODE, msg.rematch);
  rerender(fresh.length);
}

function rerender(freshCount) {
  if (replayStep !== null || !last) return;
  if (last.status === "waiting") { drawLobby(); return; }
  show("lobby", false);
  show("game", true);
  GAME.render(last.view, freshCount || 0);
  show("autobar", !!last.auto && !last.view.over);
  drawTurn(last.view);
  drawRematch(last.view);
}

// whose turn: the bar names whom the table waits for; your turn also shows in the tab title
// (and sounds, if switched on)
function drawTurn(v) {
  const mine = last.turn !== null && last.turn !== undefined && !v.over;
  Social.turn(mine, last.turn);
  if (!$("turn-text")) return;
  $("turn-text").textContent = v.over ? t("game_over") : Social.waitingText(last.waiting_for, last.you, seatName);
  $("turnbar").classList.toggle("mine", mine);
}

// after the game: the players' rematch button, then the way to the new table
function drawRematch(v) {
  if (!$("rematch-btn")) return;
  const seated = last.you !== null && last.you !== undefined;
  show("rematch-btn", !!v.over && seated && !last.rematch);
  show("rematch-note", !!v.over && !!last.rematch);
  $("rematch-go").textContent = seated ? t("rematch_go") : t("watch_btn");
}

function drawLobby() {
  show("game", false);
  show("lobby", true);
  $("lobby-link").textContent = `${location.origin}/t/${CODE}`;
  $("lobby-seats").replaceChildren(...last.seats.map(s => el("li", { class: s.seat === last.you ? "me" : "" },
    `${seatName(s.seat)}${s.seat === last.you ? ` (${t("you")})` : ""}`)));
  show("start-btn", last.you === 0);
}

// ------------------------------------------------------------------ the decision timer
function drawTimer() {
  stopTimer();
  deadlineAt = last && last.deadline ? Date.now() + last.deadline * 1000 : null;
  if (!deadlineAt) { $("timer").textContent = ""; return; }
  const tick = () => {
    const n = Math.max(0, Math.ceil((deadlineAt - Date.now()) / 1000));
    $("timer").textContent = t("seconds_left", { n });
  };
  tick();
  timerHandle = setInterval(tick, 500);
}
function stopTimer() { if (timerHandle) clearInterval(timerHandle); timerHandle = null; }

// ------------------------------------------------------------------ the log
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

// ------------------------------------------------------------------ replay (finished games)
async function openReplay(step) {
  try {
    const hands = $("rp-hands") && $("rp-hands").checked;
    const f = await api(`/api/tables/${CODE}/replay/${step}${hands ? "?hands=1" : ""}`);
    replayStep = f.step;
    replaySteps = f.steps;
    if (!last) last = { seats: summary.seats, you: null };
    for (const id of ["prompt", "end", "autobar", "lobby"]) show(id, false);
    show("replay", true);
    show("game", true);
    stopTimer();
    $("rp-step").textContent = f.step;
    $("rp-steps").textContent = f.steps;
    if ($("turn-text")) $("turn-text").textContent = `${t("replay")} ${f.step}/${f.steps}`;
    document.title = t(document.body.dataset.title || "title");
    if ($("chat")) Social.chatUpdate({ chat: f.chat || [], chat_from: 0 }, seatName, false, "chat_replay");
    GAME.replay(f);
  } catch (e) {
    $("prompt-err").textContent = errText(e.code, e.message);
  }
}
