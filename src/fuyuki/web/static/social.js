// What players of online board games expect, for every table page (Servant Big Battle, the
// board, the RPG war): the reconnect banner, whose turn (tab title, optional sound), the
// invite button with its QR code, chat with stamps, the rematch, and the games this browser
// played. Needs common.js (t, el, lang, api). Everything a player typed is inserted as text.
"use strict";

Object.assign(I18N.ja, {
  reconnecting: "接続が切れました。再接続しています…（操作はできません）", reconnected: "再接続しました",
  restarting: "サーバーが再起動しています。戻りしだい再接続します…（操作はできません）",
  invite: "招待", invite_h: "友だちを招待", copy_link: "リンクをコピー", copied: "コピーしました",
  qr_note: "スマホのカメラで読み取ると参加ページが開きます", close: "閉じる",
  sound_on: "♪ 音あり", sound_off: "♪ 音なし", turn_title: "● あなたの番",
  waiting_for: "待っている: {names}", waiting_hidden: "誰かが非公開の決定をしています…", your_turn_now: "あなたの番です",
  chat_h: "チャット", chat_send: "送信", chat_placeholder: "メッセージ（200文字まで）", chat_spectator: "観戦者は読むだけです", chat_replay: "リプレイのこの手順までのチャット",
  rematch: "同じメンバーでもう一戦", rematch_ready: "再戦のテーブルができました", rematch_go: "再戦へ",
  back_to_lobby: "ロビーに戻る", show_hands: "全員の手札を見る", hands_h: "全員のカード",
  rp_play: "▶ 自動再生", rp_pause: "❚❚ 一時停止", rp_close: "リプレイを閉じる", rp_jump: "移動:", rp_round: "ラウンド{n}", rp_turn: "ターン{n}",
  history_h: "このブラウザで遊んだゲーム", open_tables_h: "参加者募集中のテーブル", no_open_tables: "いまはありません",
  public_table: "ロビーの一覧に公開する", seats_open: "空席{n}/{m}", host_label: "ホスト",
  status_waiting: "募集中", status_playing: "ゲーム中", status_over: "終了",
  stamp_hello: "よろしく", stamp_gg: "おつかれさま", stamp_thanks: "ありがとう", stamp_sorry: "ごめん",
  stamp_nice: "ナイス", stamp_wow: "おお！", stamp_thinking: "考え中…", stamp_oops: "しまった",
});
Object.assign(I18N.en, {
  reconnecting: "Connection lost. Reconnecting… (you cannot play until it is back)", reconnected: "Reconnected",
  restarting: "The server is restarting. Reconnecting as soon as it is back… (you cannot play until then)",
  invite: "Invite", invite_h: "Invite friends", copy_link: "Copy link", copied: "Copied",
  qr_note: "Scan with a phone camera to open the join page", close: "Close",
  sound_on: "♪ Sound on", sound_off: "♪ Sound off", turn_title: "● Your move",
  waiting_for: "Waiting for: {names}", waiting_hidden: "Someone is making a secret decision…", your_turn_now: "Your move",
  chat_h: "Chat", chat_send: "Send", chat_placeholder: "Message (up to 200 characters)", chat_spectator: "Spectators can read only", chat_replay: "The chat up to this step of the replay",
  rematch: "Rematch with the same players", rematch_ready: "The rematch table is ready", rematch_go: "Go to the rematch",
  back_to_lobby: "Back to the lobby", show_hands: "Show every hand", hands_h: "Everyone's cards",
  rp_play: "▶ Autoplay", rp_pause: "❚❚ Pause", rp_close: "Close the replay", rp_jump: "Go to:", rp_round: "Round {n}", rp_turn: "Turn {n}",
  history_h: "Games on this browser", open_tables_h: "Open tables", no_open_tables: "None right now",
  public_table: "List this table in the lobby", seats_open: "{n} of {m} seats open", host_label: "host",
  status_waiting: "waiting", status_playing: "playing", status_over: "over",
  stamp_hello: "Hello!", stamp_gg: "Good game", stamp_thanks: "Thanks", stamp_sorry: "Sorry",
  stamp_nice: "Nice", stamp_wow: "Wow!", stamp_thinking: "Thinking…", stamp_oops: "Oops",
});
Object.assign(ERRORS.ja, { bad_chat: "チャットは1〜200文字です", spectator: "観戦者はできません",
  chat_full: "チャットがいっぱいです", too_many_tables: "テーブルが多すぎます。終わったテーブルを離れてください",
  name_taken: "その名前はこのテーブルで使われています", reserved_name: "席の表示（P0…）やボットに見える名前は使えません",
  not_over: "ゲームが終わってから", no_room: "観戦席がいっぱいです",
  replaced: "この席は別のタブか端末で開かれました（こちらは閉じました）" });
