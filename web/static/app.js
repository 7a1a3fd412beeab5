/* Board Companion phone page. Renders the generic VIEW (docs/contracts.md) from the JSON API.
   Every piece of game data goes into the DOM through textContent or attributes, never HTML. */
"use strict";

const S = {session: null, game: null, view: null, es: null, seen: -1, tab: "table",
  history: null, balances: null, retry: null};
const COLORS = ["#e53935", "#1e88e5", "#43a047", "#fb8c00", "#8e24aa", "#00897b", "#6d4c41",
  "#d81b60"];
const SVGNS = "http://www.w3.org/2000/svg";
const KNOWN_TOP = new Set(["game_id", "version", "edition", "title", "family", "currency",
  "players", "current", "prompt", "actions", "log", "last_roll", "finished", "winners",
  "end_reason", "board", "extra", "join_code"]);
const KNOWN_PLAYER = new Set(["id", "name", "token", "money", "money_text", "position", "space",
  "in_jail", "bankrupt", "is_current", "spaces", "cards"]);

/* ---- DOM helpers (text only) ---- */
function h(tag, attrs, ...kids) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "class") el.className = v;
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  for (const kid of kids.flat()) {
    if (kid === null || kid === undefined || kid === false) continue;
    el.append(kid instanceof Node ? kid : document.createTextNode(String(kid)));
  }
  return el;
}
function s(tag, attrs, ...kids) {
  const el = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs || {})) el.setAttribute(k, String(v));
  for (const kid of kids) if (kid) el.append(kid instanceof Node ? kid : String(kid));
  return el;
}
const $ = (id) => document.getElementById(id);
const humanize = (k) => String(k).replace(/[_-]+/g, " ").replace(/^./, (c) => c.toUpperCase());
function randomKey() {
  const a = new Uint8Array(12); crypto.getRandomValues(a);
  return Array.from(a, (b) => b.toString(16).padStart(2, "0")).join("");
}
function toast(text, info) {
  const t = $("toast"); t.textContent = text; t.className = info ? "info" : ""; t.hidden = false;
  clearTimeout(toast.timer); toast.timer = setTimeout(() => { t.hidden = true; }, 5000);
}
function safeColor(c) {
  return typeof c === "string" && /^(#[0-9a-f]{3,8}|[a-z]{3,20})$/i.test(c) ? c : "transparent";
}

/* ---- API ---- */
async function api(method, path, body) {
  const opts = {method, headers: {Accept: "application/json"}, credentials: "same-origin"};
  if (method !== "GET") {
    opts.headers["Content-Type"] = "application/json";
    opts.headers["X-CSRF-Token"] = S.session ? S.session.csrf : "";
    opts.body = JSON.stringify(body || {});
  }
  let resp;
  try { resp = await fetch(path, opts); } catch (e) {
    throw new Error("The companion cannot be reached; check the Wi-Fi.");
  }
  const data = await resp.json().catch(() => ({}));
  if (!resp.ok || data.ok === false) {
    const err = new Error(data.error || `Refused (${resp.status}).`);
    err.code = data.code; err.status = resp.status; throw err;
  }
  return data;
}
async function act(fn) {
  try { return await fn(); } catch (e) {
    toast(e.message);
    if (e.code === "stale" || e.code === "illegal") await loadView();
    if (e.code === "csrf") await loadSession();
    return null;
  }
}

/* ---- who am I ---- */
async function loadSession() { S.session = await api("GET", "/api/session"); }
const banker = () => !!(S.session && S.session.banker);
const me = () => (S.session && S.game ? S.session.games[S.game] || null : null);
function mayAct(actor) { return banker() || (me() !== null && actor === me()); }
function playerName(id) {
  if (id === "banker") return "Banker";
  if (id === "bank") return "Bank";
  const p = S.view && S.view.players.find((x) => x.id === id);
  return p ? p.name : String(id);
}
function playerColor(id) {
  const i = S.view ? S.view.players.findIndex((p) => p.id === id) : -1;
  return i < 0 ? "#888" : COLORS[i % COLORS.length];
}
function spaceName(i) {
  const sp = S.view && S.view.board && S.view.board.spaces.find((x) => x.index === i || x.id === i);
  return sp ? sp.name : String(i);
}

/* ---- live updates ---- */
function connect() {
  if (S.es) S.es.close();
  clearTimeout(S.retry);
  const es = new EventSource(`/api/games/${encodeURIComponent(S.game)}/events?live=patch`);
  S.es = es;
  const live = Live.follower(), got = (v) => { S.seen = v.version; setLive(true); showView(v); };
  es.addEventListener("view", (ev) => got(live.view(ev)));
  es.addEventListener("patch", (ev) => { const v = live.patch(ev); if (v) got(v); else connect(); });
  es.onopen = () => setLive(true);
  es.onerror = () => {
    setLive(false);
    if (es.readyState === EventSource.CLOSED) S.retry = setTimeout(connect, 2000);
  };
}
function setLive(on) {
  const d = $("live"); d.className = "dot " + (on ? "on" : "off");
  d.setAttribute("aria-label", on ? "live" : "reconnecting"); d.title = on ? "live" : "reconnecting";
}
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible" && S.game &&
      (!S.es || S.es.readyState === EventSource.CLOSED)) connect();
});
async function loadView() {
  if (!S.game) return;
  const v = await api("GET", `/api/games/${encodeURIComponent(S.game)}`).catch(() => null);
  if (v) showView(v);
}
function showView(v) {
  if (S.view && v.version < S.view.version) return;
  const moved = !S.view || S.view.version !== v.version;
  S.view = v; window.__version = v.version;
  if (moved) { S.history = null; S.balances = null; }
  render();
}

/* ---- commands ---- */
function send(action, extra) {
  const args = Object.assign({}, action.args || {}, extra || {});
  return act(async () => {
    const out = await api("POST", `/api/games/${encodeURIComponent(S.game)}/commands`,
      {actor: action.actor, type: action.type, args, version: S.view.version, key: randomKey()});
    if (out && out.says && out.says.length) toast(out.says.join(" "), true);
  });
}

