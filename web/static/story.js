/* The end of a game tells its story on every phone: a panel the main page (app.js
   storyAtEnd) shows once the game is over, closed; the page fetches this file only when a
   player opens it (nothing added to the page while a game is played). Opened, it is filled
   from /api/games/ID/story (each player's figures, the rule that ended it) with links to
   the replay and the household's history (/history). Game data is shown as text, never
   HTML (dom.js). */
"use strict";
const storyCache = {};
const storyOpen = {};
function storyPanel(gameId, version, open) {
  if (open) storyOpen[gameId] = true;
  const key = `${gameId}@${version}`;
  const body = h("div", {}, h("p", {class: "muted"}, tr("Counting…")));
  const fill = (s) => body.replaceChildren(
    h("p", {class: "now"}, I18n.text(s.headline)),
    s.rule ? h("p", {class: "muted hint"}, tr("Rule:") + " " + s.rule) : null,
    ...s.players.map((p) => h("div", {},
      h("h3", {}, p.name, p.winner ? " " + tr("(winner)") : ""),
      h("ul", {}, p.lines.map((l) => h("li", {}, `${I18n.t(l.label)}: ${I18n.text(l.text)}`  /* labels marked N_ (companion/story.py) */))))),
    h("p", {class: "row"},
      h("a", {class: "btn", href: `/history?game=${encodeURIComponent(gameId)}`}, tr("Replay this game")),
      h("a", {class: "btn", href: "/history"}, tr("All our games"))));
  const load = () => {
    if (storyCache[key]) return fill(storyCache[key]);
    fetch(`/api/games/${encodeURIComponent(gameId)}/story`, {credentials: "same-origin"})
      .then((r) => (r.ok ? r.json() : Promise.reject(new Error(String(r.status)))))
      .then((s) => { storyCache[key] = I18n.localize(s); fill(storyCache[key]); })
      .catch(() => body.replaceChildren(h("p", {class: "muted"}, tr("The story could not be read; try again."))));
  };
  const panel = h("details", {class: "story", open: !!storyOpen[gameId],
    ontoggle: (e) => { storyOpen[gameId] = e.target.open; if (e.target.open) load(); }},
    h("summary", {}, tr("The story of the game")), body);
  if (storyOpen[gameId]) load();
  return panel;
}
