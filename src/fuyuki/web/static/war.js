// Grail War RPG online — one page for the GM, the players and the readers (and the creation form).
// Who you are comes from the token this browser holds for the war (a link's #k=... stores it).
// The table chrome (connection, whose turn, invite, chat, end, replay) is client.js and
// social.js; this draws the war: the GM's console, a player's decision, the readers' 安価, the
// sheets, and the forum log with its dice check (war_dice.js).
"use strict";

Object.assign(I18N.ja, {
  title: "聖杯戦争RPG オンライン", w_unknown: "その聖杯戦争はありません。", w_create: "聖杯戦争を始める",
  w_gm_name: "GMの名前", w_roster: "ロスター", w_sample: "サンプル（外典・聖杯大戦）", w_upload: "ファイルをアップロード",
  w_turns: "ターン上限", w_log_lang: "ログの言語（GMが貼る文）", w_drivers: "各組を動かすのは",
  w_drivers_note: "プレイヤー：席リンクを渡した人が選ぶ／安価：読者の安価で決める／プログラム：自動",
  w_player_ids: "プレイヤーが動かす組のid（カンマ区切り）", w_anka_ids: "安価で動かす組のid（カンマ区切り）",
  w_create_btn: "作成", d_program: "プログラム", d_player: "プレイヤー", d_anka: "安価",
  w_minor: "安価の組の小さな決定を答えるのは", m_program: "プログラム（すぐに）", m_readers: "読者（最初の回答で決定）", m_gm: "GM（毎回）",
  w_minor_note: "戦闘の布陣・準備・比較するステータス・振り直し・魔力など。移動・接触・同盟などはいつもGMが安価にかけます。",
  w_commit: "ダイス公約（秘密のSHA-256）：", w_links: "リンク", w_gm_link_note: "GMリンクは誰にも渡さないでください（戦争を進められる唯一の鍵です）。",
  w_gm_link: "GMリンク（秘密）", w_public_link: "読者用リンク（公開）", w_seat_link: "{name} のプレイヤー用リンク",
  w_relink: "新しいリンク（古いリンクは無効に）",
  w_gm_h: "GM", w_narrate: "描写を投稿（ログに入ります）", w_post: "投稿", w_next: "ターン{n}を開始", w_pause: "一時停止", w_resume: "再開",
  w_questions: "安価", w_end: "聖杯戦争終了", w_log: "ログ（＞チェイン）", w_dice_lines: "#DICE行", w_verify: "ダイスを検証", w_paste: "貼り付けたログを検証（ダイスはこのブラウザで、記録からの再現はサーバーで）",
  w_pairs: "参加者", r_gm: "GM", r_player: "プレイヤー", r_reader: "読者",
  w_turn: "ターン{n}/{max}", w_paused: "一時停止中", w_held: "GMの開始待ち", w_running: "進行中", w_over: "終了",
  w_prologue: "開戦", w_turn_h: "ターン{n}", w_copy: "このターンをコピー", w_copied: "コピーしました",
  w_your_decision: "あなたの決定：{kind}", w_wait: "他の組の行動を待っています…",
  w_answer_as: "名前（空欄で名無し）", w_comment: "ひとこと（任意・140字まで）", w_answers: "回答{n}件",
  w_count_rule: "このあと{n}番目の回答で決定", w_vote_rule: "投票・締切 {time}", w_close: "締め切る",
  w_ask: "安価を出す", w_auto: "プログラムに任せる", w_decide: "GMが決める", w_mode_count: "N番目の回答", w_mode_vote: "投票（秒）",
  w_waiting_player: "プレイヤーの選択待ち", w_asked: "安価{q}を受付中", w_pick_options: "選択肢を2つ以上選んでください",
  w_verify_ok: "検証OK：公約{c}件・ダイス{r}件がすべて一致（このブラウザで計算）", w_verify_pending: "公開済みのダイス{r}件は一致。未公開の公約：{s}",
  w_verify_bad: "{line}行目が一致しません（{code}）", w_verify_none: "まだ検証できるダイスがありません",
  w_checking: "検証中…", w_verify_paste: "ログを検証", w_dice_check: "このブラウザのダイス検証", w_replay_check: "サーバーによる記録からの再現（fuyuki war verify と同じ）",
  w_replay_refused: "サーバーが受け付けません（{m}）", w_replay_unreachable: "サーバーに届きません（再現は fuyuki war verify で）",
  w_overall: "総合（厳しいほう）：{v}", w_exit_0: "一致 ✓", w_exit_1: "一致しない行があります ✗", w_exit_2: "このバージョンでは再現できません ✗",
  w_exit_3: "未公開の部分があります（まだ検証しきれません）", w_exit_unknown: "再現できていません（ダイスのみ検証）",
  w_war_ok: "最初の公約からの連鎖・全ターンの封印・記録のハッシュが一致 ✓（記録からの再現は fuyuki war verify）", w_war_bad: "最初の公約と一致しません ✗", w_no_crypto: "このブラウザでは検証できません（HTTPSが必要です）",
  w_me: "あなたの組", w_mana: "魔力", w_seals: "令呪", w_items: "礼装", w_allies: "同盟", w_known: "判明したシート", w_sheets: "全組のシート（GMのみ）",
  w_anka_sheets: "安価の組", w_out: "脱落",
});
Object.assign(I18N.en, {
  title: "Grail War RPG online", w_unknown: "There is no such war.", w_create: "Start a Grail War",
  w_gm_name: "GM name", w_roster: "Roster", w_sample: "Sample (Apocrypha)", w_upload: "Upload a file",
  w_turns: "Turn limit", w_log_lang: "Language of the log (what the GM pastes)", w_drivers: "Who drives each pair",
  w_drivers_note: "player: whoever gets its seat link / anka: the readers decide / program: automatic",
  w_player_ids: "pair ids players drive (comma separated)", w_anka_ids: "pair ids the readers drive (comma separated)",
  w_create_btn: "Create", d_program: "program", d_player: "player", d_anka: "anka",
  w_minor: "Who answers the small decisions of the anka pairs", m_program: "the program (at once)", m_readers: "the readers (the first answer decides)", m_gm: "the GM (each time)",
  w_minor_note: "A battle's line-up, preparation, stat to compare, rerolls, mana. Moves, contacts, alliances and the like always go to the GM to ask the readers.",
  w_commit: "Dice commitment (SHA-256 of the secret):", w_links: "Links", w_gm_link_note: "Never share the GM link: it is the only key that runs the war.",
  w_gm_link: "GM link (secret)", w_public_link: "Readers' link (public)", w_seat_link: "player link of {name}",
  w_relink: "new link (the old one stops working)",
  w_gm_h: "GM", w_narrate: "Post narration (goes into the log)", w_post: "Post", w_next: "Begin turn {n}", w_pause: "Pause", w_resume: "Resume",
  w_questions: "Anka", w_end: "The war is over", w_log: "Log (＞ chain)", w_dice_lines: "#DICE lines", w_verify: "Check the dice", w_paste: "Check a pasted log (the dice in this browser, the replay of the record on the server)",
  w_pairs: "Pairs", r_gm: "GM", r_player: "player", r_reader: "reader",
  w_turn: "Turn {n}/{max}", w_paused: "paused", w_held: "waiting for the GM", w_running: "running", w_over: "over",
  w_prologue: "Prologue", w_turn_h: "Turn {n}", w_copy: "Copy this turn", w_copied: "Copied",
  w_your_decision: "Your decision: {kind}", w_wait: "Waiting for the other pairs…",
  w_answer_as: "Name (blank: anonymous)", w_comment: "Comment (optional, ≤140)", w_answers: "{n} answer(s)",
  w_count_rule: "the {n}th answer from now decides", w_vote_rule: "vote, closes {time}", w_close: "Close now",
  w_ask: "Ask the readers", w_auto: "Let the program decide", w_decide: "GM decides", w_mode_count: "N-th answer", w_mode_vote: "vote (seconds)",
  w_waiting_player: "waiting for the player", w_asked: "anka {q} open", w_pick_options: "Pick at least two options",
  w_verify_ok: "Verified: {c} commitments, {r} rolls all match (computed in this browser)", w_verify_pending: "{r} revealed rolls match. Not revealed yet: {s}",
  w_verify_bad: "line {line} does not match ({code})", w_verify_none: "No dice to check yet",
  w_checking: "Checking…", w_verify_paste: "Check the log", w_dice_check: "Dice check in this browser", w_replay_check: "The server's replay of the record (as fuyuki war verify)",
  w_replay_refused: "The server refused it ({m})", w_replay_unreachable: "The server cannot be reached (replay it with fuyuki war verify)",
  w_overall: "Overall (the stricter): {v}", w_exit_0: "matches ✓", w_exit_1: "a line does not match ✗", w_exit_2: "this version cannot replay it ✗",
  w_exit_3: "something is not published yet (cannot be fully checked)", w_exit_unknown: "not replayed (dice checked only)",
  w_war_ok: "The chain from the first commitment, every turn's seal and the record's hash match ✓ (the replay of the record: fuyuki war verify)", w_war_bad: "Does not match the first commitment ✗", w_no_crypto: "This browser cannot check (HTTPS needed)",
  w_me: "Your pair", w_mana: "mana", w_seals: "seals", w_items: "items", w_allies: "allies", w_known: "Sheets you learned", w_sheets: "Every sheet (GM only)",
  w_anka_sheets: "Anka pairs", w_out: "out",
});
Object.assign(ERRORS.ja, { not_gm: "GMだけができます", no_question: "その安価は締め切られました", closed: "締め切られました",
  too_long: "長すぎます", bad_options: "選択肢を2〜9個選んでください", question_open: "安価の受付中です", not_held: "すでに開始しています",
  no_decision: "その組に決定はありません", bad_text: "文字を確認してください", too_large: "大きすぎます" });