/* ---- rendering ---- */
function render() {
  const app = $("app"); app.setAttribute("aria-busy", "false");
  const who = $("who");
  who.textContent = banker() ? "Banker" : me() ? playerName(me()) : S.game ? "Spectator" : "";
  if (!S.game) { app.replaceChildren(...joinScreen()); return; }
  if (!S.view) { app.replaceChildren(h("p", {class: "muted"}, "Loading the game…")); return; }
  $("title").textContent = S.view.title || "Board Companion";
  const nav = h("div", {class: "tabs", role: "tablist"}, ...[["table", "Table"], ["chart", "Chart"],
    ["history", "History"], ...(banker() ? [["banker", "Banker"]] : [["more", "More"]])].map(
    ([k, label]) => h("button", {role: "tab", "aria-selected": S.tab === k ? "true" : "false",
      class: S.tab === k ? "primary" : "", onclick: () => { S.tab = k; render(); }}, label)));
  const body = {table: tableTab, chart: chartTab, history: historyTab, banker: bankerTab,
    more: moreTab}[S.tab] || tableTab;
  app.replaceChildren(nav, h("div", {}, ...body()));
}

function tableTab() {
  const v = S.view;
  return [promptSection(v), playersSection(v), boardSection(v), extraSection(v),
    logSection(v)].filter(Boolean);
}

function promptSection(v) {
  const sec = h("section", {"aria-label": "What happens now"});
  if (v.finished) {
    sec.append(h("p", {class: "prompt"}, "Game over. ",
      v.winners && v.winners.length ? `Winner: ${v.winners.map(playerName).join(", ")}. ` : "",
      v.end_reason || ""));
  }
  if (v.prompt) {
    const mine = (v.prompt.to || []).some(mayAct);
    sec.append(h("p", {class: "prompt" + (mine ? " mine" : "")}, v.prompt.text,
      mine ? "" : ` (waiting for ${(v.prompt.to || []).map(playerName).join(", ")})`));
  }
  if (v.last_roll && v.last_roll.length) {
    sec.append(h("p", {class: "muted"}, `Last roll: ${v.last_roll.join(" + ")}`));
  }
  const mine = (v.actions || []).filter((a) => mayAct(a.actor));
  const list = h("div", {class: "actions"});
  for (const a of mine) list.append(actionView(a, banker()));
  if (mine.length) sec.append(list);
  else if (!v.finished) sec.append(h("p", {class: "muted"}, me() || banker()
    ? "Nothing for you to do right now." : "You are watching. Claim a player under More."));
  return sec;
}

function actionView(a, showActor) {
  const box = h("div", {class: "action", "data-type": a.type, "data-actor": a.actor});
  const label = (showActor && a.actor !== "banker" ? `${playerName(a.actor)}: ` : "") + a.label;
  const inp = a.input;
  if (!inp) {
    box.append(h("button", {class: "primary", onclick: () => send(a)}, label));
  } else if (inp.kind === "dice") {
    box.append(diceInput(a, label, inp));
  } else if (inp.kind === "amount") {
    const id = `amt-${a.actor}-${a.type}`;
    const field = h("input", {id, type: "number", inputmode: "numeric", min: inp.min, max: inp.max,
      value: inp.min});
    box.append(h("label", {for: id}, `${label} (${inp.min}–${inp.max})`), h("div", {class: "row"},
      field, h("button", {class: "primary", onclick: () => send(a, {amount: Number(field.value)})},
        a.label)));
  } else if (inp.kind === "choice") {
    box.append(h("p", {class: "muted"}, label), h("div", {class: "actions"},
      ...(inp.options || []).map((o) => h("button", {class: "primary",
        onclick: () => send(a, {[inp.arg || "option"]: o.value})}, o.label ?? String(o.value)))));
  } else if (inp.kind === "trade") {
    box.append(h("details", {}, h("summary", {}, label), tradeForm(a)));
  } else if (inp.kind === "transfer") {
    box.append(h("details", {}, h("summary", {}, label), transferForm(a)));
  } else {
    box.append(h("button", {onclick: () => send(a)}, label));
  }
  return box;
}

function diceInput(a, label, inp) {
  const count = inp.count || 1;
  const fields = Array.from({length: count}, (_, i) => h("input", {type: "number",
    inputmode: "numeric", min: 1, max: 6, "aria-label": `Die ${i + 1}`}));
  const enter = () => {
    const dice = fields.map((f) => Number(f.value));
    if (dice.some((d) => !Number.isInteger(d) || d < 1)) { toast("Enter every die."); return; }
    send(a, {dice});
  };
  const form = h("div", {}, h("div", {class: "dice"}, ...fields),
    h("button", {class: inp.physical ? "primary" : "", onclick: enter}, "Send my dice"));
  if (inp.physical || !inp.optional) {
    return h("div", {}, h("p", {}, `${label}: enter the dice you rolled`), form);
  }
  return h("div", {}, h("button", {class: "primary", onclick: () => send(a)}, label),
    h("details", {}, h("summary", {}, "I rolled real dice"), form));
}

/* every list-valued player field is a tradable asset list (spaces, cards, edition extras) */
function assetLists(p) {
  const out = {};
  for (const [k, val] of Object.entries(p)) if (Array.isArray(val)) out[k] = val;
  return out;
}
function assetLabel(kind, item) {
  if (item && typeof item === "object") {
    return String(item.name ?? item.text ?? item.label ?? item.id ?? JSON.stringify(item));
  }
  return kind === "spaces" ? spaceName(item) : String(item);
}
const assetValue = (item) => (item && typeof item === "object" ? item.id : item);

function assetPicker(player, title) {
  const box = h("fieldset", {}, h("legend", {}, title));
  const money = h("input", {type: "number", min: 0, value: 0, inputmode: "numeric",
    "aria-label": `${title}: money`});
  box.append(h("label", {}, "Money", money));
  const checks = [];
  for (const [kind, items] of Object.entries(assetLists(player))) {
    for (const item of items) {
      const c = h("input", {type: "checkbox"});
      checks.push([kind, assetValue(item), c]);
      box.append(h("label", {class: "check"}, c, `${humanize(kind)}: ${assetLabel(kind, item)}`));
    }
  }
  const read = () => {
    const out = {};
    const m = Number(money.value) || 0;
    if (m) out.money = m;
    for (const [kind, val, c] of checks) if (c.checked) (out[kind] = out[kind] || []).push(val);
    return out;
  };
  return [box, read];
}

