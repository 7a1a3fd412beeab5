/* The box profile editor (web/templates/profile.html, docs/profiles.md): the owner's board,
   cards and card tags, saved once per edition and chosen at setup. Text only into the DOM. */
"use strict";

const P = {session: null, edition: "", name: "", defaults: null, spaces: [], cards: [],
  tags: {}, confirmed: [], other: {}, note: "", marks: {}, unverified: [], saved: false,
  polling: null, open: new Set(), cardTags: [], tagDecks: [], settingsHint: ""};
const FIELDS = ["name", "kind", "color", "price", "rent", "amount", "deck"];
const NUMBERS = new Set(["price", "rent", "amount"]);

const clone = (x) => JSON.parse(JSON.stringify(x));
function toast(text, info) {
  const t = $("toast"); t.textContent = text; t.className = info ? "info" : ""; t.hidden = false;
  clearTimeout(toast.timer); toast.timer = setTimeout(() => { t.hidden = true; }, 5000);
}
async function api(method, path, body, raw) {
  const opts = {method, headers: {Accept: "application/json"}, credentials: "same-origin"};
  if (method !== "GET") {
    opts.headers["Content-Type"] = "application/json";
    opts.headers["X-CSRF-Token"] = P.session ? P.session.csrf : "";
    opts.body = raw !== undefined ? raw : JSON.stringify(body || {});
  }
  let resp;
  try { resp = await fetch(path, opts); } catch (e) {
    throw new Error(tr("The companion cannot be reached; check the Wi-Fi."));
  }
  const data = await resp.json().catch(() => ({}));
  if (!resp.ok) {
    const err = new Error(I18n.text(data.error) || tr("Refused ({status}).", {status: String(resp.status)}));
    err.code = data.code; throw err;
  }
  return data;
}
async function act(fn) { try { return await fn(); } catch (e) { toast(e.message); return null; } }
const enc = encodeURIComponent;

/* ---- the draft: corrections are the differences from the edition's shipped board ---- */
function corrections() {
  const base = P.defaults.board;
  const byId = Object.fromEntries(base.spaces.map((s) => [s.id, s]));
  const ids = P.spaces.map((s) => s.id);
  const out = {};
  const spaces = {}, add = [];
  for (const s of P.spaces) {
    const d = byId[s.id];
    if (!d) {
      const n = {id: s.id};
      for (const f of FIELDS) if (s[f] !== "" && s[f] !== 0) n[f] = s[f];
      add.push(n); continue;
    }
    const change = {};
    for (const f of FIELDS) if (s[f] !== d[f]) change[f] = s[f];
    if (Object.keys(change).length) spaces[s.id] = change;
  }
  const remove = base.spaces.map((s) => s.id).filter((id) => !ids.includes(id));
  const natural = base.spaces.map((s) => s.id).filter((id) => ids.includes(id))
    .concat(add.map((a) => a.id));
  if (Object.keys(spaces).length) out.spaces = spaces;
  if (add.length) out.add = add;
  if (remove.length) out.remove = remove;
  if (natural.join() !== ids.join()) out.order = ids;
  const cards = {};
  const texts = Object.fromEntries(base.cards.map((c) => [c.id, c.text]));
  const effects = Object.fromEntries(base.cards.map((c) => [c.id, c.effect]));
  for (const c of P.cards) {
    if (c.bad) throw new Error(c.bad);  /* a field left wrong: nothing is checked or saved */
    const change = {};
    if (c.text !== texts[c.id]) change.text = c.text;
    if (!Effects.same(c.effect, effects[c.id], base.effects)) change.effect = Effects.norm(c.effect, base.effects);
    if (Object.keys(change).length) cards[c.id] = change;
  }
  if (Object.keys(cards).length) out.cards = cards;
  if (P.confirmed.length) out.confirmed = P.confirmed.slice();
  if (P.language && P.language !== P.boxLanguage) out.language = P.language;
  return out;
}
function draft() {
  const settings = clone(P.other);
  if (P.defaults.board) {
    const board = corrections();
    if (Object.keys(board).length) settings.board = board;
  }
  return {format: 1, edition: P.edition, name: ($("pf-name") || {}).value || P.name,
    note: P.note, settings, tags: P.tags};
}