const KIND = {
  ja: { action: "行動", comm: "コミュ", contact: "接触", engage: "仕掛けるか", intervene: "敵対的介入", lineup: "メイン・サブ",
        prepare: "戦闘準備", pick_stat: "比較するステータス", redraw: "振り直し", declare: "勝率補正", retreat: "撤退",
        abandon: "見捨てるか", alliance: "同盟の申し出", seal_gift: "令呪の譲渡", mana: "魔力", reroll: "振り直し" },
  en: { action: "action", comm: "talk", contact: "contact", engage: "attack?", intervene: "intervene", lineup: "main / sub",
        prepare: "battle preparation", pick_stat: "stat to compare", redraw: "re-draw", declare: "win-rate bonus", retreat: "retreat",
        abandon: "abandon?", alliance: "alliance offer", seal_gift: "seal gift", mana: "mana", reroll: "re-roll" },
};
const STATS = { ja: ["筋力", "耐久", "敏捷", "魔力", "幸運", "宝具"], en: ["STR", "END", "AGI", "MGI", "LUK", "NP"] };
const STAT_KEYS = ["str", "end", "agi", "mgi", "luk", "np"];

const CREATING = location.pathname.split("/")[1] === "new";
const INVITES = `fuyuki.war.${CODE}.invites`;     // the seat links the GM was given