function tradeForm(a) {
  const v = S.view;
  const others = v.players.filter((p) => p.id !== a.actor && !p.bankrupt);
  const form = h("div", {class: "trade"});
  const to = h("select", {"aria-label": "Trade with"},
    ...others.map((p) => h("option", {value: p.id}, p.name)));
  const mine = v.players.find((p) => p.id === a.actor);
  const [giveBox, give] = assetPicker(mine, `${mine.name} gives`);
  const takeHolder = h("div");
  let take = () => ({});
  const fill = () => {
    const other = v.players.find((p) => p.id === to.value);
    if (!other) return;
    const [box, read] = assetPicker(other, `${other.name} gives`);
    take = read; takeHolder.replaceChildren(box);
  };
  to.addEventListener("change", fill); fill();
  form.append(h("label", {}, "Trade with", to), giveBox, takeHolder,
    h("button", {class: "primary", onclick: () => send(a, {to: to.value, give: give(),
      take: take()})}, "Offer the trade"));
  return form;
}

function transferForm(a) {
  const accounts = [["bank", "Bank"], ...S.view.players.map((p) => [p.id, p.name])];
  const opts = () => accounts.map(([id, n]) => h("option", {value: id}, n));
  const src = h("select", {"aria-label": "From"}, ...opts());
  const to = h("select", {"aria-label": "To"}, ...opts());
  to.selectedIndex = Math.min(1, accounts.length - 1);
  const amount = h("input", {type: "number", min: 1, value: 1, inputmode: "numeric",
    "aria-label": "Amount"});
  const reason = h("input", {type: "text", maxlength: 120, "aria-label": "Reason",
    placeholder: "Reason (shown in the history)"});
  return h("div", {}, h("div", {class: "row"}, h("label", {}, "From", src), h("label", {}, "To", to)),
    h("label", {}, "Amount", amount), h("label", {}, "Reason", reason),
    h("button", {class: "primary", onclick: () => send(a, {source: src.value, to: to.value,
      amount: Number(amount.value), reason: reason.value})}, "Move the money"));
}

function playersSection(v) {
  const list = h("div", {class: "players"});
  for (const p of v.players) {
    const tags = [];
    if (p.is_current) tags.push(h("span", {class: "tag"}, "turn"));
    if (p.in_jail) tags.push(h("span", {class: "tag warn"}, "in jail"));
    if (p.bankrupt) tags.push(h("span", {class: "tag warn"}, "bankrupt"));
    if (p.id === me()) tags.push(h("span", {class: "tag"}, "you"));
    const owned = (p.spaces || []).map((i) => spaceName(i));
    const extra = Object.entries(p).filter(([k]) => !KNOWN_PLAYER.has(k));
    list.append(h("div", {class: "player" + (p.is_current ? " current" : ""),
      style: null, "data-player": p.id},
    h("div", {class: "top"}, h("span", {}, p.name, p.token ? ` (${p.token})` : ""),
      h("span", {class: "money"}, p.money_text ?? p.money ?? "")),
    h("div", {}, ...tags, p.space ? h("span", {class: "muted"}, ` at ${p.space}`) : ""),
    owned.length ? h("div", {class: "muted"}, `Owns: ${owned.join(", ")}`) : "",
    (p.cards || []).length ? h("div", {class: "muted"},
      `Cards: ${p.cards.map((c) => assetLabel("cards", c)).join("; ")}`) : "",
    extra.length ? dataList(Object.fromEntries(extra)) : ""));
    list.lastChild.style.setProperty("--c", playerColor(p.id));
  }
  return h("section", {"aria-label": "Players"}, h("h2", {}, "Players"), list);
}

/* generic labelled data for edition extras */
function dataList(obj, depth = 0) {
  const dl = h("dl");
  for (const [k, val] of Object.entries(obj || {})) {
    if (val === null || val === undefined || val === "") continue;
    const nested = typeof val === "object" && !(Array.isArray(val) &&
      val.every((x) => typeof x !== "object"));
    const label = S.view && S.view.players.some((p) => p.id === k) ? playerName(k) : humanize(k);
    dl.append(h("dt", {class: nested ? "full" : null}, label),
      h("dd", {class: nested ? "full" : null}, dataValue(k, val, depth)));
  }
  return dl;
}
function dataValue(k, val, depth) {
  if (typeof val === "boolean") return val ? "yes" : "no";
  if (Array.isArray(val)) {
    if (!val.length) return "none";
    if (val.every((x) => typeof x !== "object")) {
      return val.map((x) => (k === "spaces" ? spaceName(x) : S.view.players.some((p) => p.id === x)
        ? playerName(x) : String(x))).join(", ");
    }
    return h("div", {}, ...val.map((x) => (depth < 3 ? dataList(x, depth + 1) : JSON.stringify(x))));
  }
  if (typeof val === "object") return depth < 3 ? dataList(val, depth + 1) : JSON.stringify(val);
  if (typeof val === "string" && S.view.players.some((p) => p.id === val)) return playerName(val);
  return String(val);
}

function extraSection(v) {
  const data = Object.assign({}, v.extra || {});
  for (const [k, val] of Object.entries(v)) if (!KNOWN_TOP.has(k)) data[k] = val;
  const shown = Object.entries(data).filter(([, x]) => x !== null && x !== "" &&
    !(Array.isArray(x) && !x.length));
  if (!shown.length) return null;
  return h("section", {"aria-label": "Table details"}, h("h2", {}, "On the table"),
    dataList(Object.fromEntries(shown)));
}

function logSection(v) {
  if (!v.log || !v.log.length) return null;
  return h("section", {"aria-label": "Latest"}, h("h2", {}, "Latest"),
    h("ol", {class: "log", reversed: true}, ...[...v.log].reverse().map((t) => h("li", {}, t))));
}

