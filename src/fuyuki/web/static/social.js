// What players of online board games expect, for every table page (Servant Big Battle, the
// board, the RPG war): the reconnect banner, whose turn (tab title, optional sound), the
// invite button with its QR code, chat with stamps, the rematch, and the games this browser
// played. Needs common.js (t, el, lang, api). Everything a player typed is inserted as text.
"use strict";

Object.assign(I18N.ja, {
  reconnecting: "接続が切れました。再接続しています…（操作はできません）", reconnected: "再接続しました",
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

const STAMPS = ["hello", "gg", "thanks", "sorry", "nice", "wow", "thinking", "oops"];   // web/chat.py
// (text, not emoji: a phone or a server without an emoji font would show empty boxes)

const Social = {
  // ---------------------------------------------------------------- connection banner
  // A loud banner while the WebSocket is down; the page's prompt is disabled meanwhile
  // (body.offline), so nobody clicks into the void.
  connection(up) {
    let b = document.getElementById("reconnect");
    if (!b) {
      b = el("div", { id: "reconnect", class: "hidden", role: "alert" });
      document.body.prepend(b);
    }
    b.textContent = t("reconnecting");
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
