// Servant Big Battle cards drawn as cards: the faces of the print-and-play sheets
// (src/fuyuki/sbb/printing) — a coloured edge, a cream frame, the kind, the stat in a circle,
// the name (English beside it in English mode), the ability box; action cards with their
// colour band, kind and value, and the land of their colour at the foot. A tap on any card
// opens its text (touch screens have no hover). Needs common.js (CARD_INDEX, t, el).
"use strict";

const KIND_LABEL = {
  ja: { masters: "マスター", servants: "サーヴァント", events: "イベント", lands: "土地", sortie: "出撃", np: "宝具" },
  en: { masters: "MASTER", servants: "SERVANT", events: "EVENT", lands: "LAND", sortie: "出撃 sortie", np: "宝具 NP" },
};

function kindLabel(k) { return (KIND_LABEL[lang()] || KIND_LABEL.ja)[k] || k; }

// the land of an action card's colour (its bid goes there), from the table's lands
function landOf(colour, lands) {
  const l = (lands || []).find(x => landColour(x.id) === colour);
  return l ? l.id : null;
}

function nameBlock(c) {
  const out = [el("div", { class: "fname" + (c.name.ja.length > 7 ? " long" : ""), text: c.name.ja })];
  if (lang() === "en" && c.name.en) out.push(el("div", { class: "fsub", text: c.name.en }));
  return out;
}

// A card face. opts: {big: with its text, lands: the table's lands (action cards name theirs),
// button: a <button> (prompt options), attrs: more attributes}
function cardFace(id, opts) {
  opts = opts || {};
  const tag = opts.button ? "button" : "div";
  const base = { "data-card": id, ...(opts.button ? { type: "button" } : {}), ...(opts.attrs || {}) };
  const a = parseAction(id);
  if (a) {
    const land = landOf(a.colour, opts.lands);
    const colour = lang() === "ja" ? COLOUR.ja[a.colour] : COLOUR.en[a.colour];
    return el(tag, { ...base, class: `face action c-${a.colour}${a.kind === "np" ? " np" : ""}${opts.big ? " big" : ""}` },
      el("div", { class: "frame" },
        el("div", { class: "band", text: colour }),
        el("div", { class: "akind" + (a.kind === "np" ? " np" : ""), text: kindLabel(a.kind) }),
        el("div", { class: "value", text: String(a.value) }),
        el("div", { class: "band bottom", "data-land": land || "", text: land ? `→ ${cardName(land)}` : "" })));
  }
  const c = CARD_INDEX[id];
  if (!c) {
    return el(tag, { ...base, class: "face other" + (opts.big ? " big" : "") },
      el("div", { class: "frame" }, el("div", { class: "fname", text: cardName(id) })));
  }
  const group = c.group;
  const kind = { masters: "master", servants: "servant", events: "event", lands: "land" }[group];
  const head = el("div", { class: "head" }, el("span", { class: "kind", text: kindLabel(group) }));
  if (group === "masters") head.append(el("span", { class: "stat" }, el("b", { text: String(c.mana) }), el("small", { text: t("mana") })));
  if (group === "servants") head.append(el("span", { class: "stat" }, el("b", { text: String(c.power) }), el("small", { text: t("power") })));
  const frame = el("div", { class: "frame" }, head, ...nameBlock(c));
  if (group === "lands") frame.append(el("div", { class: "swatch" }));
  const boxTitle = group === "masters" ? c.ability_name : group === "servants" ? c.np_name : null;
  if (boxTitle || opts.big) {
    const box = el("div", { class: "box" });
    if (boxTitle) box.append(el("div", { class: "boxhead", text: boxTitle.ja + (lang() === "en" && boxTitle.en ? ` (${boxTitle.en})` : "") }));
    if (opts.big && cardText(id)) box.append(el("div", { class: "ftext", text: cardText(id) }));
    frame.append(box);
  }
  return el(tag, { ...base, class: `face ${kind}${group === "lands" ? ` c-${c.colour}` : ""}${opts.big ? " big" : ""}` }, frame);
}

// the back of a face-down card (the seat's own hidden cards are shown with a "hidden" badge)
function cardBack(label) {
  return el("div", { class: "face back" }, el("div", { class: "frame" }, el("div", { class: "fname", text: label || "?" })));
}

// a tap (or click) on a card shows it large with its text
function openCardDetail(id, lands) {
  const d = document.getElementById("card-detail");
  if (!d || !id) return;
  document.getElementById("card-detail-body").replaceChildren(cardFace(id, { big: true, lands }));
  if (!d.open) d.showModal();
}