/* ---- board map: a ring of spaces ---- */
function boardSection(v) {
  const spaces = v.board && v.board.spaces;
  if (!spaces || !spaces.length) return null;
  const n = spaces.length, side = Math.ceil(n / 4), cell = 40, size = cell * (side + 1);
  const svg = s("svg", {viewBox: `0 0 ${size} ${size}`, role: "img",
    "aria-label": `Board map with ${n} spaces`});
  const pos = (i) => {
    const k = i % side, edge = Math.floor(i / side);
    if (edge === 0) return [size - cell - k * cell, size - cell];
    if (edge === 1) return [0, size - cell - k * cell];
    if (edge === 2) return [k * cell, 0];
    return [size - cell, k * cell];
  };
  const markers = [];
  for (const [k, val] of Object.entries(v.extra || {})) {
    if (val && typeof val === "object" && Number.isInteger(val.position)) markers.push([k, val]);
  }
  spaces.forEach((sp, i) => {
    const [x, y] = pos(sp.index ?? i);
    const flags = Object.entries(sp).filter(([k, x2]) => x2 === true).map(([k]) => humanize(k));
    const title = [sp.name, sp.owner ? `owned by ${playerName(sp.owner)}` : "", ...flags]
      .filter(Boolean).join(", ");
    const g = s("g", {"data-space": sp.index ?? i}, s("title", {}, title));
    g.append(s("rect", {x: x + 1, y: y + 1, width: cell - 2, height: cell - 2, rx: 3,
      fill: sp.owner ? playerColor(sp.owner) : "none", "fill-opacity": sp.owner ? 0.35 : 0,
      stroke: flags.length ? "#d32f2f" : "currentColor", "stroke-width": flags.length ? 3 : 0.6}));
    if (sp.color) g.append(s("rect", {x: x + 2, y: y + 2, width: cell - 4, height: 6,
      fill: safeColor(sp.color)}));
    g.append(s("text", {x: x + 4, y: y + 20, "font-size": 9}, String(sp.name).slice(0, 7)));
    if (flags.length) g.append(s("text", {x: x + 4, y: y + 36, "font-size": 10,
      fill: "#d32f2f"}, "✕"));
    svg.append(g);
  });
  v.players.forEach((p, j) => {
    if (!Number.isInteger(p.position) || p.bankrupt) return;
    const [x, y] = pos(p.position);
    const cx = x + 8 + (j % 3) * 12, cy = y + 27 + Math.floor(j / 3) * 8;
    svg.append(s("circle", {cx, cy, r: 6, fill: playerColor(p.id), stroke: "#000",
      "stroke-width": 0.8}, s("title", {}, `${p.name} is here`)));
  });
  markers.forEach(([k, m]) => {
    const [x, y] = pos(m.position);
    svg.append(s("g", {}, s("title", {}, `${humanize(k)} is here`),
      s("rect", {x: x + cell - 14, y: y + 10, width: 12, height: 12, fill: "#000", rx: 2}),
      s("text", {x: x + cell - 11, y: y + 20, "font-size": 9, class: "mk"},
        humanize(k)[0])));
  });
  const mid = size / 2;
  svg.append(s("text", {x: mid, y: mid, "font-size": 14, "text-anchor": "middle"},
    v.current ? `${playerName(v.current)}'s turn` : ""));
  const legend = h("div", {class: "legend"}, ...v.players.map((p) => {
    const el = h("span", {}, p.name); el.style.setProperty("--c", playerColor(p.id)); return el;
  }), ...markers.map(([k]) => h("span", {}, `■ ${humanize(k)}`)));
  return h("section", {"aria-label": "Board"}, h("h2", {}, "Board"), svg, legend);
}

/* ---- balance chart ---- */
function chartTab() {
  const sec = h("section", {"aria-label": "Money over the game"}, h("h2", {}, "Money over the game"));
  if (!S.balances) {
    api("GET", `/api/games/${encodeURIComponent(S.game)}/balances`).then((b) => {
      S.balances = b; render();
    }).catch((e) => toast(e.message));
    sec.append(h("p", {class: "muted"}, "Loading…"));
    return [sec];
  }
  const pts = S.balances.points;
  const w = 340, hgt = 200, pad = 30;
  let max = 1;
  for (const p of pts) for (const m of Object.values(p.money)) max = Math.max(max, m);
  const svg = s("svg", {viewBox: `0 0 ${w} ${hgt}`, role: "img",
    "aria-label": "Chart of every player's money after each move"});
  svg.append(s("line", {x1: pad, y1: hgt - pad, x2: w - 5, y2: hgt - pad, stroke: "currentColor"}),
    s("line", {x1: pad, y1: 5, x2: pad, y2: hgt - pad, stroke: "currentColor"}),
    s("text", {x: 2, y: 14, "font-size": 10}, String(max)),
    s("text", {x: 2, y: hgt - pad, "font-size": 10}, "0"));
  const X = (i) => pad + (pts.length < 2 ? 0 : (i * (w - pad - 5)) / (pts.length - 1));
  const Y = (m) => hgt - pad - (m * (hgt - pad - 5)) / max;
  for (const p of S.balances.players) {
    const line = pts.filter((pt) => p.id in pt.money)
      .map((pt) => `${X(pts.indexOf(pt)).toFixed(1)},${Y(pt.money[p.id]).toFixed(1)}`).join(" ");
    svg.append(s("polyline", {points: line, fill: "none", stroke: playerColor(p.id),
      "stroke-width": 2.5}, s("title", {}, p.name)));
  }
  const legend = h("div", {class: "legend"}, ...S.balances.players.map((p) => {
    const last = pts.length ? pts[pts.length - 1].money[p.id] : "";
    const el = h("span", {}, `${p.name}: ${last}`); el.style.setProperty("--c", playerColor(p.id));
    return el;
  }));
  sec.append(svg, legend, h("p", {class: "muted"}, `${pts.length} moves`));
  return [sec];
}

/* ---- history (newest first); the banker can undo any step ---- */
function historyTab() {
  const sec = h("section", {"aria-label": "History"}, h("h2", {}, "Everything that happened"));
  if (!S.history) {
    api("GET", `/api/games/${encodeURIComponent(S.game)}/history`).then((r) => {
      S.history = r; render();
    }).catch((e) => toast(e.message));
    sec.append(h("p", {class: "muted"}, "Loading…"));
    return [sec];
  }
  const list = h("ol", {class: "hist", reversed: true});
  let lastCmd = null;
  for (const row of S.history) {
    const li = h("li", {class: row.undone ? "undone" : ""}, row.say);
    if (banker() && !row.undone && row.cmd > 0 && row.cmd !== lastCmd &&
        !/^The banker undoes/.test(row.say)) {
      li.prepend(h("button", {class: "danger undo", "data-undo": row.cmd,
        "aria-label": `Undo step ${row.cmd} and everything after it`, onclick: () => act(async () => {
          if (!confirm("Undo this step and everything after it?")) return;
          await api("POST", `/api/games/${encodeURIComponent(S.game)}/undo`, {cmd: row.cmd});
          toast("Undone.", true);
        })}, "Undo"));
    }
    lastCmd = row.cmd;
    list.append(li);
  }
  sec.append(list);
  return [sec];
}