let logLines = [];             // {text, el} of every line shown (the verifier's line numbers)
let logged = -1;               // how many of the events the log shows (-1: draw it again)
let verified = null;
let V = null;                  // the view drawn (the live one, or a replay frame's)

// ---------------------------------------------------------------- creation
async function showCreate() {
  $("create").classList.remove("hidden");
  const meta = (await api("/api/meta")).games.rpg;
  $("c-turns").value = meta.turns;
  const box = $("c-pairs");
  box.replaceChildren();
  for (const p of meta.pairs) {
    const sel = el("select", { "data-pair": p.id },
      ...["program", "player", "anka"].map(d => el("option", { value: d, "data-i18n": "d_" + d, text: t("d_" + d) })));
    if (p.id === meta.pairs[0].id) sel.value = "anka";
    box.append(el("label", { class: "row" }, el("span", { text: `${p.faction[lang()] || ""} ${p.servant}（${p.master}）` }), sel));
  }
  $("c-roster").addEventListener("change", () => {
    const file = $("c-roster").value === "file";
    $("create-err").textContent = "";
    $("c-file").classList.toggle("hidden", !file);
    $("c-pairs").classList.toggle("hidden", file);
    $("c-ids").classList.toggle("hidden", !file);
  });
  $("create-form").addEventListener("submit", async ev => {
    ev.preventDefault();
    $("create-err").textContent = "";
    const body = { game: "rpg", name: $("c-name").value, turns: +$("c-turns").value, lang: $("c-lang").value,
                   anka_minor: $("c-minor").value, humans: [], anka: [], roster: null };
    if ($("c-roster").value === "file") {
      const f = $("c-file").files[0];
      if (!f) { $("create-err").textContent = errText("bad_config", "roster: choose a file"); return; }
      body.roster = await f.text();
      const ids = s => s.split(",").map(x => x.trim()).filter(Boolean);
      body.humans = ids($("c-humans").value);
      body.anka = ids($("c-anka").value);
    } else {
      for (const sel of box.querySelectorAll("select")) {
        if (sel.value === "player") body.humans.push(sel.dataset.pair);
        if (sel.value === "anka") body.anka.push(sel.dataset.pair);
      }
    }
    try {
      const made = await api("/api/tables", body);
      localStorage.setItem(`fuyuki.token.${made.code}`, made.token);
      localStorage.setItem(`fuyuki.war.${made.code}.invites`, JSON.stringify(made.invites));
      location.href = `/t/${made.code}`;
    } catch (e) {
      // the server's message names the field and the reason (a roster's key and line)
      $("create-err").textContent = `${errText(e.code, e.message)}: ${e.message}`;
    }
  });
}

