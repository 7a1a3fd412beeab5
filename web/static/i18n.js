/* The phone's language (docs/translating.md). The companion sends messages as data,
   {say, msg, plural?, args}; this renders them with the catalogue built from the same .po
   files as the OLED's (GET /api/i18n/<lang>.json). The phone follows its browser's language
   until its reader picks another (More, Display), which it remembers. */
"use strict";

const I18n = (() => {
  const KEY = "companion.lang";
  let cat = {lang: "en", plural: {one: 0, other: 1}, messages: {}, languages: {}};
  let rules = new Intl.PluralRules("en");

  function remembered() { try { return localStorage.getItem(KEY); } catch (e) { return null; } }
  /* the pages drawn by the companion (their templates' words) follow the phone's choice too */
  function tell(lang) { document.cookie = `${KEY}=${lang}; path=/; max-age=31536000; SameSite=Lax`; }
  /* Intl's name for the catalogue's language (the pseudo-language writes English digits) */
  const intl = () => cat.intl || cat.lang;
  function wanted() {
    return remembered() || (navigator.languages && navigator.languages[0]) || navigator.language || "en";
  }
  async function load(tag) {
    const lang = String(tag || "en").toLowerCase().split(/[-_]/)[0];
    let got = null;
    try {
      const resp = await fetch(`/api/i18n/${encodeURIComponent(lang)}.json`, {credentials: "same-origin"});
      if (resp.ok) got = await resp.json();
    } catch (e) { got = null; }
    if (!got && lang !== "en") return load("en");
    if (got) cat = got;
    rules = new Intl.PluralRules(intl());
    if (remembered()) tell(cat.lang);
    document.documentElement.lang = cat.lang;
    return cat.lang;
  }
  function choose(lang) {
    try { localStorage.setItem(KEY, lang); } catch (e) { /* private mode: this visit only */ }
    return load(lang);
  }
  function number(n, decimals) {
    return new Intl.NumberFormat(intl(), {minimumFractionDigits: decimals,
      maximumFractionDigits: decimals, useGrouping: "always"}).format(n);
  }
  function money(v) {
    const cur = v.cur || {}, d = cur.decimals || 0, n = Math.abs(v.money), sign = v.money < 0 ? "-" : "";
    if (cur.symbol) return sign + cur.symbol + number(d ? n / 10 ** d : n, d);
    /* money counted in things: "{n} coin", or an edition's own "{n} lemon" from its catalogues
       (English words with this phone's digits where none translates it; companion/engine/i18n.py money) */
    if (`${cur.one}${cur.many}`.includes("{")) return `${sign}${number(n, 0)} ${n === 1 ? cur.one : cur.many}`;
    return sign + render({msg: `{n} ${cur.one}`, plural: `{n} ${cur.many}`, args: {n}});
  }
  /* a chance in words; never rounded to 100 % unless certain (companion/engine/i18n.py chance) */
  function chance(num, den) {
    if (!den) return "";
    const p = (100 * num) / den;
    let k = 0;
    while (k < 6 && num !== den && Number(p.toFixed(k)) >= 100) k += 1;
    while (k < 6 && num !== 0 && Number(p.toFixed(k)) <= 0) k += 1;
    const pct = `${number(Number(p.toFixed(k)), k)} %`;
    const word = num === den ? t("certain") : num === 0 ? t("impossible") : p >= 99
      ? t("almost certain") : p >= 75 ? t("very likely") : p > 50 ? t("likely") : p === 50
        ? t("an even chance") : p >= 25 ? t("possible") : t("unlikely");
    return `${word} (${pct})`;
  }
  function value(v) {
    if (Array.isArray(v)) return new Intl.ListFormat(intl(), {type: "conjunction"}).format(v.map(value));
    if (isWord(v)) return word(v);
    if (v && typeof v === "object") {
      return "msg" in v ? render(v) : Array.isArray(v.chance) ? chance(...v.chance) : money(v);
    }
    if (typeof v === "number") return number(v, 0);
    return String(v);
  }
  /* a message in this phone's language (its msgid, English, when the catalogue lacks it) */
  function render(m) {
    const args = m.args || {}, known = cat.messages[m.msg];
    let template = m.msg;
    if (m.plural) {
      const forms = Array.isArray(known) ? known : [m.msg, m.plural];
      const form = cat.lang === "en" || !Array.isArray(known)
        ? (Number(args.n) === 1 ? 0 : 1) : cat.plural[rules.select(Number(args.n))];
      template = forms[form] ?? forms[forms.length - 1];
    } else if (typeof known === "string") template = known;
    if (cat.joined && cat.joined.length) template = joinArticles(template, args);
    return template.replace(/\{(\w+)\}/g, (whole, name) => (name in args ? value(args[name]) : whole));
  }
  /* "da" + "la Banca": "dalla Banca", "a" + "el bote": "al bote" (companion/i18n.py JOINED),
     where our own words (a message) fill the placeholder */
  function joinArticles(template, args) {
    return template.replace(/(^|[^\p{L}\p{N}_'’])([\p{L}]+) \{(\w+)\}/gu, (whole, lead, prep, name) => {
      const arg = args[name];
      if (!isMsg(arg)) return whole;
      const said = render(arg), art = /^(l')|^([\p{L}]+) /iu.exec(said);
      if (!art) return whole;
      const hit = cat.joined.find(([p, a]) => p === prep.toLowerCase() && a === art[0].trim().toLowerCase());
      if (!hit) return whole;
      const word = prep[0] !== prep[0].toLowerCase() ? hit[2][0].toUpperCase() + hit[2].slice(1) : hit[2];
      const rest = said.slice(art[0].length);
      return lead + word + (word.endsWith("'") ? "" : " ") + rest;
    });
  }
  /* the page's own words: tr("Your turn!"), trn("{n} coin", "{n} coins", n) in app.js */
  const t = (msg, args) => render({msg, args: args || {}});
  const tn = (one, many, n, args) => render({msg: one, plural: many, args: {...(args || {}), n}});
  const isMsg = (x) => x !== null && typeof x === "object" && typeof x.msg === "string" && "args" in x;
  /* one of the box's words, {word, en, it?, es?} (companion/i18n.py Word): a space's name, a
     card's text... in this phone's language (English where the box's data has none) */
  const isWord = (x) => x !== null && typeof x === "object" && typeof x.word === "string" && "en" in x;
  const word = (w) => (cat.lang === "qps" ? `\u27e6${w.en}\u27e7` : (w[cat.lang] || w.en));
  /* text for the reader: a message or a box's word rendered, anything else as it is */
  function text(x) { return isMsg(x) ? render(x) : isWord(x) ? word(x) : x; }
  /* a copy of the view with every message rendered (the page reads strings, as before) */
  function localize(v) {
    if (isMsg(v)) return render(v);
    if (isWord(v)) return word(v);
    if (Array.isArray(v)) return v.map(localize);
    if (v && typeof v === "object") {
      const out = {};
      for (const [k, x] of Object.entries(v)) out[k] = localize(x);
      return out;
    }
    return v;
  }
  /* the choice of language: fills the <select>, calls back after a change */
  function picker(select, changed) {
    select.replaceChildren(...Object.entries(cat.languages || {}).map(([code, name]) => {
      const o = document.createElement("option");
      o.value = code; o.textContent = name; o.lang = code; o.selected = code === cat.lang;
      return o;
    }));
    select.hidden = select.options.length < 2;
    select.onchange = () => choose(select.value).then(changed);
  }
  /* the languages the catalogue has, each by its own name ({code: name}) */
  const languages = () => ({...(cat.languages || {})});
  return {wanted, load, choose, text, localize, picker, t, tn, number, money, chance, languages,
    lang: () => cat.lang};
})();

/* the page's own words, in the phone's language (extracted by scripts/messages from these
   calls: string literals only, docs/translating.md): tr("Your turn!"),
   tr("{player}'s turn", {player}), trn("{n} coin", "{n} coins", n) */
const tr = (msg, args) => I18n.t(msg, args);
const trn = (one, many, n, args) => I18n.tn(one, many, n, args);
/* a sentence with page elements in it (a bold name, a link): the translation split at them */
function trNodes(msg, args) {
  const marked = {}, nodes = {};
  for (const [k, v] of Object.entries(args || {})) {
    if (v instanceof Node) { nodes[k] = v; marked[k] = `\u0001${k}\u0001`; } else marked[k] = v;
  }
  return tr(msg, marked).split(/\u0001(\w+)\u0001/).map((part, i) => (i % 2 ? nodes[part] : part))
    .filter((x) => x !== "");
}
