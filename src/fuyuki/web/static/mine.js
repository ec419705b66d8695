// The tables waiting for this browser: the seat tokens it keeps (localStorage
// "fuyuki.token.CODE", written by the table pages) go to POST /api/mine in the body (never in
// an address); the server answers for the valid ones only: game, status, whether the seat
// decides now and its deadline. The tables whose move it is come first. Needs social.js.
"use strict";

const MAX_PAIRS = 50;                       // web/pbp.py

function heldPairs() {
  const pairs = [];
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i);
    const m = /^fuyuki\.token\.([A-Za-z0-9_-]+)$/.exec(key || "");
    if (m) pairs.push({ code: m[1], token: localStorage.getItem(key) });
  }
  const order = Social.history().map(g => g.code);            // the latest games first
  const rank = c => { const i = order.indexOf(c); return i < 0 ? order.length : i; };
  return pairs.sort((a, b) => rank(a.code) - rank(b.code)).slice(0, MAX_PAIRS);
}

function title(g) { return typeof g.title === "string" ? g.title : (g.title[lang()] || g.title.ja || g.game); }

async function drawMine() {
  const box = document.getElementById("mine");
  const pairs = heldPairs();
  let tables = [];
  if (pairs.length) {
    try { tables = (await api("/api/mine", { tables: pairs })).tables; }
    catch (e) { document.getElementById("mine-err").textContent = errText(e.code, e.message); }
  }
  tables.sort((a, b) => (b.decide - a.decide) || ((a.deadline || Infinity) - (b.deadline || Infinity)));
  box.replaceChildren(...(tables.length ? tables.map(g => el("li", { class: g.decide ? "mine-decide" : "", "data-code": g.code },
    el("a", { href: "/t/" + g.code, text: `${title(g)} ${g.code}` }),
    el("span", { class: g.decide ? "badge" : "dim", text: " · " + (g.decide ? t("mine_decide") : t("status_" + g.status)) }),
    g.deadline ? el("span", { class: "dim", text: " · " + t("mine_until", { at: new Date(g.deadline * 1000).toLocaleString(lang()) }) }) : null))
    : [el("li", { class: "dim", text: t("mine_none") })]));
}

setupLangButton(drawMine);
applyI18n();
drawMine();