// ---------------------------------------------------------------- the table's messages
const WAR = {
  roundKey: "rp_turn", rematch: false,        // a war's links and dice belong to that war alone
  round: v => v.turn,
  hostSeat: msg => (msg.view ? msg.view.gm_seat : null),
  seatName: i => (V && V.pairs ? (i === V.gm_seat ? t("r_gm") : pairName(i)) : null),
  load() { wire(); },
  forget() {
    for (const id of ["gm-decisions", "links-list", "questions-list", "decision"]) $(id).dataset.sig = "";
    logged = -1;
  },
  message(m) {
    if (m.type !== "invite") return;          // a new seat link the GM asked for
    const invites = JSON.parse(localStorage.getItem(INVITES) || "{}");
    invites[m.seat] = m.token;
    localStorage.setItem(INVITES, JSON.stringify(invites));
    $("links-list").dataset.sig = "";
    render(last.view, 0);
  },
  render(v, freshCount) {
    for (const id of ["decision-err", "answer-err", "gm-err"]) if (freshCount) $(id).textContent = "";
    const log = $("log");
    const stick = logged < 0 || log.scrollHeight - log.scrollTop - log.clientHeight < 80;
    if (logged < 0 || logged > events.length - freshCount) { resetLog(); logged = 0; }
    let revealed = false;
    for (const e of events.slice(logged)) {
      appendEvent(e);
      if (/^(dice_commit|dice_reveal|dice_end)$/.test(e.kind)) revealed = true;
    }
    logged = events.length;
    if (stick) log.scrollTop = log.scrollHeight;
    render(v);
    if (revealed || verified === null) runVerify();
  },
  // a replay frame: the readers' page after that step and that step's lines
  replay(f) {
    logged = -1;
    resetLog();
    for (const e of f.events) appendEvent(e);
    $("verify-result").textContent = "";         // (the check is the whole log's, not a step's)
    V = f.view;
    drawStatus(f.view);
    renderSide(f.view);
    for (const id of ["gm", "links", "decision", "questions"]) $(id).classList.add("hidden");
  },
};


let block = null;
function resetLog() { $("log").replaceChildren(); logLines = []; block = null; newBlock(0); }
function newBlock(turn) {
  const lines = el("div", { class: "lines" });
  const copy = el("button", { class: "small", type: "button", text: t("w_copy") });
  const b = el("div", { class: "turn-block", "data-turn": turn },
    el("div", { class: "turn-head" }, el("span", { class: "t", text: turn ? t("w_turn_h", { n: turn }) : t("w_prologue") }), copy), lines);
  copy.addEventListener("click", () => copyBlock(b, copy));
  $("log").append(b);
  block = { turn, el: b, lines };
}
function appendEvent(e) {
  if (e.kind === "dice_commit" && e.data.turn) newBlock(e.data.turn);   // a turn: its commitment to its reveal
  const text = e.text ? (e.text[lang()] || e.text.ja) : "";
  if (!text) return;
  const cls = e.kind === "narration" ? "gm" : /^anka_|^gm_decided/.test(e.kind) ? "anka" : "";
  for (const line of text.split("\n")) {
    const div = el("div", { class: `line ${cls} ${e.private ? "private" : ""} ${line.startsWith("#DICE") ? "dice" : ""}`, text: line });
    block.lines.append(div);
    logLines.push({ text: line, el: div });
  }
}
function logText() { return logLines.map(l => l.text).join("\n") + "\n"; }
async function copyBlock(b, button) {
  const text = Array.from(b.querySelectorAll(".line"))
    .filter(x => $("show-dice").checked || !x.classList.contains("dice")).map(x => x.textContent).join("\n");
  try { await navigator.clipboard.writeText(text); }
  catch (e) {
    const ta = el("textarea", {}); ta.value = text; document.body.append(ta); ta.select(); document.execCommand("copy"); ta.remove();
  }
  button.textContent = t("w_copied");
  setTimeout(() => { button.textContent = t("w_copy"); }, 1500);
}

async function runVerify() {
  const box = $("verify-result");
  if (!(window.crypto && crypto.subtle)) { box.textContent = t("w_no_crypto"); return; }
  const report = await WarDice.verify(logLines.map(l => l.text));
  verified = report;
  logLines.forEach((l, i) => {
    l.el.classList.remove("ok", "bad", "first-bad");
    const mark = report.marks[i + 1];
    if (mark === "ok" || mark === "bad") l.el.classList.add(mark);
  });
  box.className = "";
  if (report.failed.length) {
    const p = report.failed[0];
    box.className = "bad";
    box.textContent = t("w_verify_bad", { line: p.line, code: p.code });
    const first = logLines[p.line - 1];
    if (first) first.el.classList.add("first-bad");
  } else if (report.ok) {
    box.className = "ok";
    box.textContent = t("w_verify_ok", { c: report.commits, r: report.rolls });
  } else if (report.commits) {
    const open = report.pending.map(p => p.params.scope || "record");
    const ok = Object.values(report.marks).filter(x => x === "ok").length;
    box.textContent = t("w_verify_pending", { r: ok, s: open.join(", ") });
  } else {
    box.textContent = t("w_verify_none");
  }
  $("war-check").textContent = report.record ? t("w_war_ok") : "";
  $("war-check").className = report.record ? "ok" : "dim";
}

