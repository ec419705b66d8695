// The table chrome, the same for every game's page: join, seat token, the one WebSocket
// connection (reconnect with the close codes), the waiting room, moves with their "turn", the
// decision timer, the "bot plays for you" bar, whose turn (#turnbar, the tab title, the sound
// of #sound-btn), the invite (#invite-btn), the chat (#chat), the end (#rematch-btn, #replay-btn,
// #lobby-btn) and the replay (#replay: slider, jump to a round, autoplay, close). A page holds
// empty placeholders with those ids where it wants them; mountChrome() fills them. A game's
// own script draws its board and its prompt, and calls startTable(GAME):
//   GAME.load(summary)       async: fetch the game's static data (card texts)
//   GAME.render(view, fresh) draw a state message's page data (fresh: new events count)
//   GAME.replay(frame)       draw a replay frame (public view and events of one step)
//   GAME.forget()            the language changed or the page reconnected (forget caches)
// and, where its game differs: GAME.message(msg) (a message other than state/error),
// GAME.seatName(i), GAME.round(view) and GAME.roundKey (what the replay jumps by: "rp_round"),
// GAME.hostSeat(msg) (the seat whose link this browser keeps: 0), GAME.rematch (false: none),
// GAME.hands (the replay's every-hand box). Everything shown comes from the server's state
// messages (built from view(seat)); the page holds no secret of its own.
// Needs common.js and social.js.
"use strict";

