/* The sections an edition adds to the table (view.panels, companion/engine/panels.py): its
   words already in this phone's language (I18n.localize), drawn with the same few blocks for
   every edition. The page never knows which edition sent them. */
"use strict";

function panelSection(p) {
  if (!(p.blocks || []).length) return "";  /* the place of a section that is away */
  const title = h("h2", {}, p.player ? dot(p.player) : "", p.title,
    p.badge ? h("span", {class: "tally"}, p.badge) : "");
  const sec = h("section", {class: "panel" + (p.player ? " own" : ""), "aria-label": p.title}, title);
  if (p.player) sec.style.setProperty("--c", playerColor(p.player));
  for (const b of p.blocks || []) sec.append(panelBlock(b));
  return sec;
}
function panelBlock(b) {
  const lead = b.player ? [dot(b.player), " "] : [];
  const tone = /^(muted|strong)$/.test(b.tone || "") ? b.tone : "";
  if (b.heading !== undefined) return h("h3", {class: tone}, ...lead, b.heading);
  if (b.text !== undefined) return h("p", {class: tone}, ...lead, b.text);
  if (b.lines) {
    return h(b.ordered ? "ol" : "ul", {class: b.grid ? "ticks" : "plain lines", "aria-label": b.label},
      ...b.lines.map((l) =>
      h("li", {class: l.ticked ? "got" : ""}, l.player ? dot(l.player) : "",
        l.die ? [dice([l.die]), " "] : "", l.ticked === undefined ? "" : (l.ticked ? "● " : "○ "), l.text)));
  }
  if (b.meter) {
    const m = b.meter, bar = h("span", {});
    bar.style.width = `${Math.min(100, (100 * m.value) / (m.max || 1))}%`;
    return h("div", {class: "meter", role: "progressbar", "aria-label": m.label, "aria-valuemin": 0,
      "aria-valuemax": m.max, "aria-valuenow": m.value}, bar);
  }
  if (b.glyphs) {
    const g = b.glyphs;
    return h("p", {}, h("span", {class: "glyphs", role: "img", "aria-label": g.label},
      ...g.marks.map((mark, i) => h("span", {class: g.lit[i] ? "lit" : ""}, mark))));
  }
  if (b.cards) {
    return h("ul", {class: "cards"}, ...b.cards.map((c) => {
      const card = h("li", {class: "card" + (c.off ? " off" : ""), "aria-label": c.label},
        c.corner ? h("span", {class: "corner", "aria-hidden": "true"}, c.corner) : "",
        h("strong", {"aria-hidden": "true"}, c.title),
        c.note ? h("span", {class: "corner", "aria-hidden": "true"}, c.note) : "",
        c.off ? h("span", {class: "off-why", "aria-hidden": "true"}, c.off) : "");
      if (c.tone && window.CSS && CSS.supports("color", c.tone)) card.style.setProperty("--tone", c.tone);
      return card;
    }));
  }
  return "";
}