// A pasted log: the same dice check (war_dice.js) as the live one, in this browser — a reader
// can check the dice without trusting the server — then the server's replay of the record
// (POST /api/war/verify: fuyuki war verify's code). Both verdicts are shown; the overall one is
// the stricter (exit statuses as war verify's: 0 ok, 3 not published yet, 2 cannot be
// replayed, 1 a line does not match).
const STRICT = [0, 3, 2, 1];
function diceVerdict(report) {
  if (report.failed.length) {
    const p = report.failed[0];
    return { exit: p.code === "format" ? 2 : 1, text: t("w_verify_bad", { line: p.line, code: p.code }) };
  }
  if (report.ok) return { exit: 0, text: t("w_verify_ok", { c: report.commits, r: report.rolls }) };
  if (report.commits) return { exit: 3, text: t("w_verify_pending", { r: report.rolls, s: report.pending.map(p => p.params.scope || "record").join(", ") }) };
  return { exit: 1, text: t("w_verify_none") };
}
async function replayVerdict(text) {
  try {
    const r = await fetch("/api/war/verify", { method: "POST", headers: { "Content-Type": "text/plain; charset=utf-8" }, body: text });
    const data = await r.json();
    if (!r.ok) return { exit: null, text: t("w_replay_refused", { m: errText(data.error, data.message) }) };
    return { exit: data.exit, line: data.line, text: data.message[lang()] || data.message.en };
  } catch (e) {
    return { exit: null, text: t("w_replay_unreachable") };
  }
}
function verdictLine(id, label, v) {
  const cls = v.exit === 0 ? "ok" : v.exit === 1 || v.exit === 2 ? "bad" : "";
  return el("div", { id, class: cls, "data-exit": v.exit === null ? "" : String(v.exit) }, el("b", { text: label }), " ", v.text);
}
async function verifyPasted() {
  const box = $("paste-result");
  if (!(window.crypto && crypto.subtle)) { box.textContent = t("w_no_crypto"); return; }
  const text = $("paste-log").value;
  box.className = "dim";
  box.textContent = t("w_checking");
  const dice = diceVerdict(await WarDice.verifyText(text));
  const replay = await replayVerdict(text);
  const known = [dice.exit, replay.exit].filter(x => x !== null);
  const overall = replay.exit === null ? (dice.exit === 0 ? null : dice.exit)
    : known.reduce((a, b) => (STRICT.indexOf(a) >= STRICT.indexOf(b) ? a : b));
  box.textContent = "";
  box.className = overall === 0 ? "ok" : overall === 1 || overall === 2 ? "bad" : "";
  box.dataset.exit = overall === null ? "" : String(overall);
  box.append(verdictLine("paste-dice", t("w_dice_check"), dice),
             verdictLine("paste-replay", t("w_replay_check"), replay),
             el("div", { id: "paste-overall" }, t("w_overall", { v: t(`w_exit_${overall === null ? "unknown" : overall}`) })));
}

// A player's page contributes to the next turn's dice: it commits to a random value from
// crypto.getRandomValues before the GM opens the turn, and reveals it once the commitments
// are closed (kept in this browser's storage between the two).
const contributed = new Set();
async function contribute(v) {
  const d = v.dice;
  if (!d || !d.held || !(window.crypto && crypto.subtle) || !(ws && ws.readyState === WebSocket.OPEN)) return;
  const key = `fuyuki-dice:${CODE}:${d.turn}`;
  const step = `${key}:${d.committed}:${d.opening}`;
  if (contributed.has(step)) return;                 // sent once per step
  contributed.add(step);
  let r = localStorage.getItem(key);
  if (!d.committed && !d.opening) {
    if (!r) {
      const bytes = new Uint8Array(32);
      crypto.getRandomValues(bytes);
      r = Array.from(bytes, b => b.toString(16).padStart(2, "0")).join("");
      localStorage.setItem(key, r);
    }
    const c = await WarDice.sha256(Uint8Array.from(r.match(/../g), h => parseInt(h, 16)));
    send({ type: "dice", dice: "commit", turn: d.turn, c });
  } else if (d.opening && d.committed && !d.revealed && r) {
    send({ type: "dice", dice: "reveal", turn: d.turn, r });
  }
}

