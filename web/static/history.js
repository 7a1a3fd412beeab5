/* The history page: the household's games, players and chart, by box profile and by
   player (/api/history?box=&profile=&player=); with
   ?game=ID, that game's story (/api/games/ID/story), its replay, step by step
   (/api/games/ID/replay?step=N), and its rules at hand (/api/games/ID/rules?q=); with
   ?game=ID&rules=1, only the rules (any phone in the game, while it is played). Game data is shown as text, never HTML (dom.js). */
"use strict";
const Q = new URLSearchParams(location.search);
const R = {game: Q.get("game"), step: null, last: 0, turns: [], view: null};

async function getJSON(url) {
  /* in this phone's language: the rules search finds and says the passages in its words */
  const r = await fetch(url, {credentials: "same-origin", headers: {"Accept-Language": I18n.lang()}});
  const body = await r.json().catch(() => ({}));
  if (!r.ok) throw new Error(I18n.text(body.error) || tr("The companion answered {status}.", {status: String(r.status)}));
  /* a line stored as English (an old game's, before messages) is marked lang="en" */
  const english = (lines) => (lines || []).map((x) => typeof x === "string");
  if (body.replay) { body.replay.said_english = english(body.replay.said); body.log_english = english(body.log); }
  return I18n.localize(body);  /* messages in this phone's language (i18n.js) */
}
/* English words (the rulebook's, an old game's lines) marked so a screen reader reads them so */
const en = (text) => h("span", {lang: "en"}, text);
function toast(text) { const t = $("toast"); t.textContent = text; t.hidden = !text; }
function hours(seconds) {
  const m = Math.round(seconds / 60);
  return m < 60 ? tr("{m} min", {m}) : tr("{h} h {m} min", {h: Math.floor(m / 60), m: String(m % 60).padStart(2, "0")});
}
function day(t) { return new Date(t * 1000).toLocaleDateString(I18n.lang(), {dateStyle: "medium"}); }

/* ---- the household: every game, by box profile and by players (?box=&profile=&player=) ---- */
function asked() {
  const out = new URLSearchParams();
  for (const k of ["box", "profile", "player"]) if (Q.has(k)) out.set(k, Q.get(k));
  return out;
}
function ask(box, profile, player) {
  for (const [k, v] of [["box", box], ["profile", profile], ["player", player]]) {
    if (v === null) Q.delete(k); else Q.set(k, v);
  }
  const q = Q.toString();
  history.replaceState(null, "", q ? `/history?${q}` : "/history");
  household().catch((e) => toast(e.message));
}
function profileName(p) {
  const none = tr("no box profile");
  return `${p.title} · ${p.profile || none}`;
}
function filters(data) {
  const key = (e, p) => `${e}/${p}`;  /* an edition's name has no "/" */
  const now = Q.has("box") && Q.has("profile") ? key(Q.get("box"), Q.get("profile")) : "";
  const box = h("select", {id: "f-box", onchange: (e) => {
    const v = e.target.value, at = v.indexOf("/");
    const [ed, pr] = v ? [v.slice(0, at), v.slice(at + 1)] : [null, null];
    ask(ed, pr, Q.get("player"));
  }}, h("option", {value: ""}, tr("Every box and profile")),
  data.choices.profiles.map((p) => h("option", {value: key(p.edition, p.profile),
    selected: key(p.edition, p.profile) === now}, profileName(p))));
  const who = h("select", {id: "f-player", onchange: (e) => ask(Q.get("box"),
    Q.has("box") ? Q.get("profile") : null, e.target.value || null)},
  h("option", {value: ""}, tr("Everyone")),
  data.choices.players.map((n) => h("option", {value: n, selected: n === Q.get("player")}, n)));
  return h("section", {"aria-label": tr("Show")}, h("h2", {}, tr("Show")),
    h("label", {for: "f-box"}, tr("Box profile")), box, h("label", {for: "f-player"}, tr("Player")), who);
}
function tally(players) {
  return h("table", {}, h("thead", {}, h("tr", {}, h("th", {}, tr("Player")), h("th", {class: "n"}, tr("Wins")),
    h("th", {class: "n"}, tr("Games")), h("th", {class: "n"}, tr("Time played")))),
  h("tbody", {}, players.map((p) => h("tr", {}, h("td", {}, p.name),
    h("td", {class: "n"}, p.wins), h("td", {class: "n"}, p.games),
    h("td", {class: "n"}, hours(p.seconds))))));
}
async function household() {
  const q = asked().toString();
  const data = await getJSON(`/api/history${q ? "?" + q : ""}`);
  const main = $("app");
  main.replaceChildren();
  if (!data.choices.players.length) {
    main.append(h("section", {}, h("h2", {}, tr("No finished games yet")),
      h("p", {class: "muted"}, tr("When a game ends, it is kept here: who won, the story and a replay."))));
    return;
  }
  main.append(filters(data));
  if (!data.games.length) {
    main.append(h("section", {}, h("p", {class: "muted"}, tr("No finished game matches."))));
    return;
  }
  main.append(h("section", {"aria-label": tr("Players")}, h("h2", {}, tr("Players")), tally(data.players)));
  main.append(h("section", {"aria-label": tr("Wins over time")}, h("h2", {}, tr("Wins over time")),
    h("img", {class: "chart", src: `/api/history/chart.svg${q ? "?" + q : ""}`, alt:
      tr("Wins so far after each game: {list}", {list: data.players.map((p) => `${p.name} ${p.wins}`).join(", ")})})));
  main.append(h("section", {"aria-label": tr("By box profile")}, h("h2", {}, tr("By box profile")),
    data.profiles.map((p) => h("div", {class: "profile"},
      h("h3", {}, profileName(p)),
      h("p", {class: "muted"}, `${trn("{n} game", "{n} games", p.games)} · ${hours(p.seconds)}`),
      tally(p.players)))));
  main.append(h("section", {"aria-label": tr("Boxes")}, h("h2", {}, tr("Boxes")),
    h("table", {}, h("tbody", {}, data.boxes.map((b) => h("tr", {}, h("td", {}, b.title),
      h("td", {class: "n"}, trn("{n} game", "{n} games", b.games)),
      h("td", {class: "n"}, hours(b.seconds))))))));
  main.append(h("section", {"aria-label": tr("Games")}, h("h2", {}, tr("Games")),
    h("ul", {class: "games"}, data.games.map((g) => h("li", {},
      h("a", {href: `/history?game=${encodeURIComponent(g.id)}`}, `${day(g.created)}: ${g.title}`),
      g.profile ? h("span", {class: "muted"}, ` (${g.profile})`) : null,
      h("br"), h("span", {}, g.players.map((p) => p.name).join(", ")), " · ",
      h("span", {class: "win"}, g.winners.length ? trn("{players} won", "{players} won", g.winners.length, {players: g.winners})
        : tr("nobody won")),
      " · ", h("span", {class: "muted"}, hours(g.seconds)))))));
}

