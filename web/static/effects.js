/* What a card does, edited in words (the setup form and the box profile editor): choose the
   effect from the edition's vocabulary (companion/monopoly/effect_words.py), fill labelled
   fields, read it back as a sentence ("Collect 4 coins from the Bank"). An effect is the
   card's dict, {do: word, ...arguments}; arguments equal to their default are left out. */
"use strict";
const Effects = (() => {
  const PAYEES = () => [["bank", tr("the Bank")], ["pot", tr("the pot")]];
  /* the words come in English, marked for the catalogue (companion/monopoly/effect_words.py):
     each is read in the phone's language here */
  const byWord = (vocab) => Object.fromEntries((vocab || []).map((w) => [w.do, local(w)]));
  const local = (w) => Object.assign({}, w, {label: I18n.t(w.label), say: I18n.t(w.say),
    args: (w.args || []).map((a) => Object.assign({}, a, {label: I18n.t(a.label)}))});
  /* the effect without arguments equal to their default (so unchanged cards stay unchanged) */
  function norm(effect, vocab) {
    if (!effect || !effect.do) return {};
    const w = byWord(vocab)[effect.do];
    const out = {do: effect.do};
    for (const [k, v] of Object.entries(effect)) {
      if (k === "do") continue;
      const arg = w && w.args.find((a) => a.name === k);
      if (arg && "default" in arg && JSON.stringify(arg.default) === JSON.stringify(v)) continue;
      out[k] = v;
    }
    return out;
  }
  const same = (a, b, vocab) => JSON.stringify(sorted(norm(a, vocab))) === JSON.stringify(sorted(norm(b, vocab)));
  const sorted = (o) => Object.fromEntries(Object.entries(o).sort(([a], [b]) => a.localeCompare(b)));
  const label = (list, value) => {
    const hit = (list || []).find((x) => x.value === value);
    return hit ? I18n.t(hit.label) : String(value);
  };
  /* the sentence an effect reads as */
  function say(effect, vocab, ctx) {
    const w = byWord(vocab)[effect.do];
    if (!w) return "";
    const value = (a) => (a.name in effect ? effect[a.name] : a.default);
    const text = w.say.replace(/\{(\w+)\}/g, (m, name) => {
      const a = w.args.find((x) => x.name === name);
      if (!a) return "";
      const v = value(a);
      if (a.kind === "bool") return name === "salary" && v ? ", " + tr("collecting the salary when passing GO") : "";
      if (v === undefined || v === "") return "…";
      if (a.kind === "money") return ctx.money(Number(v));
      if (a.kind === "payee") return (PAYEES().find(([k]) => k === v) || [v, String(v)])[1];
      if (a.kind === "space") return label(ctx.spaces, v);
      if (a.kind === "kind") return label(ctx.kinds, v);
      if (a.kind === "color") return label(ctx.colors, v);
      if (a.kind === "steps") {
        const n = Number(v);
        return n < 0 ? trn("{n} space back", "{n} spaces back", Math.abs(n))
          : trn("{n} space forward", "{n} spaces forward", n);
      }
      return String(v);
    });
    return `${text}.`;
  }
  /* the editor: [element, read() -> the effect (throws a message a person reads)] */
  function editor(effect, vocab, ctx, title, onchange) {
    const words = (vocab || []).map(local);
    const box = h("fieldset", {class: "effect"}, h("legend", {}, title));
    const pick = h("select", {"aria-label": tr("{title}: what the card does", {title}), "data-effect-word": ""},
      ...words.map((w) => h("option", {value: w.do, selected: w.do === effect.do}, w.label)));
    if (effect.do && !words.some((w) => w.do === effect.do)) {
      pick.append(h("option", {value: effect.do, selected: true}, effect.do));
    }
    const fieldsBox = h("div", {class: "effect-args"});
    const sentence = h("p", {class: "effect-say", "aria-live": "polite"});
    let fields = [];  // [arg, element]
    const current = () => {
      const w = byWord(words)[pick.value];
      const out = {do: pick.value};
      for (const [a, el] of fields) {
        let v;
        if (a.kind === "bool") v = el.checked;
        else if (["money", "int", "steps"].includes(a.kind)) {
          if (el.value.trim() === "") {
            if ("default" in a) continue;
            throw new Error(tr("{field}: enter a whole number.", {field: `${title}: ${a.label}`}));
          }
          v = Number(el.value);
          if (!Number.isInteger(v)) throw new Error(tr("{field}: enter a whole number.", {field: `${title}: ${a.label}`}));
        } else {
          v = el.value;
          if (v === "" && !("default" in a)) throw new Error(tr("{field}: choose one.", {field: `${title}: ${a.label}`}));
        }
        out[a.name] = v;
      }
      return w ? norm(out, words) : out;
    };
    const speak = () => {
      try { sentence.textContent = say(current(), words, ctx); } catch (e) { sentence.textContent = "…"; }
    };
    const draw = (from) => {
      const w = byWord(words)[pick.value];
      fields = [];
      fieldsBox.replaceChildren(...(w ? w.args : []).map((a) => {
        const v = a.name in from ? from[a.name] : a.default;
        const aria = `${title}: ${a.label}`;
        let el;
        const choices = {space: ctx.spaces, kind: ctx.kinds, color: ctx.colors,
          payee: PAYEES().map(([value, l]) => ({value, label: l}))}[a.kind];
        if (choices) {
          el = h("select", {"aria-label": aria}, "default" in a ? null : h("option", {value: ""}, tr("Choose…")),
            ...choices.map((c) => h("option", {value: c.value, selected: c.value === v}, a.kind === "kind" ? I18n.t(c.label) : c.label)),
            v !== undefined && v !== "" && !choices.some((c) => c.value === v)
              ? h("option", {value: v, selected: true}, String(v)) : null);
        } else if (a.kind === "bool") {
          el = h("input", {type: "checkbox", "aria-label": aria, checked: !!v});
        } else if (["money", "int", "steps"].includes(a.kind)) {
          el = h("input", {type: "number", inputmode: "numeric", step: 1, "aria-label": aria,
            value: v ?? "", min: a.kind === "steps" ? -40 : 0});
        } else {
          el = h("input", {type: "text", maxlength: 40, "aria-label": aria, value: v ?? ""});
        }
        el.dataset.arg = a.name;
        fields.push([a, el]);
        el.addEventListener("input", speak);
        el.addEventListener("change", () => { speak(); if (onchange) onchange(); });
        return a.kind === "bool" ? h("label", {class: "check"}, el, a.label) : h("label", {}, a.label, el);
      }));
      speak();
    };
    pick.addEventListener("change", () => { draw({}); if (onchange) onchange(); });
    draw(effect);
    box.append(pick, fieldsBox, sentence);
    return [box, current];
  }
  return {editor, norm, same, say};
})();
window.Effects = Effects;
