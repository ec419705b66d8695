// The lobby's two lists: the public tables with an open seat (refreshed every 10 s) and the
// games this browser played (localStorage, written by the table pages). Needs social.js.
"use strict";

function tableTitle(g) {
  const title = typeof g.title === "string" ? g.title : g.title ? (g.title[lang()] || g.title.ja) : "";
  return title || g.game || "";
}

async function drawOpenTables() {
  const box = document.getElementById("open-tables");
  if (!box) return;
  let tables = [];
  try { tables = (await api("/api/tables")).tables; } catch (e) { tables = []; }
  box.replaceChildren(...(tables.length ? tables.map(g => el("li", null,
    el("a", { href: "/t/" + g.code, text: `${tableTitle(g)} — ${t("host_label")}: ${g.host}` }),
    el("span", { class: "dim", text: ` · ${t("seats_open", { n: g.open, m: g.seats })}` })))
    : [el("li", { class: "dim", text: t("no_open_tables") })]));
}

function drawHistory() {
  const box = document.getElementById("history");
  if (!box) return;
  const games = Social.history();
  document.getElementById("history-panel").classList.toggle("hidden", !games.length);
  box.replaceChildren(...games.map(g => el("li", null,
    el("a", { href: "/t/" + g.code, text: `${tableTitle(g)} — ${(g.names || []).join(", ")}` }),
    el("span", { class: "dim", text: ` · ${new Date(g.at).toLocaleString(lang())} · ${t("status_" + (g.status || "playing"))}` }))));
}

function drawLists() { drawOpenTables(); drawHistory(); }
drawLists();
setInterval(drawOpenTables, 10000);
document.getElementById("lang") && document.getElementById("lang").addEventListener("click", drawLists);