/* ---- one game: the story, then the replay ---- */
function storySection(s) {
  return h("section", {class: "story", "aria-label": tr("The story")},
    h("h2", {}, s.headline),
    s.rule ? h("p", {class: "rule"}, tr("Rule:") + " ", en(s.rule)) : null,
    h("p", {class: "muted"}, trn("{n} turn", "{n} turns", s.turns)),
    s.players.map((p) => h("div", {},
      h("h3", {}, p.name, p.winner ? h("span", {class: "muted"}, " " + tr("(winner)")) : ""),
      h("table", {}, h("tbody", {}, p.lines.map((l) => h("tr", {}, h("th", {scope: "row"}, I18n.t(l.label)),
        h("td", {}, l.text))))))));
}
function who(v, id) { return ((v.players || []).find((p) => p.id === id) || {}).name || id; }
function boardList(v) {
  const spaces = (v.board && v.board.spaces) || [];
  if (!spaces.length) return null;
  const at = {};
  for (const p of v.players || []) if (p.position !== undefined) (at[p.position] = at[p.position] || []).push(p.name);
  return h("ul", {class: "board", "aria-label": tr("The board")}, spaces.map((s) => h("li",
    {class: (at[s.index] ? "here" : "") + (s.game_over ? " gameover" : "")},
    h("strong", {}, s.name),
    s.owner ? h("div", {}, tr("owner: {player}", {player: who(v, s.owner)})) : null,
    at[s.index] ? h("div", {}, tr("here: {players}", {players: at[s.index].join(", ")})) : null)));
}
function playersTable(v) {
  return h("table", {"aria-label": tr("Players then")}, h("tbody", {}, (v.players || []).map((p) =>
    h("tr", {}, h("th", {scope: "row"}, p.name),
      h("td", {}, typeof p.money === "number" && v.currency
        ? I18n.money({money: p.money, cur: v.currency}) : I18n.text(p.money_text || "")),
      h("td", {}, p.space || p.place || ""),
      h("td", {}, p.in_jail ? tr("in jail") : p.bankrupt ? tr("out") : "")))));
}
function replaySection() {
  const v = R.view, r = v.replay;
  const go = (n) => () => showStep(Math.max(0, Math.min(R.last, n)));
  const slider = h("input", {type: "range", min: 0, max: R.last, value: r.step,
    "aria-label": tr("Step"), onchange: (e) => showStep(Number(e.target.value))});
  const jump = h("select", {"aria-label": tr("Jump to a turn"), onchange: (e) => showStep(Number(e.target.value))},
    h("option", {value: r.step}, tr("Jump to a turn…")),
    R.turns.map((t, i) => h("option", {value: t.step}, `${i + 1}. ${t.text}`)));
  return h("section", {"aria-label": tr("Replay")}, h("h2", {}, tr("Replay")),
    h("div", {class: "controls"},
      h("button", {onclick: go(0), "aria-label": tr("First step"), disabled: r.step === 0}, tr("First")),
      h("button", {onclick: go(r.step - 1), "aria-label": tr("Back one step"), disabled: r.step === 0}, "◀"),
      h("span", {class: "where", role: "status"}, tr("Step {step} of {last}", {step: r.step, last: R.last})),
      h("button", {onclick: go(r.step + 1), "aria-label": tr("Forward one step"), disabled: r.step === R.last}, "▶"),
      h("button", {onclick: go(R.last), "aria-label": tr("Last step"), disabled: r.step === R.last}, tr("Last")),
      slider),
    jump,
    h("div", {class: "said", "aria-label": tr("This step")}, r.said.length
      ? r.said.map((t, i) => h("p", {}, (r.said_english || [])[i] ? en(t) : t,
        r.cites[i] ? h("span", {class: "muted"}, " (", en(r.cites[i]), ")") : ""))
      : h("p", {class: "muted"}, tr("Nothing said at this step."))),
    h("h3", {}, v.finished ? tr("Game over") : v.current ? tr("{player}'s turn", {player: who(v, v.current)}) : ""),
    playersTable(v),
    boardList(v),
    h("h3", {}, tr("The log then")),
    h("ol", {class: "log"}, (v.log || []).map((t, i) => h("li", {class: r.said.includes(t) ? "new" : "",
      lang: (v.log_english || [])[i] ? "en" : null}, t))),
    R.exportable ? h("p", {}, h("a", {class: "btn", href: `/api/games/${encodeURIComponent(R.game)}/export`,
      download: `game-${R.game}.jsonl`}, tr("Download to share (a friend's companion imports it)"))) : null);
}
async function showStep(n) {
  try {
    R.view = await getJSON(`/api/games/${encodeURIComponent(R.game)}/replay?step=${n}`);
    R.step = R.view.replay.step;
    history.replaceState(null, "", `/history?game=${encodeURIComponent(R.game)}&step=${R.step}`);
    const old = $("replay");
    const sec = replaySection();
    sec.id = "replay";
    old.replaceWith(sec);
    toast("");
  } catch (e) { toast(e.message); }
}
/* ---- rules at hand: search the rulebook passages and readings of this game ---- */
function rulesSection() {
  const list = h("ul", {class: "rules", "aria-label": tr("Passages found")});
  const forced = h("ul", {});
  const find = async (q) => {
    try {
      const r = await getJSON(`/api/games/${encodeURIComponent(R.game)}/rules?q=${encodeURIComponent(q)}`);
      box.placeholder = RulesAtHand.placeholder(r);  /* the edition's example (rules.js) */
      list.replaceChildren(...(r.results.length ? r.results.map(RulesAtHand.passage)  /* rules.js */
        : [h("li", {class: "muted"}, tr("Nothing found."))]));
      forced.replaceChildren(...r.readings.map((x) => h("li", {}, I18n.t(x.topic), x.chosen ? `: ${I18n.t(x.chosen)}` : "")));
    } catch (e) { toast(e.message); }
  };
  const box = h("input", {type: "search", "aria-label": tr("Search the rules"),
    placeholder: RulesAtHand.placeholder(null),
    oninput: (e) => find(e.target.value)});
  find("");
  return h("section", {"aria-label": tr("Rules at hand")}, h("h2", {}, tr("Rules at hand")), box, list,
    h("details", {}, h("summary", {}, tr("Readings in force for this game")), forced));
}
async function rulesOnly() {
  $("title").textContent = tr("Rules at hand");
  $("app").replaceChildren(rulesSection());
}
async function oneGame() {
  const id = encodeURIComponent(R.game);
  const [s, first, session] = await Promise.all([getJSON(`/api/games/${id}/story`),
    getJSON(`/api/games/${id}/replay?turns=1${Q.get("step") ? "&step=" + Number(Q.get("step")) : ""}`),
    getJSON("/api/session")]);
  R.view = first; R.last = first.replay.last; R.turns = first.replay.turns || [];
  R.exportable = !!session.banker;
  $("title").textContent = s.title;
  const main = $("app");
  const sec = replaySection();
  sec.id = "replay";
  main.replaceChildren(h("p", {}, h("a", {href: "/history"}, tr("All our games"))), storySection(s), sec,
    rulesSection());
}
document.addEventListener("keydown", (e) => {
  if (!R.view || e.target.tagName === "INPUT" || e.target.tagName === "SELECT") return;
  if (e.key === "ArrowRight") showStep(Math.min(R.last, R.view.replay.step + 1));
  if (e.key === "ArrowLeft") showStep(Math.max(0, R.view.replay.step - 1));
});
(async () => {
  await I18n.load(I18n.wanted());  /* this phone's language, as on the game's page */
  $("title").textContent = tr("Our games");
  try { await (R.game ? (Q.get("rules") ? rulesOnly() : oneGame()) : household()); }
  catch (e) { $("app").replaceChildren(h("section", {}, h("p", {}, e.message))); }
  $("app").setAttribute("aria-busy", "false");
})();