// ---------------------------------------------------------------- the page
function pairName(seat) { const p = V.pairs[seat]; return p ? p.servant : "?"; }
function kindName(k) { return (KIND[lang()] || KIND.ja)[k] || k; }
function label(o) { return o.label[lang()] || o.label.ja; }
function hint(o) { return o.hint ? (o.hint[lang()] || o.hint.ja) : ""; }

function drawStatus(v) {
  $("role").textContent = t("r_" + v.role);
  $("role").className = `tag ${v.role}`;
  const st = v.over ? t("w_over") : v.paused ? t("w_paused") : v.held ? t("w_held") : t("w_running");
  $("status-line").replaceChildren(el("b", { text: t("w_turn", { n: v.turn, max: v.max_turns }) }), el("span", { class: "tag", text: st }));
}

function render(v) {
  V = v;
  const commit = events.find(e => e.kind === "dice_war");
  $("commit").textContent = commit ? commit.data.sha : "";
  if (v.role === "player") contribute(v);
  drawStatus(v);
  renderGm(v);
  renderDecision(v);
  renderQuestions(v);
  renderSide(v);
  $("end").classList.toggle("hidden", !v.over);
  const end = events.find(e => e.kind === "war_end");
  if (end) $("ranking").replaceChildren(...(end.text[lang()] || end.text.ja).split("\n").map(x => el("div", { text: x })));
  $("log-panel").classList.toggle("nodice", !$("show-dice").checked);
}

function renderGm(v) {
  const gm = v.role === "gm";
  $("gm").classList.toggle("hidden", !gm || v.over);
  $("links").classList.toggle("hidden", !gm);
  if (!gm) return;
  const origin = location.origin;
  const links = [[t("w_public_link"), `${origin}/t/${CODE}`, null]];
  const tok = token();
  if (tok) links.unshift([t("w_gm_link"), `${origin}/t/${CODE}#k=${tok}`, null]);
  const invites = JSON.parse(localStorage.getItem(INVITES) || "{}");
  // every player pair: its link (if this browser holds it) and a button for a new one
  last.seats.forEach(s => {
    if (s.kind !== "human" || s.seat === v.gm_seat) return;
    const tk = invites[s.seat];
    links.push([t("w_seat_link", { name: pairName(s.seat) }), tk ? `${origin}/t/${CODE}#k=${tk}` : "—", s.seat]);
  });
  const sig = JSON.stringify([links, lang()]);
  if ($("links-list").dataset.sig !== sig) {
    $("links-list").dataset.sig = sig;
    $("links-list").replaceChildren(...links.map(([n, u, seat]) => {
      const shown = el("div", { class: "share", text: u });
      return el("div", { class: "link-row" },
        el("div", {}, n, u.startsWith("http") ? Social.copyButton(() => u, shown, { class: "small copy" }) : null,
          seat === null ? null : el("button", { type: "button", class: "small relink", text: t("w_relink"),
            onclick: () => send({ type: "relink", seat }, "gm-err") })),
        shown);
    }));
  }
  const next = $("next-btn");
  next.classList.toggle("hidden", !v.held);
  next.textContent = t("w_next", { n: v.turn + 1 });
  $("pause-btn").textContent = v.paused ? t("w_resume") : t("w_pause");
  // open decisions of every pair
  const box = $("gm-decisions");
  const sig2 = JSON.stringify([v.decisions, v.questions.map(q => q.seat), lang()]);
  if (box.dataset.sig === sig2) return;
  box.dataset.sig = sig2;
  box.replaceChildren();
  for (const [s, d] of Object.entries(v.decisions)) {
    const seat = +s;
    const head = el("div", {}, el("b", { text: pairName(seat) }), ` — ${kindName(d.kind)} `);
    const row = el("div", { class: "gm-dec", "data-seat": seat }, head);
    const auto = el("button", { type: "button", class: "small auto", text: t("w_auto"), onclick: () => send({ type: "gm", gm: "auto", seat }, "gm-err") });
    if (!d.anka) {
      row.append(el("span", { class: "dim", text: t("w_waiting_player") + " " }), auto);
      box.append(row);
      continue;
    }
    const q = v.questions.find(x => x.seat === seat);
    if (q) { row.append(el("span", { class: "dim", text: t("w_asked", { q: q.q }) })); box.append(row); continue; }
    const checks = el("div", { class: "checks" }, ...grouped(d.options, o =>
      el("label", {}, el("input", { type: "checkbox", value: o.value }), el("span", { text: label(o) }), el("span", { class: "dim", text: hint(o) }))));
    const mode = el("select", { class: "mode" }, el("option", { value: "count", text: t("w_mode_count") }), el("option", { value: "vote", text: t("w_mode_vote") }));
    const n = el("input", { type: "number", class: "n", min: 1, max: 50, value: 3 });
    mode.addEventListener("change", () => { n.value = mode.value === "vote" ? 300 : 3; n.max = mode.value === "vote" ? 604800 : 50; });
    const ask = el("button", { type: "button", class: "primary ask", text: t("w_ask"), onclick: () => {
      const options = Array.from(checks.querySelectorAll("input:checked")).map(x => x.value);
      if (options.length < 2) { $("gm-err").textContent = t("w_pick_options"); return; }
      const msg = { type: "gm", gm: "ask", seat, options, mode: mode.value };
      if (mode.value === "count") msg.n = +n.value; else msg.seconds = +n.value;
      send(msg, "gm-err");
    } });
    const pick = el("select", { class: "pick" }, ...d.options.map(o => el("option", { value: o.value, text: label(o) })));
    const decide = el("button", { type: "button", class: "small", text: t("w_decide"), onclick: () => send({ type: "gm", gm: "decide", seat, option: pick.value }, "gm-err") });
    row.append(checks, el("div", { class: "row" }, mode, n, ask), el("div", { class: "row" }, auto, pick, decide));
    box.append(row);
  }
}