Object.assign(ERRORS.en, { no_room: "No place left for spectators at this table",
  replaced: "This seat was opened in another tab or device (this page let go)",
  not_found: "There is no such table" });

// play-by-post: the decision limits the lobby offers, the notices of a closed page, /mine
Object.assign(I18N.ja, {
  timer_0: "なし", timer_60: "1分", timer_300: "5分", timer_3600: "1時間", timer_43200: "12時間",
  timer_86400: "1日", timer_259200: "3日", time_left_long: "残り{d}日{h}時間{m}分", time_left_hours: "残り{h}時間{m}分",
  notify_h: "通知（ページを閉じているとき）",
  notify_note: "このページを閉じている間にあなたの番が来たら知らせます（決定ごとに1回）。リンクに席の鍵は入りません：開くのはこのブラウザです。",
  notify_email: "メールアドレス", notify_webhook: "Webhook URL（Discord など、https）", notify_save: "保存", notify_remove: "解除",
  notify_saved: "保存しました", notify_removed: "解除しました", follow_h: "新しいターンと安価の通知を受け取る", follow_note: "読者として購読します（いつでも停止できます）。",
  follow_btn: "購読", unfollow_btn: "購読をやめる", following: "購読中",
  mine_link: "あなたの番のテーブル", mine_h: "このブラウザのテーブル", mine_none: "このブラウザが席を持つテーブルはありません",
  mine_decide: "あなたの番", mine_wait: "待ち", mine_until: "期限 {at}",
});
Object.assign(I18N.en, {
  timer_0: "off", timer_60: "1 min", timer_300: "5 min", timer_3600: "1 hour", timer_43200: "12 hours",
  timer_86400: "1 day", timer_259200: "3 days", time_left_long: "{d} d {h} h {m} min left", time_left_hours: "{h} h {m} min left",
  notify_h: "Notices (while this page is closed)",
  notify_note: "You hear when it is your move while this page is closed (once per decision). The link carries no seat key: this browser opens it.",
  notify_email: "E-mail address", notify_webhook: "Webhook URL (Discord…, https)", notify_save: "Save", notify_remove: "Remove",
  notify_saved: "Saved", notify_removed: "Removed", follow_h: "Hear of new turns and 安価 questions", follow_note: "You follow as a reader (stop any time).",
  follow_btn: "Follow", unfollow_btn: "Stop following", following: "Following",
  mine_link: "Tables waiting for you", mine_h: "This browser's tables", mine_none: "This browser holds no seat",
  mine_decide: "Your move", mine_wait: "waiting", mine_until: "until {at}",
});
Object.assign(ERRORS.ja, { bad_email: "メールアドレスではありません", bad_webhook: "Webhook は公開ホストの https URL です",
  private_webhook: "Webhook の宛先にプライベート・ループバックのアドレスは使えません", notify_off: "このサーバーはこの通知を送りません",
  readers_full: "このテーブルの読者通知は満員です", bad_notify: "通知の設定が正しくありません" });

const STAMPS = ["hello", "gg", "thanks", "sorry", "nice", "wow", "thinking", "oops"];   // web/chat.py
// (text, not emoji: a phone or a server without an emoji font would show empty boxes)

