// The lobby: create a table of any game the server hosts, or go to one by its code.
"use strict";

async function initLobby() {
  applyI18n();
  setupLangButton(fillMeta);
  const saved = localStorage.getItem("fuyuki.name");
  if (saved) document.getElementById("c-name").value = saved;
  // (the form is this script's before the lobby's data arrives: a quick submit stays here)
  document.getElementById("create-form").addEventListener("submit", createTable);
  await fillMeta();
  document.getElementById("c-edition").addEventListener("change", fillPlayers);
  document.getElementById("c-mode").addEventListener("change", fillPlayers);
  document.getElementById("c-players").addEventListener("change", fillBots);
  document.getElementById("c-game").addEventListener("change", () => {
    const own = META.games[game()].create;       // a game with its own creation page
    if (own) { location.href = own; return; }
    fillLevels(); fillPlayers();
  });
  document.getElementById("join-form").addEventListener("submit", ev => {
    ev.preventDefault();
    let code = document.getElementById("j-code").value.trim();
    const m = /\/t\/([A-Za-z0-9_-]+)/.exec(code);
    if (m) code = m[1];
    if (/^[A-Za-z0-9_-]{8,32}$/.test(code)) location.href = "/t/" + code;
  });
}

let META = null;
async function fillMeta() {
  META = META || await api("/api/meta");
  const games = Object.keys(META.games);
  fill("c-game", games, g => META.games[g].title[lang()] || g);
  fillLevels();
  fill("c-edition", META.editions);
  if (META.editions.includes("final") && !document.getElementById("c-edition").dataset.init) {
    document.getElementById("c-edition").value = "final";
    document.getElementById("c-edition").dataset.init = "1";
  }
  fill("c-mode", META.modes);
  fillPlayers();
  const box = document.getElementById("c-options");
  const checked = new Set([...box.querySelectorAll("input:checked")].map(i => i.value));
  box.replaceChildren(...META.options.map(o => el("label", null,
    el("input", { type: "checkbox", value: o, ...(checked.has(o) ? { checked: "" } : {}) }), " " + t("opt_" + o))));
}

function fill(id, values, label) {
  const s = document.getElementById(id), cur = s.value;
  s.replaceChildren(...values.map(v => el("option", { value: v, text: label ? label(v) : v })));
  if (cur && values.includes(cur)) s.value = cur;
}
function game() { return document.getElementById("c-game").value || META.default; }

// the bot levels of the chosen game (normal unless the player chose another)
function fillLevels() {
  const levels = META.games[game()].levels, s = document.getElementById("c-level");
  fill("c-level", levels, v => t("lvl_" + v));
  if (!s.dataset.init || !levels.includes(s.value)) {
    s.value = levels.includes("normal") ? "normal" : levels[0];
    s.dataset.init = "1";
  }
  document.querySelectorAll(".sbb-only").forEach(e => e.classList.toggle("hidden", game() !== "sbb"));
}

// the player counts the chosen game (edition and mode) allows; bot seats leave the host a seat
function fillPlayers() {
  const key = `${document.getElementById("c-edition").value}/${document.getElementById("c-mode").value}`;
  const counts = game() === "sbb" ? ((META.players && META.players[key]) || [3, 4, 5]) : META.games[game()].players;
  const p = document.getElementById("c-players"), cur = +p.value || 4;
  p.replaceChildren(...counts.map(n => el("option", { value: n, text: String(n) })));
  p.value = counts.includes(cur) ? cur : counts[Math.min(1, counts.length - 1)];
  fillBots();
}
function fillBots() {
  const n = +document.getElementById("c-players").value;
  const b = document.getElementById("c-bots"), cur = +b.value;
  const values = [...Array(n).keys()];
  b.replaceChildren(...values.map(k => el("option", { value: k, text: String(k) })));
  b.value = values.includes(cur) ? cur : Math.min(1, n - 1);
}

async function createTable(ev) {
  ev.preventDefault();
  if (!META) await fillMeta();               // submitted before the lobby's data arrived
  const err = document.getElementById("c-err");
  err.textContent = "";
  const name = document.getElementById("c-name").value.trim();
  localStorage.setItem("fuyuki.name", name);
  const body = {
    name, game: game(),
    players: +document.getElementById("c-players").value,
    bots: +document.getElementById("c-bots").value,
    bot_level: document.getElementById("c-level").value,
    timer: +document.getElementById("c-timer").value || 0,
    public: !!(document.getElementById("c-public") || {}).checked,
  };
  if (body.game === "sbb") {
    body.edition = document.getElementById("c-edition").value;
    body.mode = document.getElementById("c-mode").value;
    body.options = [...document.querySelectorAll("#c-options input:checked")].map(i => i.value);
  }
  try {
    const r = await api("/api/tables", body);
    if (r.token) localStorage.setItem("fuyuki.token." + r.code, r.token);
    const url = `${location.origin}/t/${r.code}`;
    document.getElementById("share-link").textContent = url;
    document.getElementById("spec-link").textContent = url + "?watch=1";
    document.getElementById("go-table").href = "/t/" + r.code;
    document.getElementById("created").classList.remove("hidden");
    document.getElementById("create-form").classList.add("hidden");
  } catch (e) {
    err.textContent = errText(e.code, e.message);
  }
}

initLobby();