function renderDecision(v) {
  const d = v.role === "player" ? v.decision : null;
  $("decision").classList.toggle("hidden", v.role !== "player" || v.over);
  if (v.role !== "player") return;
  const sig = JSON.stringify([d, last.turn, lang(), v.held, v.paused]);
  if ($("decision").dataset.sig === sig) return;
  $("decision").dataset.sig = sig;
  const opts = $("decision-options");
  opts.replaceChildren();
  $("decision-info").replaceChildren();
  if (!d) { $("decision-title").textContent = v.paused ? t("w_paused") : v.held ? t("w_held") : t("w_wait"); return; }
  $("decision-title").textContent = t("w_your_decision", { kind: kindName(d.kind) });
  const info = d.info || {};
  if (info.target !== undefined) $("decision-info").append(el("div", { text: `→ ${nameOf(info.target)}` }));
  if (info.totals && info.sides) {
    info.totals.forEach((tot, i) => $("decision-info").append(el("div", { text: `${info.sides[i]}: ` +
      tot.map((x, k) => `${STATS[lang()][k]}${x}`).join(" ") })));
  }
  const button = o => el("button", { type: "button", class: "opt", "data-value": o.value,
      onclick: () => move(o.value, "decision-err") },
      el("span", { text: label(o) }), el("span", { class: "hint", text: hint(o) }));
  opts.append(...grouped(d.options, button));
}

// Long option lists (an action with every target): one group per kind, as the terminal does.
function grouped(options, item) {
  if (options.length <= 12) return options.map(item);
  const groups = new Map();
  for (const o of options) {
    const head = String(o.value).split(":")[0];
    if (!groups.has(head)) groups.set(head, []);
    groups.get(head).push(o);
  }
  return Array.from(groups, ([head, list]) => list.length === 1 ? item(list[0]) :
    el("details", { class: "group", "data-kind": head },
      el("summary", { text: `${label(list[0]).split(/→|：|:/)[0].trim()}（${list.length}）` }),
      el("div", { class: "options" }, ...list.map(item))));
}
function nameOf(id) { const p = V.pairs.find(x => x.id === id); return p ? p.servant : id; }

function renderQuestions(v) {
  const qs = v.questions;
  $("questions").classList.toggle("hidden", !qs.length);
  const list = $("questions-list");
  const sig = JSON.stringify([qs.map(q => q.q), v.role, lang()]);
  if (list.dataset.sig !== sig) {
    list.dataset.sig = sig;
    list.replaceChildren();
    const open = events.filter(e => e.kind === "anka_open");
    for (const q of qs) {
      const ev = open.find(e => e.data.q === q.q);
      const rule = q.mode === "count" ? t("w_count_rule", { n: q.n }) : t("w_vote_rule", { time: new Date(q.close_at * 1000).toLocaleString() });
      const box = el("div", { class: "question", "data-q": q.q },
        el("div", {}, el("b", { text: `#${q.q} ${pairName(q.seat)} — ${kindName(q.kind)}` })),
        el("div", { class: "dim", text: rule }), el("div", { class: "answers" }));
      if (v.role === "gm") {
        box.append(el("button", { type: "button", class: "small close", text: t("w_close"), onclick: () => send({ type: "gm", gm: "close", q: q.q }, "answer-err") }));
      } else {
        const name = el("input", { class: "a-name", maxlength: 24, placeholder: t("w_answer_as"), value: localStorage.getItem("fuyuki.war.name") || "" });
        const text = el("input", { class: "a-text", maxlength: 140, placeholder: t("w_comment") });
        name.addEventListener("change", () => localStorage.setItem("fuyuki.war.name", name.value));
        const opts = el("div", { class: "options" });
        (ev ? ev.data.options : q.options).forEach((o, i) => {
          const lab = ev ? (ev.data.labels[i][lang()] || ev.data.labels[i].ja) : o;
          const hn = ev && ev.data.hints ? (ev.data.hints[i][lang()] || ev.data.hints[i].ja) : "";
          opts.append(el("button", { type: "button", class: "opt", "data-value": o,
            onclick: () => send({ type: "answer", q: q.q, option: o, name: name.value, text: text.value }, "answer-err") },
            el("span", { text: `${i + 1}. ${lab}` }), el("span", { class: "hint", text: hn })));
        });
        box.append(el("div", { class: "row" }, name, text), opts);
      }
      list.append(box);
    }
  }
  for (const q of qs) {
    const a = list.querySelector(`[data-q="${q.q}"] .answers`);
    if (a) a.textContent = t("w_answers", { n: q.answers });
  }
}

