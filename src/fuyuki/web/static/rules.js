// The rules page: every card of an edition with its text, straight from the card data.
"use strict";

const $ = id => document.getElementById(id);

function ruleCard(title, meta, text, attrs) {
  return el("div", { class: "rule-card", ...attrs }, el("div", { class: "title", text: title }),
    meta ? el("div", { class: "meta", text: meta }) : null, text ? el("div", { text }) : null);
}
const pick = txt => (txt && (txt[lang()] || txt.ja)) || "";

async function draw() {
  applyI18n();
  const edition = $("edition").value || "final";
  const cs = await loadCards(edition, "standard");
  $("victory").textContent = t("victory", { n: cs.victory_gems }) + ` · ${t("pool")} ${cs.gem_pool}`;
  $("masters").replaceChildren(...cs.masters.map(m => ruleCard(m.name.ja + (lang() === "en" ? ` (${m.name.en})` : ""),
    `${t("mana")} ${m.mana} · ${m.ability_name.ja}${lang() === "en" ? ` (${m.ability_name.en})` : ""}`, pick(m.text), { "data-card": m.id })));
  $("servants").replaceChildren(...cs.servants.map(s => ruleCard(s.name.ja + (lang() === "en" ? ` (${s.name.en})` : ""),
    `${t("power")} ${s.power} · ${t("np")}: ${s.np_name.ja}${s.keyword ? ` (${t("keyword")}: ${s.keyword})` : ""}${s.auto ? ` · ${t("auto_np")}` : ""}`,
    pick(s.text), { "data-card": s.id })));
  $("lands-list").replaceChildren(...cs.lands.map(l => el("div", { class: `land c-${l.colour}`, "data-card": l.id, style: null },
    el("div", { text: `${l.name.ja} — ${COLOUR[lang()][l.colour]}` }))));
  const rows = cs.actions.map(a => el("tr", null, el("td", { text: a.kind === "np" ? t("np_card") : t("sortie") }),
    el("td", { text: String(a.value) }), el("td", { text: t("per_colour", { n: a.count_per_colour }) })));
  $("actions").replaceChildren(el("table", { class: "actions" }, ...rows));
  $("events").replaceChildren(...cs.events.map(e => ruleCard(e.name.ja + (lang() === "en" ? ` (${e.name.en})` : ""), null,
    pick(e.text), { "data-card": e.id })));
}

async function init() {
  setupLangButton(draw);
  const meta = await api("/api/meta");
  $("edition").replaceChildren(...meta.editions.map(e => el("option", { value: e, text: e })));
  $("edition").value = meta.editions.includes("final") ? "final" : meta.editions[0];
  $("edition").addEventListener("change", draw);
  draw();
}
init();