/* ---- seats (claim a player) ---- */
function seatsSection() {
  const sec = h("section", {"aria-label": "Players' phones"}, h("h2", {}, banker() ? "Phones" : "Who is this phone?"));
  const box = h("div", {class: "seats"}, h("p", {class: "muted"}, "Loading…"));
  sec.append(box);
  api("GET", `/api/games/${encodeURIComponent(S.game)}/seats`).then((seats) => {
    box.replaceChildren(...seats.map((p) => h("div", {class: "row"},
      banker() ? h("span", {}, `${p.name}: ${p.claimed ? "a phone plays" : "no phone yet"}`)
        : h("button", {class: p.mine ? "primary" : "", disabled: p.claimed && !p.mine,
          "data-claim": p.id, onclick: () => claim(p.id)},
        p.mine ? `You are ${p.name}` : p.claimed ? `${p.name} (taken)` : `I am ${p.name}`),
      (banker() || p.mine) && p.claimed ? h("button", {class: "danger",
        onclick: () => act(async () => {
          await api("POST", `/api/games/${encodeURIComponent(S.game)}/release`, {player: p.id});
          await loadSession(); render();
        })}, "Release") : "")));
  }).catch((e) => box.replaceChildren(h("p", {}, e.message)));
  return sec;
}
async function claim(player) {
  const code = S.code || (S.view && S.view.join_code);
  await act(async () => {
    await api("POST", "/api/join", {code, player});
    await loadSession(); S.tab = "table"; render();
  });
}

function moreTab() {
  return [seatsSection(), bankerLogin(), gamesSection()];
}

/* ---- join ---- */
function joinScreen() {
  const code = h("input", {id: "code", inputmode: "numeric", autocomplete: "off", maxlength: 12,
    value: S.code || "", placeholder: "e.g. 4821"});
  const go = () => act(async () => {
    S.code = code.value.trim();
    const r = await api("POST", "/api/join", {code: S.code});
    await loadSession(); openGame(r.game_id, "more");
  });
  code.addEventListener("keydown", (e) => { if (e.key === "Enter") go(); });
  return [h("section", {"aria-label": "Join a game"}, h("h2", {}, "Join the game"),
    h("label", {for: "code"}, "Code shown on the companion's screen"), h("div", {class: "row"},
      code, h("button", {class: "primary", onclick: go}, "Join"))),
  banker() ? setupForm() : null, gamesSection(), bankerLogin()]
    .filter(Boolean);
}
function gamesSection() {
  const sec = h("section", {"aria-label": "Games"}, h("h2", {}, "Games"));
  const box = h("div", {class: "actions"});
  sec.append(box);
  api("GET", "/api/games").then((games) => {
    const mine = games.filter((g) => g.joined || banker()).reverse();
    box.replaceChildren(...(mine.length ? mine.map((g) => h("button", {onclick: () => openGame(g.id)},
      `${g.title} (${g.status}${g.join_code ? `, code ${g.join_code}` : ""})`))
      : [h("p", {class: "muted"}, "Join with the code to see a game.")]));
  }).catch(() => {});
  return sec;
}
function bankerLogin() {
  if (banker()) return null;
  const pin = h("input", {id: "pin", type: "password", inputmode: "numeric", autocomplete: "off"});
  const form = h("form", {}, h("label", {for: "pin"}, "Banker PIN"),
    h("div", {class: "row"}, pin, h("button", {class: "primary", type: "submit"}, "Log in")));
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    act(async () => {
      await api("POST", "/api/banker/login", {pin: pin.value});
      await loadSession(); S.tab = S.game ? "banker" : "table"; render();
    });
  });
  return h("details", {}, h("summary", {}, "Banker"), form);
}

/* ---- banker ---- */
function bankerTab() {
  const g = encodeURIComponent(S.game);
  const out = [];
  const hw = S.session.hardware;
  const qr = h("section", {"aria-label": "Join code"}, h("h2", {}, `Join code: ${S.view.join_code}`),
    h("img", {class: "qr", src: `/api/games/${g}/qr.svg`, alt: `QR code to join, code ${S.view.join_code}`}));
  out.push(qr, seatsSection());
  if (hw) {
    const img = h("img", {class: "oled", alt: "The companion's screen", src: `/api/oled.png?t=${Date.now()}`});
    out.push(h("section", {"aria-label": "Screen mirror"}, h("h2", {}, "Companion screen"), img,
      h("button", {onclick: () => { img.src = `/api/oled.png?t=${Date.now()}`; }}, "Refresh")));
  }
  if (S.session.simulated) {
    const role = h("input", {value: "table", "aria-label": "Reader role"});
    const uid = h("input", {placeholder: "04A1B2C3", "aria-label": "Tag UID"});
    out.push(h("section", {"aria-label": "Virtual tap"}, h("h2", {}, "Virtual tap"),
      h("div", {class: "row"}, h("label", {}, "Reader", role), h("label", {}, "Tag UID", uid)),
      h("button", {onclick: () => act(async () => {
        await api("POST", "/api/tap", {role: role.value, uid: uid.value, game_id: S.game});
        toast("Tapped.", true);
      })}, "Tap")));
  }
  if (hw) out.push(tableSection());
  const tags = h("div", {}, h("p", {class: "muted"}, "Loading…"));
  api("GET", `/api/tags?edition=${encodeURIComponent(S.view.edition || "")}`).then((t) => {
    const p = t.progress;
    const ed = S.view.edition || "";
    const running = p && p.enrolling === ed;
    const move = h("input", {type: "checkbox", id: "enroll-move"});
    const toggle = h("button", {id: "enroll-toggle", onclick: () => act(async () => {
      await api("POST", "/api/enrollment", {edition: running ? null : ed, move: move.checked});
      toast(running ? "Enrollment stopped." : "Tap each tag on the reader in turn.", true);
      render();
    })}, running ? "Stop enrolling" : "Enroll tags for this edition");
    tags.replaceChildren(
      p ? h("p", {id: "enroll-progress"}, `${p.text}. ${running ? p.prompt : ""}`) : "",
      dataList({enrolled: Object.keys(t.enrolled).length ? t.enrolled : "none yet"}),
      t.enroll_hook && !running ? h("label", {}, move, " Move tags already enrolled as "
        + "something else") : "",
      t.enroll_hook ? toggle : h("p", {class: "muted"}, "Enroll tags at the companion "
        + "(companion enroll)."));
  }).catch((e) => tags.replaceChildren(e.message));
  out.push(h("section", {"aria-label": "Tags"}, h("h2", {}, "Tags"), tags));
  out.push(h("section", {"aria-label": "Game"}, h("h2", {}, "This game"), h("div", {class: "row"},
    h("a", {class: "btn", href: `/api/games/${g}/export`, download: `game-${S.game}.jsonl`},
      "Export"),
    h("button", {class: "danger", onclick: () => act(async () => {
      await api("POST", `/api/games/${g}/undo`, {}); toast("Undone.", true);
    })}, "Undo last step"))));
  out.push(setupForm(), gamesSection(), h("button", {onclick: () => act(async () => {
    await api("POST", "/api/banker/logout", {}); await loadSession(); S.tab = "table"; render();
  })}, "Log out of banker"));
  return out;
}