/* ---- validation messages next to the field they name ---- */
function clearErrors() {
  document.querySelectorAll(".field-error").forEach((e) => e.remove());
  document.querySelectorAll(".invalid").forEach((e) => e.classList.remove("invalid"));
}
function showError(text) {
  clearErrors();
  const [path, ...rest] = text.split(": ");
  const field = path.replace(/^settings\.board\./, "").replace(/^settings\./, "");
  /* the server names the field first ("settings.board.colors.endor: ..."): that path places
     the message next to its field; the banker reads only the words after it */
  if (rest.length && /^[\w.-]+$/.test(path) && /[._]/.test(path)) text = rest.join(": ");
  let target = document.querySelector(`[data-field="${CSS.escape(field)}"]`);
  const holder = target && target.closest("details.space");
  if (holder) holder.open = true;
  if (!target && /^(spaces|colors|order|add|remove)\b/.test(field)) target = $("board-errors");
  if (!target && /^cards\b/.test(field)) target = $("cards-errors");
  if (!target) target = $("profile-errors");
  if (target && target.matches("input,select,textarea")) target.classList.add("invalid");
  const msg = h("p", {class: "field-error", role: "alert"}, text);
  if (target) target.after(msg);
  status(text, false);
  if (target) target.scrollIntoView({block: "center"});
}
function status(text, ok) {
  const el = $("status"); if (!el) return;
  el.textContent = text; el.className = ok ? "ok" : "bad";
}
let saves = 0;  /* a check that was asked before a save says nothing after it */
async function check() {
  const asked = saves;
  try {
    const r = await api("POST", "/api/profiles/check", draft());
    if (asked !== saves) return true;
    clearErrors(); adopt(r, false);
    const notes = (r.notes || []).map(I18n.text).join(" ");  /* a lost card: said, not refused */
    status(trn("Valid. {n} fact still unverified.", "Valid. {n} facts still unverified.", r.unverified.length)
      + (notes ? ` ${notes}` : ""), true);
    renderMarks(); refreshSummaries();
    return true;
  } catch (e) { if (asked === saves) showError(e.message); return false; }
}
let checkTimer = null;
function recheck() { clearTimeout(checkTimer); checkTimer = setTimeout(check, 400); }

function adopt(r, replaceAll) {
  P.unverified = r.unverified;
  P.marks = {};
  if (r.board) {
    for (const s of r.board.spaces) P.marks[`s:${s.id}`] = s.unverified;
    for (const c of r.board.cards) P.marks[`c:${c.id}`] = c.unverified;
  }
  if (replaceAll) {
    P.spaces = r.board ? clone(r.board.spaces).map((s) => { delete s.unverified; return s; }) : [];
    P.cards = r.board ? clone(r.board.cards).map((c) => ({id: c.id, deck: c.deck, text: c.text,
      effect: c.effect})) : [];
    P.tags = clone(r.profile.tags);
    P.cardTags = r.card_tags || [];
    P.tagDecks = r.tag_decks || [];  /* each {deck, title}: the edition's words (a message id) */
    P.settingsHint = r.settings_hint || "";
    const settings = clone(r.profile.settings);
    P.confirmed = (settings.board && settings.board.confirmed) || [];
    P.language = (settings.board && settings.board.language) || P.boxLanguage;
    delete settings.board;
    P.other = settings; P.note = r.profile.note || ""; P.name = r.profile.name;
  }
}

