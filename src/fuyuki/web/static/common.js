// fuyuki online — shared helpers: language, API, Servant Big Battle's card names. No build step.
"use strict";

const I18N = {
  ja: {
    title: "サーヴァント大戦 オンライン", lang_switch: "English", rules: "カード一覧",
    war_link: "聖杯戦争RPG",
    create: "テーブルを作る", your_name: "あなたの名前", players: "人数", bots: "ボットの席数",
    bot_level: "ボットの強さ", edition: "版", mode: "モード", options: "オプション",
    timer: "決定の制限時間", create_btn: "作成", join: "参加する", code: "テーブルコード",
    join_btn: "参加", watch_btn: "観戦する", share_link: "参加用リンク（友だちに送る）",
    spectator_link: "観戦用リンク", go_table: "テーブルへ", lvl_easy: "やさしい", lvl_normal: "ふつう", lvl_hard: "つよい",
    opt_tie_dice: "同点はダイスで決着", opt_land_modifiers: "土地修正", opt_no_berserker_penalty: "バーサーカーの魔力−1なし",
    waiting: "参加者を待っています", start_now: "今すぐ開始（空席はボット）", open_seat: "空席",
    bot: "ボット", you: "あなた", parent: "親", locked: "封印済み", auto: "ボット代行中", offline: "切断中",
    round: "ラウンド", pool: "GEM山", deck: "山札", hand: "手札", gems: "GEM", lands: "土地",
    players_h: "プレイヤー", your_cards: "あなたのカード", log: "経過", hidden: "伏せ", revealed: "公開", dark: "黒化",
    mana: "魔力", power: "戦闘力", np: "宝具", master: "マスター", servant: "サーヴァント",
    confirm: "決定", lock_bid: "このカードで封をする", your_turn: "あなたの番です", wait_others: "他のプレイヤーを待っています…",
    p_draft_master: "マスターを1枚選んでください（残りは次の人へ）", p_draft_servant: "サーヴァントを1枚選んでください（残りは次の人へ）",
    p_place_gem: "あなたは親です。追加のGEMを置く土地を選んでください", p_bid: "出すカードを1枚選んで封をしてください（全員同時）",
    p_jewel: "宝石魔術：手札を1枚捨てて{land}の合計に加えますか？", p_luck: "宝具の効果が解決されようとしています（{source}）。強運を使いますか？",
    p_substitute: "身代わり：サーヴァントの代わりに士郎を破壊しますか？", p_tsubame: "つばめ返し：破壊するサーヴァントの持ち主を選んでください",
    p_swap: "とりかえっこプリーズ：サーヴァントを交換する相手を選んでください",
    auto_bar: "時間切れ・切断のため、ボットがあなたの代わりに打っています。", take_back: "自分で打つ",
    game_over: "ゲーム終了", winner: "勝者", draw: "引き分け", rank: "順位", reason: "理由",
    replay: "リプレイ", prev: "◀ 前", next: "次 ▶", step: "手順", to_start: "最初", to_end: "最後",
    spectating: "観戦中", connecting: "接続中…", disconnected: "切断されました。再接続します…",
    seconds_left: "残り{n}秒", bid_label: "出したカード", none: "なし", cards_h: "カード一覧",
    masters_h: "マスター", servants_h: "サーヴァント", lands_h: "土地", actions_h: "アクションカード", events_h: "イベントカード",
    per_colour: "各色{n}枚", sortie: "出撃", np_card: "宝具", auto_np: "自動発動", table_full: "満席です。観戦できます。",
    err_prefix: "エラー：", seat_label: "席", started: "ゲーム中", over: "終了", back_lobby: "ロビーへ",
    unknown_table: "そのテーブルはありません。", battle_h: "直近の公開とバトル", seen: "ドラフトで見たカード", keyword: "キーワード", victory: "勝利条件: GEM{n}個",
  },
  en: {
    title: "Servant Big Battle online", lang_switch: "日本語", rules: "Cards",
    war_link: "Grail War RPG",
    create: "Create a table", your_name: "Your name", players: "Players", bots: "Bot seats",
    bot_level: "Bot level", edition: "Edition", mode: "Mode", options: "Options",
    timer: "Decision time limit", create_btn: "Create", join: "Join a table", code: "Table code",
    join_btn: "Join", watch_btn: "Watch", share_link: "Link to join (send it to your friends)",
    spectator_link: "Spectator link", go_table: "Go to the table", lvl_easy: "easy", lvl_normal: "normal", lvl_hard: "hard",
    opt_tie_dice: "Tie dice", opt_land_modifiers: "Land modifiers", opt_no_berserker_penalty: "No Berserker 魔力 −1",
    waiting: "Waiting for players", start_now: "Start now (open seats become bots)", open_seat: "open seat",
    bot: "bot", you: "you", parent: "parent", locked: "locked", auto: "bot playing", offline: "offline",
    round: "Round", pool: "Pool", deck: "Deck", hand: "hand", gems: "gems", lands: "Lands",
    players_h: "Players", your_cards: "Your cards", log: "What happened", hidden: "hidden", revealed: "revealed", dark: "dark",
    mana: "魔力", power: "power", np: "宝具", master: "Master", servant: "Servant",
    confirm: "Confirm", lock_bid: "Lock this card", your_turn: "Your move", wait_others: "Waiting for the others…",
    p_draft_master: "Keep one master (the rest go on)", p_draft_servant: "Keep one servant (the rest go on)",
    p_place_gem: "You are the parent: choose the land for the extra gem", p_bid: "Choose one card and lock it (everyone at once)",
    p_jewel: "Jewel magecraft: discard a card to add its value to your total on {land}?", p_luck: "A 宝具 effect is about to resolve ({source}). Use 強運?",
    p_substitute: "Substitute: destroy Shirou instead of your servant?", p_tsubame: "つばめ返し: whose servant is destroyed?",
    p_swap: "とりかえっこプリーズ: swap servants with whom?",
    auto_bar: "A bot is playing for you (time ran out or you were disconnected).", take_back: "I'm back",
    game_over: "Game over", winner: "Winner", draw: "Draw", rank: "Ranking", reason: "Reason",
    replay: "Replay", prev: "◀ Prev", next: "Next ▶", step: "Step", to_start: "Start", to_end: "End",
    spectating: "Watching", connecting: "Connecting…", disconnected: "Disconnected. Reconnecting…",
    seconds_left: "{n} s left", bid_label: "bid", none: "none", cards_h: "Every card",
    masters_h: "Masters", servants_h: "Servants", lands_h: "Lands", actions_h: "Action cards", events_h: "Event cards",
    per_colour: "{n} per colour", sortie: "出撃 (sortie)", np_card: "宝具 (NP)", auto_np: "automatic", table_full: "Every seat is taken. You can watch.",
    err_prefix: "Error: ", seat_label: "seat", started: "playing", over: "over", back_lobby: "Lobby",
    unknown_table: "There is no such table.", battle_h: "Last reveal and battles", seen: "Seen in the drafts", keyword: "keyword", victory: "Victory: {n} gems",
  },
};

