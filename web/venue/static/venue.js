// The venue screen: follows /api/venue/events (a full "state", then "changes" batches).
// Text from the tables is only ever set with textContent. Every word is in the screen's
// language (<html lang>, companion venue --language): its own words with tr() and the tables'
// messages (a line's, a prompt's, an end reason's "msg") with i18n.js, as on the phones.
"use strict";
(function () {
  const tables = new Map();
  let standings = [];
  const SHOW = 4;

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }

  /* a table's text: its message in the screen's language, else as the table wrote it */
  function said(msg, text) { return msg ? I18n.text(msg) : text; }
  /* money in the screen's digits (€7,50), or Power Points */
  function points(g, n, text) {
    if (g.currency) return I18n.money({money: n, cur: g.currency});
    if (g.label === "money" || g.points_label === "money") return text;
    return tr("{n}PP", {n});
  }

  function card(t) {
    const c = el("article", "table" + (t.online ? "" : " offline"));
    c.dataset.key = t.key;
    const head = el("h2");
    head.append(el("span", "dot"), el("span", "name", t.table));
    const g = t.game;
    head.append(el("span", "edition", g ? g.title : tr("no game yet")));
    c.append(head);
    if (!t.online) c.append(el("p", "status", tr("offline: its events will follow when it is back")));
    if (g) {
      const meta = [];
      if (g.finished) meta.push(said(g.end_reason_msg, g.end_reason) || tr("Game over"));
      else if (g.turn_no) meta.push(tr("turn {n}", {n: g.turn_no}));
      if (g.last_roll && g.last_roll.length) {
        const dice = g.last_roll.map((d) => I18n.number(d, 0)).join(" + ");
        meta.push(tr("rolled {dice}", {dice}));
      }
      c.append(el("p", "meta", meta.join(" · ")));
      const ul = el("ul", "players");
      for (const p of g.players) {
        const winner = g.finished && g.winners.includes(p.id);
        const li = el("li", (p.is_current ? "current" : "") + (p.bankrupt ? " out" : "") +
          (winner ? " winner" : ""));
        li.append(el("span", "who", (winner ? "★ " : p.is_current ? "▶ " : "") + p.name),
          el("span", "points", points(g, p.points, p.points_text)));
        ul.append(li);
      }
      c.append(ul);
      if (g.prompt && !g.finished) c.append(el("p", "prompt", said(g.prompt_msg, g.prompt)));
      const log = el("ol", "log");
      for (const line of (t.recent || []).slice(-SHOW)) {
        log.append(el("li", line.undone ? "undone" : "", said(line.msg, line.say)));
      }
      c.append(log);
    }
    return c;
  }

  function renderTables() {
    const box = document.getElementById("tables");
    const keys = [...tables.keys()].sort();
    box.replaceChildren(...keys.map((k) => card(tables.get(k))));
    const online = keys.filter((k) => tables.get(k).online).length;
    const playing = keys.filter((k) => { const g = tables.get(k).game; return g && !g.finished; }).length;
    document.getElementById("counts").textContent = [
      trn("{n} table", "{n} tables", keys.length), trn("{n} online", "{n} online", online),
      trn("{n} playing", "{n} playing", playing)].join(" · ");
  }

  function renderStandings() {
    const box = document.getElementById("standings");
    const parts = [el("h2", "", tr("Standings"))];
    for (const ed of standings) {
      const sec = el("section", "edition");
      sec.append(el("h3", "", tr("{edition} · {done} of {games} finished",
        {edition: ed.title, done: ed.finished, games: ed.games})));
      const tbl = el("table");
      const head = el("tr");
      head.append(el("th", "", "#"), el("th", "", tr("player")), el("th", "", tr("table")),
        el("th", "", tr("wins")), el("th", "", ed.label === "money" ? tr("money") : tr("Power Points")));
      tbl.append(head);
      ed.rows.slice(0, 10).forEach((r, i) => {
        const row = el("tr");
        row.append(el("td", "", I18n.number(i + 1, 0)), el("td", "", r.name), el("td", "", r.table),
          el("td", "num", I18n.number(r.wins, 0)), el("td", "num", points(ed, r.points, r.points_text)));
        tbl.append(row);
      });
      sec.append(tbl);
      parts.push(sec);
    }
    box.replaceChildren(...parts);
  }

  function applyChange(ch) {
    if (ch.kind === "table") {
      tables.set(ch.table.key, ch.table);
    } else if (ch.kind === "standings") {
      standings = ch.standings;
    } else if (ch.kind === "log") {
      const t = tables.get(ch.key);
      if (t && t.active === ch.game && ch.line.say &&
          !(t.recent || []).some((l) => l.seq === ch.line.seq)) {
        t.recent = (t.recent || []).concat([ch.line]).slice(-8);
      }
    } else if (ch.kind === "undo") {
      const t = tables.get(ch.key);
      if (t && t.active === ch.game) {
        for (const l of t.recent || []) if (ch.seqs.includes(l.seq)) l.undone = true;
      }
    }
  }

  function connect() {
    const src = new EventSource("/api/venue/events");
    const link = document.getElementById("link");
    src.addEventListener("open", () => { link.textContent = tr("live"); link.className = "link live"; });
    src.addEventListener("error", () => { link.textContent = tr("reconnecting…"); link.className = "link"; });
    src.addEventListener("state", (e) => {
      const s = JSON.parse(e.data);
      tables.clear();
      for (const t of s.tables) tables.set(t.key, t);
      standings = s.standings;
      renderTables();
      renderStandings();
    });
    src.addEventListener("changes", (e) => {
      const batch = JSON.parse(e.data);
      let st = false;
      for (const ch of batch) { applyChange(ch); st = st || ch.kind === "standings"; }
      renderTables();
      if (st) renderStandings();
    });
  }
  I18n.load(document.documentElement.lang).then(connect, connect);
})();