/* ---- the page ---- */
async function main() {
  await I18n.load(I18n.wanted());  /* this phone's language, as on the game's page */
  try { P.session = await api("GET", "/api/session"); } catch (e) { toast(e.message); return; }
  $("app").removeAttribute("aria-busy");
  if (!P.session.banker) return login();
  chooser();
}
function login() {
  const pin = h("input", {id: "pin", type: "password", inputmode: "numeric", autocomplete: "off"});
  $("app").replaceChildren(h("section", {}, h("h2", {}, tr("Banker only")),
    h("label", {for: "pin"}, tr("Banker PIN")), pin,
    h("button", {class: "primary", onclick: () => act(async () => {
      await api("POST", "/api/banker/login", {pin: pin.value});
      P.session = await api("GET", "/api/session"); chooser();
    })}, tr("Log in"))));
}
async function chooser() {
  const ed = h("select", {id: "pf-edition"});
  const list = h("div", {id: "pf-list"});
  const newName = h("input", {id: "pf-new", placeholder: tr("Our box"), maxlength: 40});
  const file = h("input", {id: "pf-import", type: "file", accept: ".json,application/json"});
  const fill = async () => {
    const r = await api("GET", `/api/profiles?edition=${enc(ed.value)}`);
    list.replaceChildren(r.profiles.length ? h("ul", {}, ...r.profiles.map((p) =>
      h("li", {}, h("button", {class: "link", onclick: () => act(() => open(p.edition, p.name))},
        p.name)))) : h("p", {class: "muted"}, tr("No saved profile for this edition yet.")));
  };
  ed.addEventListener("change", () => act(fill));
  const eds = await api("GET", "/api/editions");
  P.titles = Object.fromEntries(eds.map((e) => [e.name, e.title]));
  ed.replaceChildren(...eds.map((e) => h("option", {value: e.name}, e.title)));
  const q = new URLSearchParams(location.search), want = q.get("edition");
  if (want) ed.value = want;
  if (want && q.get("name")) {  // from the setup form: straight to the chosen profile
    const known = (await api("GET", `/api/profiles?edition=${enc(want)}`)).profiles;
    if (known.some((p) => p.name === q.get("name"))) return open(want, q.get("name"));
  }
  $("app").replaceChildren(
    h("section", {}, h("h2", {}, tr("Your box")),
      h("p", {class: "muted"}, tr("Correct the board and cards once to match the box on the table; "
        + "choose the profile when you start a game.")),
      h("label", {for: "pf-edition"}, tr("Edition")), ed, list),
    h("section", {}, h("h2", {}, tr("New profile")), h("label", {for: "pf-new"}, tr("Name")), newName,
      h("button", {class: "primary", onclick: () => act(() => {
        if (!newName.value.trim()) throw new Error(tr("{field}: give the profile a name.", {field: "name"}));
        return open(ed.value, null, newName.value.trim());
      })}, tr("Start from the edition's defaults"))),
    h("section", {}, h("h2", {}, tr("Import a shared profile")), h("label", {for: "pf-import"},
      tr("Profile file (.json)")), file,
      h("button", {onclick: () => act(async () => {
        if (!file.files.length) throw new Error(tr("Choose a file first."));
        const text = await file.files[0].text();
        const r = await api("POST", "/api/profiles/import", null, text);
        toast(tr("Imported {profile}.", {profile: r.profile.name}), true);
        await open(r.profile.edition, r.profile.name);
      })}, tr("Import"))));
  await fill();
}
/* the edition's shipped board in the box's language (its space names and card texts) */
function defaults(edition, language) {
  const query = language ? `?language=${enc(language)}` : "";  /* none: the edition's own */
  return api("GET", `/api/profiles/defaults/${enc(edition)}${query}`);
}
/* another box language: the shipped words become that language's, the owner's corrections stay */
async function changeLanguage(language) {
  const d = draft();
  const board = {...(d.settings.board || {})};
  if (language === P.boxLanguage) delete board.language; else board.language = language;
  d.settings.board = board;
  const r = await api("POST", "/api/profiles/check", d);
  P.defaults = await defaults(P.edition, language);
  adopt(r, true); P.name = d.name; editor(); check();
}
async function open(edition, name, newName) {
  P.edition = edition;
  /* the edition's own box language (one box's is Italian), what a profile need not say */
  P.boxLanguage = ((await defaults(edition)).board || {}).language || "en";
  if (!P.titles) {
    P.titles = Object.fromEntries((await api("GET", "/api/editions")).map((e) => [e.name, e.title]));
  }
  if (name) {
    const r = await api("GET", `/api/profiles/${enc(edition)}/${enc(name)}`);
    const board = r.profile.settings.board || {};
    P.defaults = await defaults(edition, board.language);  /* the box's words: not corrections */
    adopt(r, true);
    P.saved = true;
  } else {
    P.defaults = await defaults(edition);
    adopt(P.defaults, true); P.name = newName; P.saved = false;
  }
  history.replaceState(null, "", `/profile?edition=${enc(edition)}`);
  editor();
}