// the table server's lobby (every game)
Object.assign(I18N.ja, { lobby_title: "fuyuki オンライン — 友だちと遊ぶ", game: "ゲーム", rules_sbb: "サーヴァント大戦のカード一覧" });
Object.assign(I18N.en, { lobby_title: "fuyuki online — play with friends", game: "Game", rules_sbb: "Servant Big Battle's cards" });

const ERRORS = {
  ja: { not_an_option: "その選択はできません", not_your_turn: "今はあなたの番ではありません", stale_decision: "その決定はもう締め切られました",
        rate_limited: "送信が多すぎます", table_full: "満席です", table_started: "もう始まっています", bad_name: "名前は1〜24文字",
        bad_config: "設定が正しくありません", not_found: "そのテーブルはありません", bad_token: "席の鍵が無効です",
        not_started: "まだ始まっていません", game_over: "ゲームは終わりました", not_host: "開始できるのはホストだけです" },
  en: {},
};

const COLOUR = { ja: { red: "赤", blue: "青", green: "緑", yellow: "黄", purple: "紫" },
                 en: { red: "red", blue: "blue", green: "green", yellow: "yellow", purple: "purple" } };
const OPTION = { ja: { use: "使う", decline: "使わない", yes: "はい", no: "いいえ", pass: "使わない" },
                 en: { use: "Use", decline: "Decline", yes: "Yes", no: "No", pass: "Pass" } };

