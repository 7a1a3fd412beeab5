/* Rules at hand while playing, and first-game mode (docs/history.md, "Rules at hand").
   The main page (app.js) asks this module for:
   - RulesAtHand.attach(): a "Rules" button in the page's bar while a game is open (one tap
     from every tab): "Rules at hand", a search over the rulebook passages and readings of
     the game being played, and the readings in force;
   - RulesAtHand.why(cite): the words shown by "rule" on a log line: the rule that decided it
     and the readings in force for this game;
   - RulesAtHand.readings(): the readings in force (the History tab's heading);
   - RulesAtHand.firstGame(v): first-game mode: offered when a game starts on a phone that
     was never asked; when on (remembered by this phone), each question is explained the
     first time it is asked in that game (what the choice means, and its rule), then stays
     out of the way;
   - RulesAtHand.setting(): the same switch in the Phone tab;
   - RulesAtHand.passage(p): one search result (the history page's search draws them too).
   Everything comes from /api/games/ID/rules (fetched once per game, only when needed).
   Game data is shown as text, never HTML (dom.js). */
"use strict";
const RulesAtHand = (() => {
  /* the words players read, in one place */
  const T = () => ({
    rules: tr("Rules at hand"),
    open: tr("Rules"),
    close: tr("Close the rules"),
    search: tr("Search the rules"),
    found: tr("Passages found"),
    nothing: tr("Nothing found."),
    reading: " " + tr("(the companion's reading)"),
    inForce: tr("Readings in force for this game"),
    noReadings: tr("No readings: this game plays the rulebook as printed."),
    loading: tr("Reading the rulebook…"),
    failed: tr("The rules could not be read; try again."),
    source: tr("From the English rulebook:"),
    offerTitle: tr("First game with this box?"),
    offerText: tr("The companion can explain each question the first time it comes up in a "
      + "game: what the choice means, and the rule it comes from. This phone remembers your "
      + "answer (change it in the Phone tab)."),
    offerYes: tr("Yes, explain as we play"),
    offerNo: tr("No thanks"),
    explainTitle: tr("What this means"),
    gotIt: tr("Got it"),
    rule: tr("Rule:") + " ",
    settingLabel: tr("First-game mode: explain each question the first time it comes up"),
  });
  /* the search field's example: words the edition suggests (/rules "example", a message id of
     its catalogue), else what the field is for */
  const placeholder = (r) => (r && r.example ? tr("e.g. {example}", {example: I18n.t(r.example)})
    : T().search);
  const KEY = "companion.firstGame";
  const data = {};  /* game id -> the /rules answer (readings, prompts), or a promise */
  let explaining = null;  /* {game, kind, text}: the question being explained on this phone */
  const store = {
    get(k) { try { return localStorage.getItem(k); } catch (e) { return null; } },
    set(k, v) { try { localStorage.setItem(k, v); } catch (e) { /* private mode */ } },
  };
  const gameId = () => (typeof S !== "undefined" && S.game) || "";
  const redraw = () => { if (typeof render === "function") render(); };

  async function getJSON(url) {
    /* in this phone's language: the search finds and says the passages in its words */
    const r = await fetch(url, {credentials: "same-origin", headers: {"Accept-Language": I18n.lang()}});
    const body = await r.json().catch(() => ({}));
    if (!r.ok) throw new Error(body.error || T().failed);
    return body;
  }
  function rulesUrl(gid, q) {
    return `/api/games/${encodeURIComponent(gid)}/rules?q=${encodeURIComponent(q || "")}`;
  }
  /* the game's readings and explanations: once per game, then every view uses them */
  function known(gid) {
    const got = data[gid];
    if (got && !(got instanceof Promise) && !got.failed) return got;
    /* asked once; after a failure, again a while later (not on every update) */
    if (gid && (!got || (got.failed && Date.now() - got.failed > 30000))) {
      data[gid] = getJSON(rulesUrl(gid, "")).then((r) => {
        data[gid] = r;
        fillWhys(gid);
        redraw();
      }).catch(() => { data[gid] = {failed: Date.now()}; });
    }
    return null;
  }

  function readingsList(r) {
    if (!r.readings.length) return h("p", {class: "muted"}, T().noReadings);
    return h("ul", {class: "readings"}, r.readings.map((x) => h("li", {},
      I18n.t(x.topic), x.chosen ? `: ${I18n.t(x.chosen)}` : "")));
  }

  /* ---- "rule" on a log line: the rule, then the readings in force ---- */
  function whyBody(gid) {
    const r = known(gid);
    return r ? [h("strong", {class: "why-readings"}, T().inForce), readingsList(r)] : [];
  }
  function why(cite) {
    const gid = gameId();
    return h("span", {class: "why", hidden: true, "data-why": gid},
      h("span", {class: "cite"}, ...(typeof citeNodes === "function" ? citeNodes(cite)
        : [h("span", {lang: "en"}, String(cite))])), ...whyBody(gid));
  }
  function fillWhys(gid) {
    for (const el of document.querySelectorAll(`[data-why="${CSS.escape(gid)}"]`)) {
      if (!el.querySelector(".readings, .why-readings")) el.append(...whyBody(gid));
    }
  }

  function readings() {
    const gid = gameId();
    const r = known(gid);
    return h("details", {class: "readings-in-force", "data-open": "readings-in-force"},
      h("summary", {}, T().inForce), r ? readingsList(r) : h("p", {class: "muted"}, T().loading));
  }

  /* ---- one passage found (/api/games/ID/rules: kind, title, text, *_lang, summary): the
     rulebook's English words marked lang="en" (a screen reader reads them with an English
     voice), ours in this phone's language; a cited passage said in this phone's words
     (summary) above the English quote it comes from ---- */
  function passage(p) {
    const words = (text, lang) => (lang ? text : I18n.t(text));
    const li = h("li", {}, h("strong", {lang: p.title_lang || null}, words(p.title, p.title_lang)),
      p.kind === "reading" ? h("span", {class: "muted"}, T().reading) : "", h("br"));
    if (p.summary) {
      li.append(p.summary, h("br"), h("span", {class: "muted source"}, T().source, " ",
        h("q", {lang: p.text_lang || null}, p.text)));
    } else li.append(p.text_lang ? h("span", {lang: p.text_lang}, p.text) : words(p.text, ""));
    return li;
  }
  /* a rule's one line (prompt_help.quoted): our frame in this phone's language, the
     rulebook's section and quote inside it as the English they are */
  function ruleLine(rule) {
    const en = (text) => h("span", {lang: "en"}, text);
    if (!rule || typeof rule !== "object" || !rule.msg) return en(String(rule || ""));
    const args = {...rule.args};
    for (const k of ["section", "quote"]) if (k in args) args[k] = en(String(args[k]));
    return trNodes(rule.msg, args);
  }

  /* ---- the search, one tap away on every tab: a button in the page's bar opens it ---- */
  let sheet = null;
  function openSheet(gid) {
    if (!sheet || sheet.dataset.game !== gid) {
      if (sheet) sheet.remove();
      sheet = makeSheet(gid);
      document.body.append(sheet);
    }
    if (!sheet.open) sheet.showModal();
    sheet.querySelector("input").focus();
  }
  function makeSheet(gid) {
    const list = h("ul", {class: "rules", "aria-label": T().found});
    const forced = h("div", {});
    let asked = 0;
    const find = async (q) => {
      const n = ++asked;
      try {
        const r = await getJSON(rulesUrl(gid, q));
        if (n !== asked) return;  /* a later search answered first */
        box.placeholder = placeholder(r);
        list.replaceChildren(...(r.results.length ? r.results.map(passage)
          : [h("li", {class: "muted"}, T().nothing)]));
        forced.replaceChildren(h("h3", {}, T().inForce), readingsList(r));
      } catch (e) { list.replaceChildren(h("li", {class: "muted"}, e.message)); }
    };
    const box = h("input", {type: "search", id: "rules-q", "aria-label": T().search,
      placeholder: placeholder(data[gid]), autocomplete: "off", maxlength: 200});
    let timer = null;
    box.addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(() => find(box.value), 150); });
    const el = h("dialog", {class: "rules-sheet", "aria-label": T().rules, "data-game": gid},
      h("div", {class: "row"}, h("h2", {}, T().rules),
        h("button", {class: "close", "aria-label": T().close, onclick: () => el.close()}, "✕")),
      box, list, forced);
    find("");
    return el;
  }
  function attach() {
    const bar = document.querySelector("header.bar");
    if (!bar) return;
    let btn = document.getElementById("rules-open");
    const gid = gameId();
    if (!btn) {
      btn = h("button", {id: "rules-open", class: "rules-open", "aria-haspopup": "dialog",
        onclick: () => openSheet(gameId())}, T().open);
      bar.insertBefore(btn, document.getElementById("who"));
    }
    btn.hidden = !gid;
    if (!gid && sheet && sheet.open) sheet.close();
  }

  /* ---- first-game mode ---- */
  const mode = () => store.get(KEY);  /* "on", "off", or null: never asked on this phone */
  const seenKey = (gid) => `${KEY}.seen.${gid}`;
  function seen(gid) {
    try { return new Set(JSON.parse(store.get(seenKey(gid)) || "[]")); } catch (e) { return new Set(); }
  }
  function markSeen(gid, kind) {
    const s = seen(gid);
    s.add(kind);
    store.set(seenKey(gid), JSON.stringify(Array.from(s)));
  }
  function choose(on) {
    store.set(KEY, on ? "on" : "off");
    redraw();
  }
  function offer() {
    return h("section", {class: "notice first-game", "aria-label": T().offerTitle},
      h("h2", {}, T().offerTitle), h("p", {}, T().offerText),
      h("p", {class: "row"},
        h("button", {class: "primary", onclick: () => choose(true)}, T().offerYes),
        h("button", {onclick: () => choose(false)}, T().offerNo)));
  }
  function firstGame(v) {
    const gid = v.game_id || gameId();
    if (!gid || v.finished) return null;
    if (mode() === null) return offer();
    if (mode() !== "on") return null;
    const kind = v.prompt && v.prompt.kind;
    const text = v.prompt && v.prompt.text;
    /* the question explained before has been answered: it is not explained again */
    if (explaining && (explaining.game !== gid || explaining.kind !== kind || explaining.text !== text)) {
      markSeen(explaining.game, explaining.kind);
      explaining = null;
    }
    if (!kind || seen(gid).has(kind)) return null;
    const r = known(gid);
    if (!r) return null;
    const help = (r.prompts || {})[kind];
    if (!help) return null;
    explaining = {game: gid, kind, text};
    return h("section", {class: "notice first-game", "aria-label": T().explainTitle},
      h("h2", {}, T().explainTitle), h("p", {}, I18n.t(help.text)),  /* marked N_ in companion/prompt_help.py */
      help.rule ? h("p", {class: "muted hint"}, T().rule, ruleLine(help.rule)) : null,
      h("button", {onclick: () => { markSeen(gid, kind); explaining = null; redraw(); }}, T().gotIt));
  }
  function setting() {
    const el = h("input", {type: "checkbox", id: "pref-first-game", checked: mode() === "on"});
    el.addEventListener("change", () => store.set(KEY, el.checked ? "on" : "off"));
    return h("label", {class: "check", for: el.id}, el, T().settingLabel);
  }
  return {attach, why, readings, firstGame, setting, passage, placeholder};
})();
window.RulesAtHand = RulesAtHand;