/* a fact of a space or card in the reader's words ("price", "prezzo") */
function factWord(f) {
  return ({name: tr("name"), price: tr("price"), rent: tr("rent"), amount: tr("amount"),
    text: tr("text"), effect: tr("effect"), kind: tr("kind"), color: tr("colour group"),
    deck: tr("card deck")})[f] || f;
}
function markBox(key, prefix) {
  const box = h("div", {class: "marks", "data-marks": key});
  for (const f of P.marks[key] || []) {
    const fact = `${prefix}.${f}`;
    box.append(h("span", {class: "unverified"}, tr("unverified: {fact}", {fact: factWord(f)}),
      h("button", {type: "button", title: tr("Confirm {fact} as printed on your box", {fact: factWord(f)}),
        onclick: () => { if (!P.confirmed.includes(fact)) P.confirmed.push(fact); check(); }},
      tr("Confirm"))));
  }
  return box;
}
function renderMarks() {
  document.querySelectorAll("[data-marks]").forEach((box) => {
    const key = box.getAttribute("data-marks");
    box.replaceWith(markBox(key, key.startsWith("s:") ? `spaces.${key.slice(2)}`
      : `cards.${key.slice(2)}`));
  });
  const layout = $("layout-mark");
  if (layout) layout.hidden = !P.unverified.includes("board.layout");
}
function refreshSummaries() {
  document.querySelectorAll("details.space").forEach((box) => {
    const sid = box.id.slice("space-".length);
    const n = (P.marks[`s:${sid}`] || []).length;
    const sum = box.querySelector("summary");
    const old = sum.querySelector(".unverified");
    if (old) old.remove();
    if (n) sum.append(h("span", {class: "unverified", title: tr("facts not yet checked against your box")}, trn("{n} to check", "{n} to check", n)));
  });
}
/* a kind of space in the reader's words: the board's own name for it (marked for the
   catalogue in companion/monopoly/effect_words.py), "go_to_jail" -> "Go to Jail" */
function kindName(k) {
  const named = ((P.defaults && P.defaults.board && P.defaults.board.effect_kinds) || [])
    .find((x) => x.value === k);
  if (named) return I18n.t(named.label);
  return String(k).split("_").map((w, i) => (i && ["to", "of", "the", "a"]
    .includes(w) ? w : w.charAt(0).toUpperCase() + w.slice(1))).join(" ");
}
const FIELD_LABELS = () => ({name: tr("Name"), kind: tr("Kind of space"), color: tr("Colour group"),
  price: tr("Price"), rent: tr("Rent"), amount: tr("Amount to pay"), deck: tr("Card deck")});