function lang() { return localStorage.getItem("fuyuki.lang") || "ja"; }
function setLang(l) { localStorage.setItem("fuyuki.lang", l); document.documentElement.lang = l; }
function t(key, params) {
  let s = (I18N[lang()] && I18N[lang()][key]) || I18N.en[key] || key;
  if (params) for (const k in params) s = s.split("{" + k + "}").join(String(params[k]));
  return s;
}
function errText(code, message) {
  const m = ERRORS[lang()] && ERRORS[lang()][code];
  return t("err_prefix") + (m || message || code);
}
function applyI18n(root) {
  (root || document).querySelectorAll("[data-i18n]").forEach(el => { el.textContent = t(el.dataset.i18n); });
  document.title = t(document.body.dataset.title || "title");
}
function setupLangButton(onChange) {
  const b = document.getElementById("lang");
  if (!b) return;
  document.documentElement.lang = lang();
  b.textContent = t("lang_switch");
  b.addEventListener("click", () => {
    setLang(lang() === "ja" ? "en" : "ja");
    b.textContent = t("lang_switch");
    applyI18n();
    if (onChange) onChange();
  });
}
function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  if (attrs) for (const k in attrs) {
    if (k === "class") e.className = attrs[k];
    else if (k === "text") e.textContent = attrs[k];
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), attrs[k]);
    else if (attrs[k] !== null && attrs[k] !== undefined) e.setAttribute(k, attrs[k]);
  }
  for (const c of children) if (c !== null && c !== undefined) e.append(c);
  return e;
}
async function api(path, body) {
  const opts = body === undefined ? {} : { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
  const r = await fetch(path, opts);
  let data = null;
  try { data = await r.json(); } catch (e) { data = { error: "bad_response" }; }
  if (!r.ok) { const err = new Error(data.message || data.error); err.code = data.error; throw err; }
  return data;
}

// ---- cards
let CARDS = null;
const CARD_INDEX = {};
async function loadCards(edition, mode) {
  CARDS = await api(`/api/cards?edition=${encodeURIComponent(edition || "final")}&mode=${encodeURIComponent(mode || "standard")}`);
  for (const group of ["masters", "servants", "lands", "events"]) for (const c of CARDS[group]) CARD_INDEX[c.id] = { ...c, group };
  return CARDS;
}
function parseAction(id) {
  const m = /^([a-z]+)-(sortie|np)-(\d+)$/.exec(String(id));
  return m ? { colour: m[1], kind: m[2], value: +m[3] } : null;
}
function cardName(id) {
  if (id === null || id === undefined || id === "") return t("none");
  const c = CARD_INDEX[id];
  if (c) return lang() === "en" && c.name.en ? `${c.name.ja} (${c.name.en})` : c.name.ja;  // Japanese first
  const a = parseAction(id);
  if (a) {
    const kind = a.kind === "np" ? "宝具" : "出撃";
    return lang() === "ja" ? `${COLOUR.ja[a.colour]}の${kind}${a.value}` : `${COLOUR.en[a.colour]} ${kind} ${a.value}`;
  }
  if (OPTION[lang()][id]) return OPTION[lang()][id];
  return String(id);
}
function cardText(id) {
  const c = CARD_INDEX[id];
  return c && c.text ? (c.text[lang()] || c.text.ja) : "";
}
function landColour(id) { const c = CARD_INDEX[id]; return c ? c.colour : "none"; }