function sheetBox(title, s, extra) {
  const stats = c => STAT_KEYS.map((k, i) => `${STATS[lang()][i]}${c.stats[k]}`).join(" ");
  const names = V.item_names || {};
  const items = Object.entries(s.items || {}).map(([k, n]) => `${names[k] ? names[k][lang()] || names[k].ja : k}×${n}`).join(", ") || "-";
  return el("div", { class: "sheet" },
    el("div", { class: "t", text: title }),
    el("div", { text: `${s.servant.name}（${s.servant.class} Lv${s.servant.lv}）: ${stats(s.servant)}` }),
    el("div", { text: `${s.master.name}: ${stats(s.master)}` }),
    el("div", { text: `${t("w_mana")} ${s.mana}${s.max_mana !== undefined ? "/" + s.max_mana : ""} · ${t("w_seals")} ${s.seals} · ${t("w_items")} ${items}${extra || ""}` }));
}

function renderSide(v) {
  const me = $("me");
  me.classList.toggle("hidden", v.role !== "player");
  if (v.role === "player") {
    const known = v.pairs.filter(p => p.sheet && p.seat !== v.me.seat);
    me.replaceChildren(el("h2", { text: t("w_me") }), sheetBox(v.me.servant.name, v.me,
      v.me.allies.length ? ` · ${t("w_allies")} ${v.me.allies.map(nameOf).join(", ")}` : ""));
    if (known.length) me.append(el("h2", { text: t("w_known") }), ...known.map(p => sheetBox(p.servant, p.sheet)));
  }
  const sheets = $("sheets");
  if (v.role === "gm") {
    sheets.replaceChildren(el("h2", { text: t("w_sheets") }),
      ...Object.entries(v.sheets).map(([s, sh]) => sheetBox(pairName(+s) + (sh.alive ? "" : ` (${t("w_out")})`), sh)));
  } else if (Object.keys(v.anka_sheets).length) {
    sheets.replaceChildren(el("h2", { text: t("w_anka_sheets") }),
      ...Object.entries(v.anka_sheets).map(([s, sh]) => sheetBox(pairName(+s), sh)));
  } else sheets.replaceChildren();
  const seats = last.seats;
  $("pairs").replaceChildren(...v.pairs.map(p => {
    const drv = v.anka.includes(p.seat) ? "anka" : seats[p.seat] && seats[p.seat].kind === "human" ? "player" : "program";
    return el("div", { class: `pair-row ${p.alive ? "" : "out"}` },
      el("span", { class: `f-${p.faction}`, text: p.faction === "red" ? (lang() === "ja" ? "赤" : "Red") : p.faction === "black" ? (lang() === "ja" ? "黒" : "Black") : p.faction }),
      el("span", { text: `${p.servant}（${p.master}）` }), el("span", { class: `drv ${drv}`, text: t("d_" + drv) }));
  }));
}

// ---------------------------------------------------------------- start
function wire() {
  $("next-btn").addEventListener("click", () => send({ type: "gm", gm: "next" }, "gm-err"));
  $("pause-btn").addEventListener("click", () => send({ type: "gm", gm: last.view.paused ? "resume" : "pause" }, "gm-err"));
  $("narrate-btn").addEventListener("click", () => {
    const text = $("narration").value;
    if (!text.trim()) return;
    send({ type: "gm", gm: "narrate", text }, "gm-err");
    $("narration").value = "";
  });
  $("verify-btn").addEventListener("click", runVerify);
  $("paste-btn").addEventListener("click", verifyPasted);
  $("show-dice").addEventListener("change", () => $("log-panel").classList.toggle("nodice", !$("show-dice").checked));
}

window.WarDice = WarDice;
window.warLogText = logText;
if (CREATING) {
  applyI18n();
  setupLangButton();
  showCreate();
} else {
  startTable(WAR);
}