/* the table (readers, buttons, screen) serves one game: which, and how each device is */
function tableSection() {
  const box = h("div", {id: "table-status"}, h("p", {class: "muted"}, "Loading…"));
  api("GET", "/api/table").then((t) => {
    const here = t.served && t.served.game_id === S.game;
    box.replaceChildren(
      h("p", {}, here ? "The table serves this game." : t.served
        ? `The table serves another game: ${t.served.title} (${t.served.game_id}).`
        : "The table serves no game."),
      here || !t.can_serve ? "" : h("button", {id: "serve-game", onclick: () => act(async () => {
        await api("POST", "/api/table", {game_id: S.game});
        toast("The table now serves this game.", true); render();
      })}, "Serve this game at the table"),
      h("ul", {}, ...t.devices.map((d) => h("li", {class: d.working === false ? "device-missing" : ""},
        `${d.name}: ${d.working === false ? "not working, retrying" : "working"} (${d.message})`))));
  }).catch((e) => box.replaceChildren(e.message));
  return h("section", {"aria-label": "Table"}, h("h2", {}, "Table"), box);
}

/* ---- new game: the edition describes its setup (GET /api/editions/<name>) ---- */
const SETUP_CACHE = {};
function editionInfo(name) {
  if (!SETUP_CACHE[name]) {
    SETUP_CACHE[name] = api("GET", `/api/editions/${encodeURIComponent(name)}`)
      .catch((e) => { delete SETUP_CACHE[name]; throw e; });
  }
  return SETUP_CACHE[name];
}
const isObj = (x) => x && typeof x === "object" && !Array.isArray(x);
function merge(a, b) {
  const out = Object.assign({}, a);
  for (const [k, v] of Object.entries(b || {})) out[k] = isObj(v) && isObj(out[k]) ? merge(out[k], v) : v;
  return out;
}
function whole(input, what) {
  const n = Number(input.value);
  if (input.value.trim() === "" || !Number.isInteger(n) || !input.checkValidity()) {
    input.focus();
    throw new Error(`${what}: enter a whole number${input.min ? ` from ${input.min}` : ""}`
      + `${input.max ? ` to ${input.max}` : ""}.`);
  }
  return n;
}
function numField(label, value, opts) {
  return h("input", Object.assign({type: "number", inputmode: "numeric", min: 0, step: 1,
    value, "aria-label": label}, opts || {}));
}

/* one control per setting; each reader returns the changed value or undefined */
function settingField(st) {
  const id = `setup-set-${st.name}`, def = st.default;
  if (st.type === "int") {
    const el = numField(st.label, def ?? "", {id, min: st.min, max: st.max, "aria-label": null});
    const range = st.min !== undefined && st.max !== undefined ? ` (${st.min}–${st.max})` : "";
    return [[h("label", {for: id}, st.label + range), el],
      () => { const n = whole(el, st.label); return n === def ? undefined : n; }];
  }
  if (st.type === "choice") {
    const el = h("select", {id}, ...(st.choices || []).map((c) => h("option",
      {value: String(c.value), selected: c.value === def}, c.label ?? String(c.value))));
    const read = () => {
      const c = (st.choices || []).find((x) => String(x.value) === el.value);
      return !c || c.value === def ? undefined : c.value;
    };
    return [[h("label", {for: id}, st.label), el], read];
  }
  if (st.type === "counts") {
    const fields = (st.keys || []).map((k) => [k.key, numField(`${st.label}: ${k.label}`,
      (def || {})[k.key] ?? 0, {min: st.min ?? 0, max: st.max})]);
    const grid = h("div", {class: "counts"}, ...fields.flatMap(([key, el], i) =>
      [h("span", {}, st.keys[i].label), el]));
    const read = () => {
      const out = {};
      for (const [key, el] of fields) {
        const n = whole(el, el.getAttribute("aria-label"));
        if (n !== (def || {})[key]) out[key] = n;
      }
      return Object.keys(out).length ? out : undefined;
    };
    return [[h("details", {class: "sub", id}, h("summary", {}, st.label), grid)], read];
  }
  if (st.type === "json") {
    const text = JSON.stringify(def ?? null);
    const el = h("textarea", {id, spellcheck: "false", class: "code"},
      JSON.stringify(def ?? null, null, 1));
    const read = () => {
      let v;
      try { v = JSON.parse(el.value); } catch (e) { throw new Error(`${st.label}: not valid JSON.`); }
      if (JSON.stringify(v) === text) return undefined;
      if (!isObj(v) || !isObj(def)) return v;
      const out = {};  // only the entries that changed
      for (const [k, x] of Object.entries(v)) if (JSON.stringify(x) !== JSON.stringify(def[k])) out[k] = x;
      return Object.keys(out).length ? out : undefined;
    };
    return [[h("label", {for: id}, st.label), el], read];
  }
  const el = h("input", {id, type: "text", value: def ?? "", maxlength: st.max});
  return [[h("label", {for: id}, st.label), el],
    () => (el.value.trim() === String(def ?? "") ? undefined : el.value.trim())];
}