const Social = {
  // ---------------------------------------------------------------- connection banner
  // A loud banner while the WebSocket is down; the page's prompt is disabled meanwhile
  // (body.offline), so nobody clicks into the void.
  connection(up, why = "reconnecting") {
    let b = document.getElementById("reconnect");
    if (!b) {
      b = el("div", { id: "reconnect", class: "hidden", role: "alert" });
      document.body.prepend(b);
    }
    b.textContent = t(why);
    b.classList.toggle("hidden", up);
    document.body.classList.toggle("offline", !up);
  },

  // ---------------------------------------------------------------- whose turn
  // ``mine``: this seat has an open decision. The tab title says so (also when the tab is in
  // the background) and, if the player switched the sound on, a short tone plays once per turn.
  turn(mine, turnId) {
    const title = t(document.body.dataset.title || "title");
    document.title = mine ? `${t("turn_title")} — ${title}` : title;
    if (mine && turnId !== this._lastTurn) this.beep();
    this._lastTurn = mine ? turnId : null;
  },
  soundOn() { return localStorage.getItem("fuyuki.sound") === "1"; },
  soundButton(button) {
    const label = () => { button.textContent = this.soundOn() ? t("sound_on") : t("sound_off"); };
    label();
    button.addEventListener("click", () => {
      localStorage.setItem("fuyuki.sound", this.soundOn() ? "0" : "1");
      label();
      if (this.soundOn()) this.beep();
    });
    return label;
  },
  beep() {
    if (!this.soundOn()) return;
    try {
      const ctx = this._audio || (this._audio = new (window.AudioContext || window.webkitAudioContext)());
      const o = ctx.createOscillator(), g = ctx.createGain();
      o.frequency.value = 880;
      g.gain.setValueAtTime(0.15, ctx.currentTime);
      g.gain.exponentialRampToValueAtTime(0.001, ctx.currentTime + 0.35);
      o.connect(g).connect(ctx.destination);
      o.start();
      o.stop(ctx.currentTime + 0.35);
    } catch (e) { /* no audio: the title still says it */ }
  },
  // "Waiting for: P1 Bob, P2" from the state's waiting_for (null: an unnamed secret decision)
  waitingText(waiting, you, seatName) {
    if (waiting === null || waiting === undefined) return t("waiting_hidden");
    if (waiting.includes(you) && waiting.length === 1) return t("your_turn_now");
    return t("waiting_for", { names: waiting.map(s => s === you ? t("you") : seatName(s)).join(", ") });
  },

  // ---------------------------------------------------------------- invite
  invite(button, code) {
    const link = `${location.origin}/t/${code}`;
    button.addEventListener("click", () => {
      let d = document.getElementById("invite-dialog");
      if (!d) {
        const shown = el("div", { class: "share", id: "invite-link", text: link });
        d = el("dialog", { id: "invite-dialog" },
          el("h2", { text: t("invite_h") }), shown,
          el("div", { class: "row" }, this.copyButton(() => link, shown, { id: "copy-link", class: "primary" })),
          el("img", { id: "invite-qr", src: `/api/tables/${code}/qr.svg`, alt: "QR", width: "220", height: "220" }),
          el("p", { class: "dim", text: t("qr_note") }),
          el("form", { method: "dialog" }, el("button", { type: "submit", text: t("close") })));
        document.body.append(d);
      }
      d.showModal();
    });
  },
  // a button that copies ``text()`` (without the clipboard API: selects ``node`` and copies it)
  copyButton(text, node, attrs) {
    const b = el("button", { type: "button", class: "small", ...(attrs || {}), text: t("copy_link") });
    b.addEventListener("click", async () => {
      try { await navigator.clipboard.writeText(text()); }
      catch (e) {                              // no clipboard API (http, old browser)
        const r = document.createRange(); r.selectNodeContents(node);
        const s = getSelection(); s.removeAllRanges(); s.addRange(r); document.execCommand("copy");
      }
      b.textContent = t("copied");
      setTimeout(() => { b.textContent = t("copy_link"); }, 2000);
    });
    return b;
  },

  // ---------------------------------------------------------------- chat
  // A panel: the lines so far, a text box and the stamps. ``send`` posts a message object.
  chatPanel(box, send) {
    const list = el("div", { id: "chat-log", "aria-live": "polite" });
    const input = el("input", { id: "chat-input", maxlength: "200", placeholder: t("chat_placeholder"), autocomplete: "off" });
    const form = el("form", { id: "chat-form", class: "row" }, input,
      el("button", { type: "submit", class: "small", text: t("chat_send") }));
    form.addEventListener("submit", ev => {
      ev.preventDefault();
      const text = input.value.trim();
      if (text) { send({ type: "chat", text }); input.value = ""; }
    });
    const stamps = el("div", { id: "stamps", class: "row" }, ...STAMPS.map(s => {
      const b = el("button", { type: "button", class: "small stamp", "data-stamp": s, text: t("stamp_" + s) });
      b.addEventListener("click", () => send({ type: "chat", stamp: s }));
      return b;
    }));
    const note = el("div", { id: "chat-note", class: "dim small-note hidden", text: t("chat_spectator") });
    box.replaceChildren(el("h2", { text: t("chat_h") }), list, note, form, stamps);
  },
  // every chat line so far; ``note``: why this page cannot write (a spectator, the replay)
  chatUpdate(lines, seatName, canWrite, note) {
    this.drawChat(lines, seatName);
    const form = document.getElementById("chat-form");
    if (form) {
      form.classList.toggle("hidden", !canWrite);
      document.getElementById("stamps").classList.toggle("hidden", !canWrite);
      const n = document.getElementById("chat-note");
      n.textContent = t(note || "chat_spectator");
      n.classList.toggle("hidden", canWrite);
    }
  },
  drawChat(lines, seatName) {
    const list = document.getElementById("chat-log");
    if (!list) return;
    list.replaceChildren(...lines.slice(-200).map(c => el("div", { class: "chat-line" + (c.stamp ? " stamp" : "") },
      el("b", { text: seatName(c.seat) + ": " }),
      c.stamp ? `«${t("stamp_" + c.stamp)}»` : c.text)));
    list.scrollTop = list.scrollHeight;
  },

  // ---------------------------------------------------------------- the time left
  // a decision's time left: seconds for a live table, hours and days for play-by-post
  timeLeft(n) {
    if (n < 600) return t("seconds_left", { n });
    const d = Math.floor(n / 86400), h = Math.floor(n % 86400 / 3600), m = Math.floor(n % 3600 / 60);
    return d ? t("time_left_long", { d, h, m }) : t("time_left_hours", { h, m });
  },

  // ---------------------------------------------------------------- notices
  // A panel after the chat: a seat sets its e-mail and webhook (shown to that seat only, sent
  // with its token in a header); a reader of a game with news follows it with a key of its
  // own (kept here, the unsubscribe link carries it too). Drawn again when the page's seat
  // or language changes.
  async notifyPanel(code, seatToken) {
    const chat = document.getElementById("chat");
    if (!chat) return;
    const who = (seatToken ? "seat" : "reader") + lang();
    let box = document.getElementById("notify-panel");
    if (box && box.dataset.who === who) return;
    if (!box) { box = el("section", { id: "notify-panel", class: "panel" }); chat.after(box); }
    box.dataset.who = who;
    let server = { offered: {}, news: false };
    try { server = await api(`/api/notify?code=${encodeURIComponent(code)}`); } catch (e) { /* none */ }
    const offered = server.offered.email || server.offered.webhook;
    box.classList.toggle("hidden", !offered || (!seatToken && !server.news));
    if (box.classList.contains("hidden")) return;
    const note = el("div", { id: "notify-msg", class: "dim small-note", "aria-live": "polite" });
    const say = (key, e) => { note.textContent = e ? errText(e.code, e.message) : t(key); };
    const call = async (method, path, body) => {
      const headers = { "Content-Type": "application/json" };
      if (seatToken) headers["X-Seat-Token"] = seatToken;
      const r = await fetch(path, { method, headers, body: body ? JSON.stringify(body) : undefined });
      const data = await r.json();
      if (!r.ok) { const err = new Error(data.message); err.code = data.error; throw err; }
      return data;
    };
    const row = (kind, label, value, onSave, onRemove) => {
      const input = el("input", { id: `notify-${kind}`, type: kind === "email" ? "email" : "url",
        maxlength: "500", autocomplete: "off", value: value || "" });
      return el("div", { class: "row" }, el("label", null, el("span", { text: t(label) }), el("br"), input),
        el("button", { type: "button", class: "small", id: `notify-${kind}-save`, text: t(seatToken ? "notify_save" : "follow_btn"),
          onclick: () => onSave(kind, input.value.trim()) }),
        onRemove ? el("button", { type: "button", class: "small", id: `notify-${kind}-remove`, text: t("notify_remove"),
          onclick: () => { input.value = ""; onRemove(kind); } }) : null);
    };
    const body = [el("summary", { text: t(seatToken ? "notify_h" : "follow_h") })];
    if (seatToken) {
      let mine;
      try { mine = await call("GET", `/api/tables/${code}/notify`); } catch (e) { box.classList.add("hidden"); return; }
      const save = async (kind, target) => {
        try { await call("POST", `/api/tables/${code}/notify`, { kind, target, lang: lang() }); say(target ? "notify_saved" : "notify_removed"); }
        catch (e) { say(null, e); }
      };
      body.push(el("p", { class: "dim small-note", text: t("notify_note") }));
      for (const [kind, label] of [["email", "notify_email"], ["webhook", "notify_webhook"]]) {
        if (mine.offered[kind]) body.push(row(kind, label, mine[kind], save, k => save(k, "")));
      }
    } else {
      const KEY = "fuyuki.follow." + code;
      const keys = () => { try { return JSON.parse(localStorage.getItem(KEY) || "[]"); } catch (e) { return []; } };
      const follow = async (kind, target) => {
        try {
          const r = await call("POST", `/api/tables/${code}/follow`, { kind, target, lang: lang() });
          localStorage.setItem(KEY, JSON.stringify([...keys(), r.key]));
          say("following");
        } catch (e) { say(null, e); }
      };
      body.push(el("p", { class: "dim small-note", text: t("follow_note") }),
        server.offered.email ? row("email", "notify_email", "", follow, null) : null,
        server.offered.webhook ? row("webhook", "notify_webhook", "", follow, null) : null,
        el("button", { type: "button", class: "small", id: "unfollow-btn", text: t("unfollow_btn"), onclick: async () => {
          for (const key of keys()) { try { await call("POST", `/api/tables/${code}/unfollow`, { key }); } catch (e) { /* gone */ } }
          localStorage.removeItem(KEY);
          say("notify_removed");
        } }));
    }
    body.push(note);
    box.replaceChildren(el("details", null, ...body));
  },

  // ---------------------------------------------------------------- rematch
  // The rematch table takes the same seat tokens: this browser's token for the old table opens
  // the new one.
  goRematch(oldCode, newCode) {
    const token = localStorage.getItem("fuyuki.token." + oldCode);
    if (token) localStorage.setItem("fuyuki.token." + newCode, token);
    location.href = "/t/" + newCode;
  },

  // ---------------------------------------------------------------- games this browser played
  remember(code, entry) {
    const all = this.history().filter(g => g.code !== code);
    all.unshift({ code, ...entry, at: Date.now() });
    localStorage.setItem("fuyuki.history", JSON.stringify(all.slice(0, 30)));
  },
  history() {
    try { const h = JSON.parse(localStorage.getItem("fuyuki.history") || "[]"); return Array.isArray(h) ? h : []; }
    catch (e) { return []; }
  },
};