const CODE = (location.pathname.match(/\/t\/([A-Za-z0-9_-]+)/) || [])[1] || "";
const PARAMS = new URLSearchParams(location.search);
const TOKEN_KEY = "fuyuki.token." + CODE;
// a seat's link (/t/CODE#k=TOKEN: `fuyuki link`, a war's seat links) gives this browser that
// seat; the token leaves the address bar at once. A link that differs from the token this
// browser already holds for the table (a GM trying a player's link) is this tab's only, until
// it proves to be the host's seat (a new host link after the old one was lost).
const LINK = /^#k=([A-Za-z0-9_-]+)$/.exec(location.hash);
if (CODE && LINK) {
  const held = localStorage.getItem(TOKEN_KEY);
  (held && held !== LINK[1] ? sessionStorage : localStorage).setItem(TOKEN_KEY, LINK[1]);
  history.replaceState(null, "", location.pathname + location.search);
}
// (a war's token kept under its page's former key moves to the table's)
const FORMER = "fuyuki.war." + CODE;
if (CODE && localStorage.getItem(FORMER) && !localStorage.getItem(TOKEN_KEY)) localStorage.setItem(TOKEN_KEY, localStorage.getItem(FORMER));
localStorage.removeItem(FORMER);
// (a link pasted over this very page changes only the hash: load it as a page)
addEventListener("hashchange", () => { if (/^#k=/.test(location.hash)) location.reload(); });
let ws = null, last = null, events = [], summary = null, spectate = PARAMS.has("watch");
let sentTurn = null, deadlineAt = null, timerHandle = null, errBox = "prompt-err";
let replayStep = null, replaySteps = 0, replayChat = null, autoplay = null, reconnectDelay = 800;
let GAME = null, sentRematch = false, soundLabel = null, endSeen = false, chatLines = [];
const frames = new Map();

const $ = id => document.getElementById(id);
const show = (id, on) => { const e = $(id); if (e) e.classList.toggle("hidden", !on); };
const on = (id, kind, fn) => { const e = $(id); if (e) e.addEventListener(kind, fn); };
function token() { return spectate ? null : sessionStorage.getItem(TOKEN_KEY) || localStorage.getItem(TOKEN_KEY); }
function seated() { return !!last && last.you !== null && last.you !== undefined; }

function seatName(i) {
  const own = GAME && GAME.seatName ? GAME.seatName(i) : null;
  if (own) return own;
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

// ------------------------------------------------------------------ the chrome's elements
const button = (id, i18n, cls) => el("button", { type: "button", id, class: cls || null, "data-i18n": i18n });
function fill(id, ...children) {
  const box = $(id);
  if (box && !box.children.length) box.append(...children.filter(c => c !== null));
  return box;
}
function mountChrome() {
  const langBtn = $("lang");
  if (langBtn && !$("invite-btn")) {
    langBtn.before(button("invite-btn", "invite", "small"), button("sound-btn", null, "small"));
  }
  fill("join", el("h2", { "data-i18n": "join" }),
    el("form", { id: "join-form", class: "row" },
      el("label", null, el("span", { "data-i18n": "your_name" }), el("br"),
        el("input", { id: "join-name", maxlength: "24", required: "", autocomplete: "nickname" })),
      el("button", { class: "primary", type: "submit", "data-i18n": "join_btn" }), button("watch-btn", "watch_btn")),
    el("div", { class: "err", id: "join-err" }));
  fill("lobby", el("h2", { "data-i18n": "waiting" }), el("p", { class: "dim", "data-i18n": "share_link" }),
    el("div", { class: "share", id: "lobby-link" }), el("ol", { id: "lobby-seats" }),
    button("start-btn", "start_now", "primary hidden"));
  const bar = $("turnbar");
  if (bar && !$("turn-text")) { bar.classList.add("panel"); bar.prepend(el("span", { id: "turn-text" })); }
  fill("autobar", el("span", { "data-i18n": "auto_bar" }), " ", button("back-btn", "take_back", "small"));
  fill("endbar", el("div", { class: "row" },
    button("rematch-btn", "rematch", "primary hidden"), button("replay-btn", "replay"),
    el("a", { href: "/", id: "lobby-btn", class: "button", "data-i18n": "back_to_lobby" })),
  el("div", { id: "rematch-note", class: "hidden" }, el("span", { "data-i18n": "rematch_ready" }), " ",
    button("rematch-go", "rematch_go", "primary small")));
  fill("replay", el("h2", { "data-i18n": "replay" }),
    el("div", { class: "row" }, button("rp-start", "to_start", "small"), button("rp-prev", "prev"),
      el("span", null, el("span", { "data-i18n": "step" }), " ", el("span", { id: "rp-step", text: "0" }), "/",
        el("span", { id: "rp-steps", text: "0" })),
      button("rp-next", "next"), button("rp-end", "to_end", "small")),
    el("input", { type: "range", id: "rp-slider", min: "0", max: "0", value: "0", "aria-label": "step" }),
    el("div", { class: "row" }, button("rp-play", "rp_play"),
      el("label", { class: "inline" }, el("span", { "data-i18n": "rp_jump" }), " ", el("select", { id: "rp-round" })),
      button("rp-close", "rp_close", "small")),
    GAME.hands ? el("label", null, el("input", { type: "checkbox", id: "rp-hands" }), " ",
      el("span", { "data-i18n": "show_hands" })) : null,
    GAME.hands ? el("div", { id: "rp-hands-box", class: "hidden" }) : null,
    el("div", { class: "err", id: "rp-err" }));
}
// the texts the chrome writes itself (the rest follows data-i18n)
function relabel() {
  if (soundLabel) soundLabel();
  const d = $("invite-dialog");
  if (d) d.remove();                         // made again in the new language
  if ($("chat")) { Social.chatPanel($("chat"), send); drawChat(); }
  if (last) Social.notifyPanel(CODE, seated() ? token() : null);
  drawRounds();
  drawPlay();
}

// ------------------------------------------------------------------ start
async function startTable(game) {
  GAME = Object.assign({ rematch: true, hands: false, roundKey: "rp_round", round: v => v.round,
    hostSeat: () => 0, message() {}, forget() {} }, game);
  mountChrome();
  applyI18n();
  setupLangButton(() => { GAME.forget(); relabel(); rerender(); });
  $("code").textContent = CODE;
  try {
    summary = await api(`/api/tables/${CODE}`);
  } catch (e) {
    show("unknown", true);
    return;
  }
  await GAME.load(summary);
  setupSocial();
  on("watch-btn", "click", () => { spectate = true; show("join", false); connect(); });
  on("join-form", "submit", joinTable);
  on("start-btn", "click", () => send({ type: "start" }));
  on("back-btn", "click", () => send({ type: "back" }));
  on("replay-btn", "click", () => openReplay(0));
  on("rp-prev", "click", () => openReplay(Math.max(0, replayStep - 1)));
  on("rp-next", "click", () => openReplay(Math.min(replaySteps, replayStep + 1)));
  on("rp-start", "click", () => openReplay(0));
  on("rp-end", "click", () => openReplay(replaySteps));
  on("rp-slider", "input", () => { $("rp-step").textContent = $("rp-slider").value; });
  on("rp-slider", "change", () => openReplay(+$("rp-slider").value));
  on("rp-round", "change", () => { const n = +$("rp-round").value; if (n) jumpTo(n); });
  on("rp-play", "click", () => { if (autoplay) stopAutoplay(); else startAutoplay(); });
  on("rp-close", "click", closeReplay);
  on("rp-hands", "change", () => openReplay(replayStep || 0));
  const open = summary.seats.some(s => s.open);
  if ($("join") && !token() && !spectate && summary.status === "waiting" && open) {
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
  on("rematch-btn", "click", () => { sentRematch = true; send({ type: "rematch" }); });
  on("rematch-go", "click", () => {
    if (!last || !last.rematch) return;
    if (!seated()) location.href = `/t/${last.rematch}?watch=1`;
    else Social.goRematch(CODE, last.rematch);
  });
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
let restarting = false;   // closed with 1012 ("service restart"): the server comes back by itself

function connect() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  ws = new WebSocket(`${proto}//${location.host}/ws/${CODE}`);
  $("conn").textContent = t("connecting");
  ws.onopen = () => {
    Social.connection(true);
    restarting = false;
    reconnectDelay = 800;
    GAME.forget();
    sentTurn = null;
    wholeNext = true;
    ws.send(JSON.stringify({ type: "hello", token: token(), patch: true }));
  };
  ws.onmessage = ev => {
    const msg = JSON.parse(ev.data);
    if (msg.type === "state") onState(msg);
    else if (msg.type === "error") onError(msg);
    else GAME.message(msg);
  };
  ws.onclose = ev => {
    $("conn").textContent = t("disconnected");
    if (ev.code === 1012) restarting = true;
    Social.connection(false, restarting ? "restarting" : "reconnecting");
    const final = { 4001: "replaced", 4004: "not_found", 4008: "no_room" }[ev.code];
    if (final) { $("reconnect").textContent = errText(final); return; }   // no use trying again
    setTimeout(connect, reconnectDelay);
    reconnectDelay = Math.min(reconnectDelay * 2, 10000);
  };
}

// a message to the table; ``box``: where its refusal is shown (default: the prompt's)
function send(msg, box) {
  if (box) errBox = box;
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(msg));
}

// answer the open decision (once per decision: "turn" names it)
function move(choice, box) {
  if (!ws || ws.readyState !== WebSocket.OPEN) return;     // the banner says why
  if (!last || last.turn === null || last.turn === undefined || sentTurn === last.turn) return;
  sentTurn = last.turn;
  errBox = box || "prompt-err";
  if ($(errBox)) $(errBox).textContent = "";
  send({ type: "move", choice, turn: last.turn });
  document.querySelectorAll("#prompt button").forEach(b => { b.disabled = true; });
}

function onError(msg) {
  if (msg.code === "bad_token") {
    sessionStorage.removeItem(TOKEN_KEY);
    localStorage.removeItem(TOKEN_KEY);
    spectate = true;
    return;
  }
  sentTurn = null;
  const box = $(errBox) || $("prompt-err");
  if (box) box.textContent = errText(msg.code, msg.message);
  document.querySelectorAll("#prompt button").forEach(b => { b.disabled = false; });
}

// The server sends this page (its hello asks for patches) the whole state first, then only
// what changed: the fields a message carries replace the ones held, ``view_patch`` holds the
// view's changed fields and ``view_gone`` those it no longer has; events and chat lines are
// always the new ones.
let wholeNext = true;
function merged(raw) {
  if (wholeNext || !last) return raw;
  const { events: _e, chat: _c, chat_from: _f, from_start: _s, ...held } = last;
  const msg = Object.assign(held, raw);
  if (raw.view_patch || raw.view_gone) {
    msg.view = Object.assign({}, last.view, raw.view_patch);
    for (const k of raw.view_gone || []) delete msg.view[k];
  }
  delete msg.view_patch;
  delete msg.view_gone;
  return msg;
}

function onState(raw) {
  const msg = merged(raw);
  wholeNext = false;
  const tabOnly = sessionStorage.getItem(TOKEN_KEY);
  if (tabOnly && msg.you !== null && msg.you !== undefined && msg.you === GAME.hostSeat(msg)) {
    localStorage.setItem(TOKEN_KEY, tabOnly);     // the host's new link: this browser's from now on
    sessionStorage.removeItem(TOKEN_KEY);
  }
  if (!last && !localStorage.getItem("fuyuki.lang") && msg.config && msg.config.lang && msg.config.lang !== lang()) {
    setLang(msg.config.lang);                     // the table's language until the reader picks one
    applyI18n();
    $("lang").textContent = t("lang_switch");
    relabel();
  }
  if (msg.from_start) events = [];
  const fresh = msg.events || [];
  events.push(...fresh);
  last = msg;
  Social.notifyPanel(CODE, seated() ? token() : null);       // (drawn again only when the seat or language changes)
  if ($(errBox) && fresh.length) $(errBox).textContent = "";
  $("conn").textContent = msg.you === null ? t("spectating") : "";
  if (msg.chat) {
    chatLines.length = Math.min(chatLines.length, msg.chat_from || 0);
    chatLines.push(...msg.chat);
  }
  if (seated()) {
    Social.remember(CODE, { game: msg.config.game, title: t(document.body.dataset.title || "title"),
      names: msg.seats.map(s => s.name || t("bot")), status: msg.status });
  }
  if (msg.rematch && sentRematch) Social.goRematch(CODE, msg.rematch);
  rerender(fresh.length);
}

// the page after a state (the chat, the end's buttons and the rematch also under an open replay)
function rerender(freshCount) {
  if (!last) return;
  drawChat();
  drawRematch();
  if (replayStep !== null) return;
  if (last.status === "waiting") { drawLobby(); return; }
  show("lobby", false);
  show("game", true);
  GAME.render(last.view, freshCount || 0);
  show("autobar", !!last.auto && !last.view.over);
  drawTurn(last.view);
  if (last.view.over && !endSeen && $("end")) {     // the end, where the player looks
    endSeen = true;
    $("end").scrollIntoView({ block: "start", behavior: "smooth" });
  }
}

function drawChat() {
  if (!$("chat")) return;
  const replaying = replayStep !== null;
  Social.chatUpdate(replaying ? replayChat || [] : chatLines, seatName, seated() && !replaying,
    replaying ? "chat_replay" : "chat_spectator");
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

// after the game: the players' rematch button, then the way to the new table; the replay
// button while no replay is open
function drawRematch() {
  const over = !!(last.view && last.view.over) || (summary && summary.status === "over");
  show("endbar", over);
  show("replay-btn", over && replayStep === null);
  if (!$("rematch-btn")) return;
  show("rematch-btn", over && GAME.rematch && seated() && !last.rematch);
  show("rematch-note", over && !!last.rematch);
  $("rematch-go").textContent = seated() ? t("rematch_go") : t("watch_btn");
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
    $("timer").textContent = Social.timeLeft(n);
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
// Frames come from the server (the public view after a step); those seen are kept, so the
// slider and the jump to a round cost one request a step at most.
async function frame(step) {
  const hands = !!($("rp-hands") && $("rp-hands").checked);
  const key = `${step}:${hands}`;
  if (!frames.has(key)) frames.set(key, await api(`/api/tables/${CODE}/replay/${step}${hands ? "?hands=1" : ""}`));
  return frames.get(key);
}

async function openReplay(step) {
  try {
    const f = await frame(step);
    replayStep = f.step;
    replaySteps = f.steps;
    if (!last) last = { seats: summary.seats, you: null, config: summary.config, rematch: null };
    for (const id of ["prompt", "autobar", "lobby", "waiting-note"]) show(id, false);
    show("replay", true);
    show("game", true);
    stopTimer();
    $("rp-step").textContent = f.step;
    $("rp-steps").textContent = f.steps;
    const slider = $("rp-slider");
    slider.max = f.steps;
    slider.value = f.step;
    $("rp-err").textContent = "";
    if ($("turn-text")) {
      $("turn-text").textContent = `${t("replay")} ${f.step}/${f.steps}`;
      $("turnbar").classList.remove("mine");
    }
    document.title = t(document.body.dataset.title || "title");
    replayChat = f.chat || [];
    drawChat();
    drawRematch();
    GAME.replay(f);
    if (!$("rp-round").options.length) drawRounds();
  } catch (e) {
    stopAutoplay();
    $("rp-err").textContent = errText(e.code, e.message);
  }
}

// the rounds (or turns) the replay can jump to: 1 to the last frame's
let lastRound = 0;
async function drawRounds() {
  const box = $("rp-round");
  if (!box || !replaySteps) return;
  if (!lastRound) lastRound = GAME.round((await frame(replaySteps)).view) || 0;
  const keep = box.value;
  box.replaceChildren(el("option", { value: "", text: "—" }),
    ...Array.from({ length: lastRound }, (_, i) => el("option", { value: i + 1, text: t(GAME.roundKey, { n: i + 1 }) })));
  box.value = keep;
}
// the first step of round ``n`` (a binary search over the frames)
async function jumpTo(n) {
  stopAutoplay();
  let lo = 0, hi = replaySteps;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((GAME.round((await frame(mid)).view) || 0) >= n) hi = mid; else lo = mid + 1;
  }
  await openReplay(lo);
}

function drawPlay() { const b = $("rp-play"); if (b) b.textContent = t(autoplay ? "rp_pause" : "rp_play"); }
function startAutoplay() {
  if (replayStep >= replaySteps) openReplay(0);
  let busy = false;
  autoplay = setInterval(async () => {
    if (busy) return;
    if (replayStep === null || replayStep >= replaySteps) { stopAutoplay(); return; }
    busy = true;
    await openReplay(replayStep + 1);
    busy = false;
  }, GAME.replayPace || 700);
  drawPlay();
}
function stopAutoplay() { if (autoplay) clearInterval(autoplay); autoplay = null; drawPlay(); }

// back to the table as it is now (the connection went on while the replay was open)
function closeReplay() {
  stopAutoplay();
  replayStep = null;
  replayChat = null;
  show("replay", false);
  show("rp-hands-box", false);
  if (!ws) { connect(); return; }           // opened from ?replay=1
  rerender(0);
}