/* the board's correctable data: a row per ownable space, tax amounts, card texts per deck */
function boardEditor(b, unverified) {
  const unv = new Set(b.unverified || []);
  const dec = b.currency ? b.currency.decimals : 0;
  const cents = dec ? h("p", {class: "muted hint"}, `Amounts in hundredths: ${b.currency.symbol}`
    + `${(750 / 10 ** dec).toFixed(dec)} is ${750}.`) : "";
  const rows = [];  // [kind, id, field, input, default]
  const input = (kind, id, field, value, label) => {
    const el = field === "name" ? h("input", {type: "text", maxlength: 40, value, "aria-label": label})
      : numField(label, value, {max: 1000000});
    el.dataset[kind] = id; el.dataset.field = field;
    if (unv.has(field)) el.classList.add("unv");
    rows.push([kind, id, field, el, value]);
    return el;
  };
  const cols = ["name", "price", "rent"].filter((f) => (b.fields || []).includes(f));
  const spaces = h("div", {class: "sp-grid", role: "group", "aria-label": "Spaces"},
    h("div", {class: `sp head c${cols.length}`, "aria-hidden": "true"},
      ...cols.map((f) => h("span", {}, humanize(f)))));
  for (const sp of b.spaces || []) {
    const row = h("div", {class: `sp c${cols.length}`, title: sp.color_name || sp.color || ""},
      ...cols.map((f) => input("space", sp.id, f, sp[f], `${humanize(f)} of ${sp.name}`)));
    const c = String(sp.color || "").replace(/-/g, "");  // "light-blue" -> "lightblue"
    if (/^[a-z]{3,20}$/.test(c) && CSS.supports("color", c)) row.style.setProperty("--c", c);
    spaces.append(row);
  }
  const taxes = (b.taxes || []).map((t) => h("div", {class: "sp tax"},
    h("span", {}, t.name), input("space", t.id, "amount", t.amount, `Amount of ${t.name}`)));
  const decks = {};
  for (const c of b.cards || []) (decks[c.deck] = decks[c.deck] || {title: c.deck_title || c.deck, cards: []}).cards.push(c);
  const deckViews = Object.values(decks).map((d) => h("details", {class: "sub"},
    h("summary", {}, `${d.title} (${d.cards.length} cards)`),
    ...d.cards.map((c, i) => {
      const el = h("textarea", {maxlength: 200, rows: 2, "aria-label": `${d.title} card ${i + 1}`,
        class: unv.has("text") ? "unv" : null}, c.text);
      el.dataset.card = c.id;
      rows.push(["card", c.id, "text", el, c.text]);
      return el;
    })));
  const anyUnv = unv.size > 0;
  const box = h("details", {id: "setup-board"},
    h("summary", {}, anyUnv ? "Board and cards (unverified defaults)" : "Board and cards"),
    unverified.length ? h("p", {class: "muted hint"}, "Not printed in the rulebook, shipped as "
      + `defaults: ${unverified.join("; ")}. Dashed fields are such defaults: correct them from `
      + "your box. Only changes are sent.") : h("p", {class: "muted hint"}, "Only changes are sent."),
    cents, cols.length ? spaces : "", taxes.length ? h("h3", {}, "Taxes") : "", ...taxes,
    deckViews.length ? h("h3", {}, "Cards") : "", ...deckViews);
  const read = () => {
    const out = {};
    for (const [kind, id, field, el, def] of rows) {
      let v;
      if (el.type === "number") {
        v = whole(el, el.getAttribute("aria-label"));
      } else {
        v = el.value.trim();
        if (!v) { el.focus(); throw new Error(`${el.getAttribute("aria-label")} cannot be empty.`); }
      }
      if (v === def) continue;
      const group = (out[kind === "card" ? "cards" : "spaces"] = out[kind === "card" ? "cards" : "spaces"] || {});
      (group[id] = group[id] || {})[field] = v;
    }
    return Object.keys(out).length ? out : undefined;
  };
  return [box, read];
}