function spaceView(s, i) {
  const b = P.defaults.board;
  const input = (f) => {
    const id = `sp-${i}-${f}`;
    let el;
    if (f === "kind") el = h("select", {id}, ...b.kinds.map((k) => h("option", {value: k, selected: s.kind === k}, kindName(k))));
    else if (f === "color") el = h("select", {id}, h("option", {value: ""}, tr("none")),
      ...Object.entries(b.colors).map(([k, v]) => h("option", {value: k, selected: s.color === k, lang: P.language}, v)));
    else if (f === "deck") el = h("select", {id}, h("option", {value: ""}, tr("none")),
      ...Object.entries(b.decks).map(([k, v]) => h("option", {value: k, selected: s.deck === k, lang: P.language}, v)));
    else el = h("input", {id, value: s[f], inputmode: NUMBERS.has(f) ? "numeric" : null,
      lang: f === "name" ? P.language : null,  /* the box's words, in the box's language */
      type: NUMBERS.has(f) ? "number" : "text", maxlength: NUMBERS.has(f) ? null : 40});
    el.setAttribute("data-field", `spaces.${s.id}.${f}`);
    el.addEventListener("change", () => {
      s[f] = NUMBERS.has(f) ? Number(el.value) : el.value;
      const sum = $(`space-${s.id}`).querySelector("summary");
      sum.querySelector(".sname").textContent = s.name;
      sum.querySelector(".skind").textContent = kindName(s.kind) + (s.price ? ` · ${s.price}` : "");
      recheck();
    });
    return [h("label", {for: id, class: f === "name" ? "wide" : null}, FIELD_LABELS()[f] || f), el];
  };
  const move = (d) => {
    const j = i + d; if (j < 1 || j >= P.spaces.length) return;
    [P.spaces[i], P.spaces[j]] = [P.spaces[j], P.spaces[i]]; drawSpaces(); recheck();
  };
  const grid = h("div", {class: "grid"});
  for (const f of FIELDS) {
    const [label, el] = input(f);
    if (f === "name") { label.className = "wide"; el.classList.add("wide"); }
    grid.append(h("div", {class: f === "name" ? "wide" : null}, label, el));
  }
  const marks = (P.marks[`s:${s.id}`] || []).length;
  const box = h("details", {class: "space", id: `space-${s.id}`, open: P.open.has(s.id)},
    h("summary", {}, h("span", {class: "idx"}, String(i)), h("span", {class: "sname", lang: P.language}, s.name),
      h("span", {class: "muted skind"}, kindName(s.kind) + (s.price ? ` · ${s.price}` : "")),
      marks ? h("span", {class: "unverified", title: tr("facts not yet checked against your box")},
        trn("{n} to check", "{n} to check", marks)) : null),
    h("div", {class: "space-head"},
      h("button", {type: "button", "aria-label": tr("Move {space} up", {space: s.name}), disabled: i <= 1,
        onclick: () => move(-1)}, "↑"),
      h("button", {type: "button", "aria-label": tr("Move {space} down", {space: s.name}),
        disabled: i === 0 || i === P.spaces.length - 1, onclick: () => move(1)}, "↓"),
      h("button", {type: "button", class: "danger", "aria-label": tr("Remove {space}", {space: s.name}),
        disabled: i === 0, onclick: () => { P.spaces.splice(i, 1); drawSpaces(); recheck(); }},
      "✕")),
    markBox(`s:${s.id}`, `spaces.${s.id}`), grid);
  box.addEventListener("toggle", () => { if (box.open) P.open.add(s.id); else P.open.delete(s.id); });
  return box;
}
function drawSpaces() {
  $("spaces").replaceChildren(...P.spaces.map(spaceView));
  $("board-title").textContent = trn("Board ({n} space)", "Board ({n} spaces)", P.spaces.length);
}
/* what the effect editor names (web/static/effects.js) */
function fxContext() {
  const b = P.defaults.board, cur = b.currency || {};
  const spaces = (P.spaces.length ? P.spaces : b.spaces).map((s) => ({value: s.id, label: s.name}));
  return {money: (n) => I18n.money({money: n, cur}),
  spaces, kinds: b.effect_kinds, colors: b.effect_colors};
}
function cardView(c) {
  const id = `card-${c.id}`;
  const text = h("textarea", {id, rows: 2, maxlength: 200, "data-field": `cards.${c.id}.text`,
    lang: P.language});
  text.value = c.text;
  text.addEventListener("change", () => { c.text = text.value; recheck(); });
  const effectId = `effect-${c.id}`;
  const nth = P.cards.filter((x) => x.deck === c.deck).indexOf(c) + 1;
  const deck = P.defaults.board.decks[c.deck] || tr("Card");
  let read = () => c.effect;
  const [effect, reader] = Effects.editor(c.effect, P.defaults.board.effects, fxContext(),
    tr("{deck}, card {n}: what it does", {deck, n: nth}), () => {
      try { c.effect = read(); delete c.bad; recheck(); } catch (e) { c.bad = e.message; showError(e.message); }
    });
  read = reader;
  effect.id = effectId; effect.setAttribute("data-field", `cards.${c.id}.effect`);
  const uid = Object.keys(P.tags).find((u) => P.tags[u] === `card:${c.id}`);
  const tagLine = h("span", {class: "tag", id: `tag-${c.id}`}, uid ? tr("Tag {uid}", {uid}) : tr("No tag"));
  const enrol = h("button", {type: "button", onclick: () => act(() => enrolTag(c, tagLine, enrol))},
    uid ? tr("Replace tag") : tr("Tap card tag"));
  return h("div", {class: "card"}, h("label", {for: id}, tr("{deck}, card {n}", {deck, n: nth})),
    markBox(`c:${c.id}`, `cards.${c.id}`), text,
    effect,
    h("div", {class: "row"}, tagLine, enrol));
}
async function enrolTag(c, line, button) {
  if (P.polling) { clearInterval(P.polling); P.polling = null; }
  let seen = (await api("GET", "/api/tags/last")).tap;
  seen = seen ? seen.n : 0;
  line.textContent = tr("Tap this card on the reader…");
  button.disabled = true;
  let tries = 0;
  P.polling = setInterval(async () => {
    tries += 1;
    let tap = null;
    try { tap = (await api("GET", "/api/tags/last")).tap; } catch (e) { tries = 1e9; }
    if (tap && tap.n > seen) {
      for (const u of Object.keys(P.tags)) if (P.tags[u] === `card:${c.id}` || u === tap.uid) delete P.tags[u];
      P.tags[tap.uid] = `card:${c.id}`;
      line.textContent = tr("Tag {uid}", {uid: tap.uid});
      button.textContent = tr("Replace tag");
    } else if (tries < 60) return;
    else line.textContent = tr("No tap; try again.");
    clearInterval(P.polling); P.polling = null; button.disabled = false; recheck();
  }, 500);
}
/* the box's language: its space names and card texts as printed (board.language) */
function languageMenu() {
  const menu = h("select", {id: "pf-language", "data-field": "language"},
    ...Object.entries(I18n.languages()).map(([code, own]) =>
      h("option", {value: code, lang: code, selected: code === P.language}, own)));
  menu.addEventListener("change", () => act(() => changeLanguage(menu.value)));
  return [h("label", {for: "pf-language"}, tr("Language of the box (space names and card texts)")), menu];
}
function editor() {
  const b = P.defaults.board;
  const name = h("input", {id: "pf-name", value: P.name, maxlength: 40, "data-field": "name"});
  const note = h("textarea", {id: "pf-note", rows: 2, maxlength: 500, "data-field": "note"});
  note.value = P.note; note.addEventListener("change", () => { P.note = note.value; });
  const other = h("textarea", {id: "pf-other", class: "code", rows: 6, spellcheck: "false",
    "data-field": "settings"});
  other.value = JSON.stringify(P.other, null, 1);
  other.addEventListener("change", () => {
    try { P.other = JSON.parse(other.value || "{}"); recheck(); } catch (e) { showError(tr("{field}: not valid JSON.", {field: "settings"})); }
  });
  const title = (P.titles || {})[P.edition];
  const parts = [h("section", {}, h("h2", {}, title ? tr("Your box of {edition}", {edition: title})
    : tr("Your box of this edition")),
    h("label", {for: "pf-name"}, tr("Name")), name, h("label", {for: "pf-note"}, tr("Note")), note,
    ...(b ? languageMenu() : []), h("div", {id: "profile-errors"}))];
  if (b) {
    const newId = h("input", {id: "new-space-id", placeholder: tr("Name of the new space"), maxlength: 40});
    parts.push(h("section", {"aria-label": tr("Board")}, h("h2", {id: "board-title"},
      trn("Board ({n} space)", "Board ({n} spaces)", P.spaces.length)),
      h("p", {class: "unverified", id: "layout-mark", hidden: !P.unverified.includes("board.layout")},
        tr("unverified: board layout (order and kinds)"),
        h("button", {type: "button", onclick: () => {
          if (!P.confirmed.includes("board.layout")) P.confirmed.push("board.layout"); check();
        }}, tr("Confirm"))),
      h("div", {id: "board-errors"}), h("div", {id: "spaces"}),
      h("div", {class: "row"}, h("label", {for: "new-space-id"}, tr("Add a space"), newId),
        h("button", {type: "button", onclick: () => {
          const named = newId.value.trim();
          if (!named) { showError(tr("Give the new space a name.")); return; }
          let sid = named.toLowerCase().normalize("NFKD").replace(/[^a-z0-9]+/g, "-")
            .replace(/^-|-$/g, "") || "space";
          while (P.spaces.some((x) => x.id === sid)) sid += "-2";
          const kind = b.kinds.includes("free_parking") ? "free_parking" : b.kinds[0];
          P.spaces.push({id: sid, name: named, kind, color: "", price: 0, rent: 0, amount: 0,
            deck: ""});
          P.open.add(sid);
          newId.value = ""; drawSpaces(); recheck();
        }}, tr("Add")))));
    parts.push(h("section", {"aria-label": tr("Cards")}, h("h2", {}, tr("Cards ({n})", {n: P.cards.length})),
      h("div", {id: "cards-errors"}), h("div", {id: "cards"}, ...P.cards.map(cardView))));
  }
  if (P.cardTags.length) {  // an edition without card texts: a tag for each card of each deck
    const row = (c) => {
      const uid = Object.keys(P.tags).find((u) => P.tags[u] === `card:${c.id}`);
      const line = h("span", {class: "tag", id: `tag-${c.id}`}, uid ? tr("Tag {uid}", {uid}) : tr("No tag"));
      const enrol = h("button", {type: "button", onclick: () => act(() => enrolTag(c, line, enrol))},
        uid ? tr("Replace tag") : tr("Tap card tag"));
      return h("div", {class: "row", "data-card-tag": c.id}, h("span", {}, I18n.text(c.label)), line, enrol);
    };
    const group = (deck, heading) => h("details", {}, h("summary", {}, heading),
      ...P.cardTags.filter((c) => c.deck === deck).map(row));
    /* the decks as the edition names them (else each deck its cards name, as "Cards") */
    const decks = P.tagDecks.length ? P.tagDecks
      : [...new Set(P.cardTags.map((c) => c.deck))].map((deck) => ({deck, title: ""}));
    parts.push(h("section", {id: "card-tags", "aria-label": tr("Card tags")}, h("h2", {}, tr("Card tags")),
      h("p", {class: "muted"}, tr("Tap each card on the reader once: a player then taps the card "
        + "they draw.")), ...decks.map((d) => group(d.deck, d.title ? I18n.t(d.title) : tr("Cards")))));
  }
  parts.push(h("section", {"aria-label": tr("Other settings")}, h("h2", {}, tr("Other settings")),
    h("p", {class: "muted"}, P.settingsHint ? I18n.t(P.settingsHint)  /* the edition's words */
      : tr("House rules and readings, as the setup form sends them (JSON).")),
    other, P.unverified.length && !b ? h("p", {class: "muted"}, tr("Unverified: {facts}",
      {facts: P.unverified.map(I18n.text).join(", ")})) : null));
  parts.push(h("div", {class: "sticky-save"}, h("p", {id: "status", "aria-live": "polite"}),
    h("button", {type: "button", onclick: check}, tr("Check")),
    h("button", {type: "button", class: "primary", id: "pf-save", onclick: () => act(save)}, tr("Save")),
    P.saved ? h("a", {class: "btn", href: `/api/profiles/${enc(P.edition)}/${enc(P.name)}/export`,
      download: `${P.edition}-${P.name}.json`}, tr("Export")) : null,
    P.saved ? h("button", {type: "button", class: "danger", onclick: () => act(remove)}, tr("Delete")) : null,
    h("button", {type: "button", onclick: () => act(chooser)}, tr("All profiles"))));
  $("app").replaceChildren(...parts);
  if (b) drawSpaces();
}
async function save() {
  clearTimeout(checkTimer); saves += 1;
  const d = draft();
  try {
    const r = await api("PUT", `/api/profiles/${enc(P.edition)}/${enc(d.name)}`, d);
    adopt(r, true); P.saved = true; editor();
    status(trn("Saved. {n} fact still unverified.", "Saved. {n} facts still unverified.", r.unverified.length), true);
    toast(tr("Profile saved."), true);
  } catch (e) { showError(e.message); }
}
async function remove() {
  if (!confirm(tr("Delete the profile {profile}?", {profile: P.name}))) return;
  await api("DELETE", `/api/profiles/${enc(P.edition)}/${enc(P.name)}`);
  toast(tr("Deleted."), true); await chooser();
}
main();