function setupForm() {
  if (S.setupEl) return S.setupEl;  // kept across re-renders: a half-filled form survives updates
  const ed = h("select", {id: "setup-edition"});
  const players = h("textarea", {id: "setup-players", rows: 3, autocomplete: "off",
    placeholder: "One name per line"});
  const tokenBox = h("div", {id: "setup-tokens", "aria-live": "polite"});
  const dice = h("select", {id: "setup-dice"}, h("option", {value: "digital"}, "Digital dice"),
    h("option", {value: "physical"}, "Physical dice (enter values)"));
  const seed = h("input", {id: "setup-seed", type: "number", inputmode: "numeric",
    value: Math.floor(Math.random() * 1e6)});
  const editionBox = h("div", {id: "setup-edition-box"});
  const settings = h("textarea", {id: "setup-settings", spellcheck: "false", class: "code",
    placeholder: '{"board": {"spaces": {"id": {"price": 2}}, "cards": {"id": {"text": "..."}}}}'});
  const advancedBox = h("div");
  let info = null, readers = [], boardRead = () => undefined, pending = null;
  const chosen = {};  // player name -> token
  const names = () => players.value.split("\n").map((l) => l.trim()).filter(Boolean)
    .map((l) => { const [name, token] = l.split(":").map((x) => x.trim()); return {name, token}; });
  const drawTokens = () => {
    const tokens = info ? info.tokens : [];
    const ps = names();
    if (!ps.length) { tokenBox.replaceChildren(); return; }
    if (!tokens.length) {
      tokenBox.replaceChildren(h("p", {class: "muted hint"}, "Tokens: tap each player's token "
        + "on the reader when the game asks."));
      return;
    }
    const used = new Set(ps.map((p) => chosen[p.name]).filter(Boolean));
    tokenBox.replaceChildren(...ps.map((p, i) => {
      if (p.token && tokens.includes(p.token)) chosen[p.name] = p.token;
      if (!(p.name in chosen)) {
        chosen[p.name] = tokens.find((t) => !used.has(t)) || "";
        used.add(chosen[p.name]);
      }
      const id = `setup-token-${i}`;
      const sel = h("select", {id, "data-player": p.name}, h("option", {value: ""}, "No token"),
        ...tokens.map((t) => h("option", {value: t, selected: chosen[p.name] === t}, t)));
      sel.addEventListener("change", () => { chosen[p.name] = sel.value; });
      return h("div", {class: "token-row"}, h("label", {for: id}, `Token for ${p.name}`), sel);
    }));
  };
  players.addEventListener("input", drawTokens);
  // Tap tokens on the reader: each enrolled token tapped goes to the next player in the list.
  let tapTimer = null;
  const tapStatus = h("p", {class: "muted hint", "aria-live": "polite"});
  const tapButton = h("button", {type: "button", id: "setup-tap-tokens"}, "Tap tokens on the reader");
  const stopTaps = (text) => {
    clearInterval(tapTimer); tapTimer = null;
    tapButton.textContent = "Tap tokens on the reader"; tapStatus.textContent = text || "";
  };
  tapButton.addEventListener("click", () => act(async () => {
    if (tapTimer) { stopTaps(); return; }
    const ps = names();
    if (!ps.length || !info || !info.tokens.length) throw new Error("Name the players first.");
    let next = 0, seen = (await api("GET", "/api/tags/last")).tap;
    seen = seen ? seen.n : 0;
    tapStatus.textContent = `${ps[0].name}: tap your token.`;
    tapButton.textContent = "Stop";
    tapTimer = setInterval(async () => {
      let tap;
      try { tap = (await api("GET", "/api/tags/last")).tap; } catch (e) { stopTaps(e.message); return; }
      if (!tap || tap.n <= seen) return;
      seen = tap.n;
      const token = tap.edition === ed.value && tap.object && tap.object.startsWith("token:")
        ? tap.object.slice(6) : null;
      if (!token || !info.tokens.includes(token)) {
        tapStatus.textContent = "That tag is not one of this edition's tokens; tap a token.";
        return;
      }
      chosen[ps[next].name] = token; drawTokens(); next += 1;
      if (next >= ps.length) stopTaps("Every player has a token.");
      else tapStatus.textContent = `${ps[next].name}: tap your token.`;
    }, 700);
  }));
  const load = () => {
    info = null; readers = []; boardRead = () => undefined;
    editionBox.replaceChildren(h("p", {class: "muted"}, "Loading the edition…"));
    advancedBox.replaceChildren();
    if (!ed.value) return;
    const name = ed.value;
    pending = editionInfo(name).then((r) => {
      if (ed.value !== name) return;
      info = r.setup;
      const simple = [], advanced = [];
      for (const st of info.settings) {
        const [els, read] = settingField(st);
        readers.push([st.name, read]);
        (st.advanced ? advanced : simple).push(...els);
      }
      const kids = [...simple];
      if (info.board) {
        const [box, read] = boardEditor(info.board, info.unverified || []);
        boardRead = read; kids.push(box);
      } else if ((info.unverified || []).length) {
        kids.push(h("p", {class: "muted hint"}, "Not printed in the rulebook, shipped as defaults: "
          + `${info.unverified.join("; ")}. Correct them above.`));
      }
      editionBox.replaceChildren(...kids);
      advancedBox.replaceChildren(...advanced);
      drawTokens();
    }).catch((e) => editionBox.replaceChildren(h("p", {}, e.message)));
  };
  ed.addEventListener("change", load);
  api("GET", "/api/editions").then((list) => {
    ed.replaceChildren(...list.map((e) => h("option", {value: e.name}, e.title)));
    load();
  }).catch(() => {});
  const start = () => act(async () => {
    if (!info && pending) await pending;
    if (!info) throw new Error("Choose an edition first.");
    let form = {};
    for (const [name, read] of readers) {
      const v = read();
      if (v !== undefined) form[name] = v;
    }
    const board = boardRead();
    if (board) form.board = board;
    if (settings.value.trim()) {
      let extra;
      try { extra = JSON.parse(settings.value); } catch (e) { throw new Error("Advanced settings must be JSON."); }
      if (!isObj(extra)) throw new Error("Advanced settings must be a JSON object.");
      form = merge(form, extra);
    }
    const ps = names().map((p) => ({name: p.name,
      token: info.tokens.length ? chosen[p.name] || "" : p.token || ""}));
    const tokens = ps.map((p) => p.token).filter(Boolean);
    if (new Set(tokens).size < tokens.length) throw new Error("Two players have the same token.");
    const r = await api("POST", "/api/games", {edition: ed.value, players: ps, dice: dice.value,
      seed: Number(seed.value) || 0, settings: form});
    S.setupEl = null;
    toast("Game started.", true); await loadSession(); openGame(r.game_id, "banker");
  });
  S.setupEl = h("details", {id: "setup"}, h("summary", {}, "New game"),
    h("label", {for: "setup-edition"}, "Edition"), ed,
    h("label", {for: "setup-players"}, "Players, one name per line"), players, tokenBox,
    h("div", {class: "row"}, tapButton), tapStatus,
    h("label", {for: "setup-dice"}, "Dice"), dice, editionBox,
    h("label", {for: "setup-seed"}, "Seed (shuffles and digital dice)"), seed,
    h("details", {class: "sub"}, h("summary", {}, "Advanced"), advancedBox,
      h("label", {for: "setup-settings"}, "More settings and corrections (JSON, merged in)"), settings),
    h("button", {class: "primary", onclick: start}, "Start the game"));
  return S.setupEl;
}

/* ---- start ---- */
function openGame(id, tab) {
  if (S.game !== id) { S.view = null; S.seen = -1; S.history = null; S.balances = null; }
  S.game = id; S.tab = tab || "table";
  history.replaceState(null, "", `/?game=${encodeURIComponent(id)}`);
  render(); loadView(); connect();
}
async function main() {
  const q = new URLSearchParams(location.search);
  S.code = q.get("code") || "";
  try { await loadSession(); } catch (e) { toast(e.message); return; }
  const joined = Object.keys(S.session.games);
  const wanted = q.get("game");
  if (S.code) { S.game = null; render(); return; }
  if (wanted && (joined.includes(wanted) || banker())) openGame(wanted);
  else if (joined.length) openGame(joined[joined.length - 1]);
  else render();
}
main();
