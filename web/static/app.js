/* Board Companion phone page. Renders the VIEW (docs/contracts.md) for game night: at a glance,
   in words, each edition drawn as itself. Game data goes into the DOM as text, never HTML. */
"use strict";
/* the page's own words: tr(), trn(), trNodes() (web/static/i18n.js) */
const S = {session: null, game: null, view: null, es: null, seen: -1, tab: "table",
  fetched: {}, retry: null, seat: null, confirm: null, wake: null, wholeLine: null,
  sending: 0, held: [], heldNews: [], own: [], ownVersion: 0, prefs: loadPrefs()};
/* seat colours, AA against white text and as frames on both themes; no red, which is the
   board's GAME OVER outline */
const COLORS = ["#1565c0", "#2e7d32", "#ad5700", "#6a1b9a", "#00796b", "#5d4037", "#ad1457",
  "#37474f"];
/* a token that has a colour (the view's player.colour, from the edition's data) is drawn in it */
const TOKEN_COLORS = {green: "#2e7d32", orange: "#c25400", blue: "#1565c0", yellow: "#8a6d00",
  pink: "#c2185b", beige: "#8d6e63", red: "#c62828", purple: "#6a1b9a", black: "#37474f",
  white: "#78909c"};
const SVGNS = "http://www.w3.org/2000/svg";
const DANGER = new Set(["end_game", "declare_bankruptcy"]);
const OFFER = new Set(["accept_trade", "decline_trade", "cancel_trade"]);

/* ---- DOM helpers (text only) ---- */
function s(tag, attrs, ...kids) {
  const el = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs || {})) el.setAttribute(k, String(v));
  for (const kid of kids) if (kid) el.append(kid instanceof Node ? kid : String(kid));
  return el;
}
const humanize = (k) => String(k).replace(/[_-]+/g, " ").replace(/^./, (c) => c.toUpperCase());
function randomKey() {
  const a = new Uint8Array(12); crypto.getRandomValues(a);
  return Array.from(a, (b) => b.toString(16).padStart(2, "0")).join("");
}
function toast(text, info) {
  const t = $("toast"); t.textContent = text; t.className = info ? "info" : ""; t.hidden = false;
  toast.error = !info;
  (window.__toasts = window.__toasts || []).push(text);  /* what this phone said, in order */
  if (!info) (window.__refused = window.__refused || []).push(text);  /* and what it refused */
  clearTimeout(toast.timer); toast.timer = setTimeout(hideToast, info ? 3500 : 6000);
  placeToast();
}
/* the toast stands at the bottom of the screen, or at the top when it would cover a control
   of the moves it announces (a card grid, a form); again after a redraw or a scroll */
function placeToast() {
  const t = $("toast");
  if (t.hidden) return;
  const covered = () => {
    const r = t.getBoundingClientRect();
    let n = 0;
    for (const el of document.querySelectorAll(".action button, .action input, .draw-grid input")) {
      const b = el.getBoundingClientRect();
      if (b.width && b.left < r.right && r.left < b.right && b.top < r.bottom && r.top < b.bottom) n += 1;
    }
    return n;
  };
  t.classList.remove("top");
  const below = covered();
  if (!below) return;
  t.classList.add("top");
  if (covered() >= below) t.classList.remove("top");
}
addEventListener("scroll", () => { if (!placeToast.busy) { placeToast.busy = true;
  requestAnimationFrame(() => { placeToast.busy = false; placeToast(); }); } }, {passive: true});
function hideToast() { $("toast").hidden = true; toast.error = false; }
function safeColor(c) {
  return typeof c === "string" && /^(#[0-9a-f]{3,8}|[a-z]{3,20})$/i.test(c) ? c : "transparent";
}

/* ---- preferences: theme, large text, sound (kept on this phone) ---- */
function loadPrefs() {
  try { return Object.assign({theme: "auto", big: false, sound: true},
    JSON.parse(localStorage.getItem("companion.prefs") || "{}")); } catch (e) {
    return {theme: "auto", big: false, sound: true};
  }
}
function applyPrefs() {
  const r = document.documentElement;
  if (S.prefs.theme === "auto") delete r.dataset.theme; else r.dataset.theme = S.prefs.theme;
  r.classList.toggle("big", !!S.prefs.big);
  try { localStorage.setItem("companion.prefs", JSON.stringify(S.prefs)); } catch (e) { /* private */ }
}

/* ---- words: amounts, odds, names ---- */
function money(n) {
  const c = S.view && S.view.currency;
  if (n === null || n === undefined) return "";
  if (!c) return I18n.number(n, 0);
  return I18n.money({money: n, cur: c});  /* each reader's digits: €7.50, €7,50 */
}
/* an amount the view gives as a number (and as English text beside it): the reader's digits */
function amountText(n, text) {
  if (typeof n === "number" && S.view && S.view.currency) return money(n);
  return I18n.text(text) || (n === null || n === undefined ? "" : money(n));
}
/* engine texts with raw odds ("16383/16384 (>99.9%, 14 rolls)") into words */
function words(text) {
  const groups = assetKinds().flatMap((k) => Object.keys(groupNames(k))).join("|");
  return String(text ?? "")
    .replace(groups ? new RegExp(` \\((?:${groups})-\\d+\\)`, "g") : /$^/, "")  /* "(ice-1)" */
    .replace(/(\d+)\/(\d+) \(([<>]?\d+(?:\.\d+)?)%(?:, (\d+) rolls?)?\)/g, (m, a, b, _p, r) =>
      I18n.chance(Number(a), Number(b)) + (r ? " " + trn("within {n} roll", "within {n} rolls", Number(r))
        : ""))
    .replace(/\b(\d+) in (\d+) \((\d+(?:\.\d+)?)%\)/g, (m, a, b) => tr("{n} in {total}, {chance}",
      {n: Number(a), total: Number(b), chance: I18n.chance(Number(a), Number(b))}));
}
async function api(method, path, body) {
  /* the phone's language (its choice, else its browser's): refusals come back in it */
  const opts = {method, headers: {Accept: "application/json", "Accept-Language": I18n.wanted()},
                credentials: "same-origin"};
  if (method !== "GET") {
    opts.headers["Content-Type"] = "application/json";
    opts.headers["X-CSRF-Token"] = S.session ? S.session.csrf : "";
    opts.body = JSON.stringify(body || {});
  }
  let resp;
  try { resp = await fetch(path, opts); } catch (e) {
    throw new Error(tr("The companion cannot be reached; check the Wi-Fi."));
  }
  const data = await resp.json().catch(() => ({}));
  if (!resp.ok || data.ok === false) {
    const err = new Error(I18n.text(data.error) || tr("Refused ({status}).", {status: String(resp.status)}));
    err.code = data.code; err.status = resp.status; throw err;
  }
  return data;
}
/* run an API call: a refusal toasts its words; a success clears an old error toast */
async function act(fn) {
  try {
    const out = await fn();
    if (toast.error) hideToast();
    return out;
  } catch (e) {
    toast(e.message);
    if (e.code === "stale" || e.code === "illegal") await loadView();
    if (e.code === "csrf") await loadSession();
    if (e.code === "forbidden" && S.game) await checkSeat();
    return null;
  }
}

/* ---- who am I ---- */
async function loadSession() { S.session = await api("GET", "/api/session"); }
const banker = () => !!(S.session && S.session.banker);
const me = () => (S.session && S.game ? S.session.games[S.game] || null : null);
const gid = () => encodeURIComponent(S.game);
function mayAct(actor) { return banker() || (me() !== null && actor === me()); }
function player(id) { return S.view && S.view.players.find((x) => x.id === id); }
function playerName(id) {
  if (id === "banker") return tr("Banker");
  if (id === "bank" || id === null || id === undefined) return tr("the Bank");
  const p = player(id);
  return p ? p.name : tr("a player");
}
function seatIndex(id) {
  const order = (S.seat && S.seat.order) || (S.view ? S.view.players.map((p) => p.id).sort() : []);
  return order.indexOf(id);
}
function playerColor(id) {
  const p = player(id), colour = p && p.colour;
  if (colour && TOKEN_COLORS[colour]) return TOKEN_COLORS[colour];
  const i = seatIndex(id);
  return i < 0 ? "#6b675f" : COLORS[i % COLORS.length];
}
function spaceName(i) {
  const b = S.view && S.view.board;
  const sp = b && b.spaces.find((x) => x.index === i || x.id === i);
  return sp ? sp.name : tr("a space");
}
/* the edition's own things to trade beyond money, spaces and cards (view.page.assets:
   {kind, label, item, groups?}); an item "rock-1" is named by its group, "rock", whose names
   are in view.extra under the key its declaration gives (groups) */
const assetKinds = () => ((S.view && S.view.page && S.view.page.assets) || []);
function groupNames(k) {
  return (k.groups && S.view && S.view.extra && S.view.extra[k.groups]) || {};
}
function assetName(kind, item) {
  const k = assetKinds().find((x) => x.kind === kind);
  if (!k || !k.item) return humanize(item);
  const group = String(item).replace(/-\d+$/, "");
  return I18n.t(k.item, {type: groupNames(k)[group] || humanize(group)});
}
function dot(id) {
  const el = h("span", {class: "pdot", "aria-hidden": "true"});
  el.style.setProperty("--c", playerColor(id));
  return el;
}

/* ---- live updates ---- */
function connect() {
  if (S.es) S.es.close();
  clearTimeout(S.retry);
  const es = new EventSource(`/api/games/${gid()}/events?live=patch`);
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
  const said = on ? tr("live") : tr("reconnecting");
  d.setAttribute("aria-label", said); d.title = said;
}
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState !== "visible" || !S.game) return;
  if (!S.es || S.es.readyState === EventSource.CLOSED) connect();
  keepAwake();
});
function keepAwake() {  /* the screen stays on while a game is open (web/static/awake.js) */
  if (S.game && document.visibilityState === "visible") Awake.on();
}
/* a tap lets the phone keep its screen on and sound the turn chime later */
document.addEventListener("pointerdown", () => {
  keepAwake();
  if (S.prefs.sound) Awake.unlockAudio();
}, true);
/* the finger lifts: once its click has run, an element kept under it is drawn fresh (keep.js) */
for (const kind of ["pointerup", "pointercancel"]) {
  document.addEventListener(kind, () => setTimeout(() => { if (Keep.release()) render(); }, 0), true);
}
async function loadView() {
  if (!S.game) return;
  const v = await api("GET", `/api/games/${gid()}`).catch(() => null);
  if (v) showView(v);
}
/* seat order and requests; draws again only when they changed */
async function loadSeat(draw) {
  if (!S.game) return;
  const r = await api("GET", `/seat/${gid()}`).catch(() => null);
  if (!r) return;
  const changed = JSON.stringify(r) !== JSON.stringify(S.seat);
  const asked = ((S.seat && S.seat.asking) || []).map((a) => a.player);
  const still = (r.asking || []).map((a) => a.player);
  S.seat = r;
  for (const pid of asked) {  /* the banker said no (a yes comes back as granted) */
    if (!still.includes(pid) && r.granted !== pid) {
      toast(tr("The banker did not let this phone play {player}.", {player: playerName(pid)}));
      /* asked again, while the rows stay drawn: an open panel and a typed key stay */
      if (S.fetched.seats) S.fetched.seats = Object.assign({}, S.fetched.seats, {stamp: "", busy: false});
    }
  }
  if (draw && changed && S.view) render();
  if (r.granted) {
    if (r.key) S.newKey = {game: S.game, player: r.granted, key: r.key};
    await loadSession(); seatChanged(); toast(tr("This phone plays {player} again.", {player: playerName(r.granted)}), true);
  }
}
/* the seat this phone held was taken over by another phone (a seat key, the banker): it
   becomes what it now is at once, a spectator, and says so */
async function checkSeat() {
  const was = me();
  const now = await api("GET", "/api/session").catch(() => null);
  if (!now) return;
  S.session = now;
  if (me() === was) return;
  seatChanged(); render();
  if (was && !me()) toast(tr("{player} is played on another phone now; this phone watches.",
    {player: playerName(was)}));
}
/* this phone is someone else now: views (and secrets in them) follow the new seat */
function seatChanged() { S.seen = -1; connect(); loadView(); }
function newLines(old, now) {  /* log lines that arrived since the previous view */
  if (!old) return [];
  const a = old.map(logText), b = now.map(logText);
  for (let k = Math.min(a.length, b.length); k > 0; k -= 1) {
    if (a.slice(a.length - k).join("\n") === b.slice(0, k).join("\n")) return b.slice(k);
  }
  return [];  /* no overlap: the log went back (an undo), nothing in it is news */
}
function showView(raw) {
  const v = I18n.localize(raw);  /* messages in this phone's language (web/static/i18n.js) */
  if (S.view && v.version < S.view.version) return;
  S.raw = raw;
  const before = S.view;
  const moved = !before || before.version !== v.version;
  const json = JSON.stringify(v);
  if (!moved && json === S.viewJson) return;  /* the same view again (the stream's first frame) */
  S.view = v; S.viewJson = json; window.__version = v.version;
  if (moved) {  /* a dialog stays open while its move is still there */
    if (S.confirm && !S.confirm.startsWith("undo:") && !(v.actions || []).some(
      (a) => `${a.actor}:${a.type}` === S.confirm)) S.confirm = null;
  }
  if (moved && before) notify(before, v);
  if (moved && before && window.ReadAloud) ReadAloud.say(heard(before, v));
  if (S.seat && moved && banker()) loadSeat(true);
  if (!S.seatPending) render();
}

/* what happened since ``before`` as this phone reads it, to be read aloud (aloud.js): the new
   lines (one an old game stored as English, in English), then "Your turn" */
function heard(before, v) {
  const count = newLines(before.log || [], v.log || []).length;
  const raw = count ? ((S.raw && S.raw.log) || []).slice(-count) : [];
  const lines = count ? (v.log || []).slice(-count).map((e, i) => ({text: words(logText(e)),
    lang: typeof raw[i] === "string" ? "en" : I18n.lang()})) : [];
  if (myTurn(v) && !myTurn(before)) lines.push({text: tr("Your turn: {prompt}", {prompt: words(v.prompt.text)})});
  return lines;
}

/* ---- your turn, and what hits you ---- */
function myTurn(v) { return !!(me() && v.prompt && (v.prompt.to || []).includes(me())); }
function notify(before, v) {
  const mine = me();
  if (!mine) return;
  if (myTurn(v) && !myTurn(before)) {  /* felt, heard, seen (iPhones cannot vibrate) */
    if (navigator.vibrate) navigator.vibrate([180, 90, 180]);
    if (S.prefs.sound) { Awake.chime(); window.__chimes = (window.__chimes || 0) + 1; }
    S.flash = true; clearTimeout(S.flashTimer);
    S.flashTimer = setTimeout(() => { S.flash = false; const g = document.querySelector(".glance");
      if (g) g.classList.remove("flash"); }, 2500);
    $("announce").textContent = tr("Your turn: {prompt}", {prompt: words(v.prompt.text)});
  }
  const count = newLines(before.log || [], v.log || []).length;
  /* the new lines as the companion sent them (messages as data, each with its English say) */
  const fresh = count ? ((S.raw && S.raw.log) || v.log || []).slice(-count) : [];
  /* a move taken back (its event, "undone"): that is the news, not the older lines the log
     shows again */
  if (lineEvents(v, 1)[0] === "undone") {
    toast(words(logText((v.log || []).slice(-1)[0])), true); return;
  }
  const declined = [], kinds = lineEvents(v, count);
  for (const t of before.trades || []) {  /* your offer turned down */
    const to = playerName(t.to);
    /* closed (its event) by the one it was offered to, who did not take it: a line that names
       them and not you (taking it names you both; withdrawing it is your own) */
    if (t.proposer === mine && !(v.trades || []).some((x) => x.id === t.id)
        && fresh.some((x, i) => kinds[i] === "trade_closed" && names(message(x), to)
          && !names(message(x), playerName(mine)))) {
      declined.push(tr("{player} declined your trade.", {player: to}));
    }
  }
  for (const t of v.trades || []) {  /* a trade offered to you (by the view's data) */
    if (t.to === mine && !(before.trades || []).some((x) => x.id === t.id)) {
      declined.push(tr("{player} offers you a trade: see Offers.", {player: playerName(t.proposer)}));
    }
  }
  /* this phone's own move is on its way: its answer tells its lines, and then the rest */
  if (S.sending) { S.held.push(...fresh); S.heldNews.push(...declined); return; }
  const text = news(unsaid(fresh), declined);
  if (v.version >= S.ownVersion) S.own.length = 0;  /* every answered line is in the log now */
  if (text) { toast(text, true); if (navigator.vibrate) navigator.vibrate(120); }
}
/* a log line as itself (its message and arguments, or an old line's text): how a line told
   already is known again */
function lineKey(e) {
  const sorted = (x) => (Array.isArray(x) ? x.map(sorted) : x && typeof x === "object"
    ? Object.keys(x).sort().filter((k) => k !== "say").map((k) => [k, sorted(x[k])]) : x);
  return e && typeof e === "object" ? JSON.stringify(sorted(e)) : String(e ?? "");
}
/* the event types of the view's last ``count`` lines (view.log_events, beside view.log) */
const lineEvents = (v, count) => (count ? (v.log_events || []).slice(-count) : []);
/* lines an answer to this phone's own move has told already (each once) */
function unsaid(lines) {
  return lines.filter((e) => {
    const i = S.own.indexOf(lineKey(e));
    if (i >= 0) S.own.splice(i, 1);
    return i < 0;
  });
}
/* the lines that hit this player, and ``extra`` news, in the second person ("" when none):
   a line hits the reader when its message names them (its arguments, never its English) */
function news(lines, extra) {
  const mine = me();
  if (!mine) return "";
  const name = playerName(mine);
  const hits = lines.filter((e) => names(message(e), name));
  const text = [...hits.map((e) => yours(e, name)), ...extra].join(" ");
  if (text) (window.__hits = window.__hits || []).push(text);
  return text;
}
/* a log line's message (one whose only argument is a message, a payment's reason: that
   message), or null for an old line's text */
function message(e) {
  const m = e && typeof e === "object" && e.msg ? e : null;
  const args = Object.values((m && m.args) || {});
  return args.length === 1 && args[0] && typeof args[0] === "object" && args[0].msg ? args[0] : m;
}
/* whether message ``m`` names player ``name`` among the people it speaks of */
const ROLES = ["player", "other", "owner", "to", "from", "winner", "loser", "partner"];
function names(m, name) {
  if (!m || !name) return false;
  const a = m.args || {};
  return ROLES.some((r) => a[r] === name || (Array.isArray(a[r]) && a[r].includes(name)))
    || Object.values(a).some((v) => v && typeof v === "object" && v.msg && names(v, name));
}
/* a log line (a message as data, or text) in this phone's words; when it speaks of ``name``,
   the reader, and has a second-person message of its own, that one (translated like any
   other); else the line as the log says it */
function yours(e, name) {
  const m = message(e), a = (m && m.args) || {};
  const you = name && m ? (a.player === name && secondPerson("you_say", YOU_SAY, m.msg))
    || (a.player !== name && [a.other, a.owner, a.to].includes(name)
      && secondPerson("you_hear", YOU_HEAR, m.msg)) : null;
  if (you) return words(you(a));
  return words(I18n.text(e));
}
/* message ``msg`` said to its reader: the page's own (the Monopoly family's), else the one its
   edition declares (view.page.you_say / you_hear, message ids the catalogue translates) */
function secondPerson(key, own, msg) {
  if (own[msg]) return own[msg];
  const id = ((S.view && S.view.page && S.view.page[key]) || {})[msg];
  return id ? (a) => I18n.t(id, a) : null;
}
/* the log's messages whose subject is the reader, said to them (whole sentences, translated;
   a payment's reason, "Card: {player} pays {other} {amount}", is a sentence once said) */
const YOU_SAY = {
  "Doubles! {player} will roll again.": (a) => tr("Doubles! You will roll again.", a),
  "{player} moves {n} to {space}.": (a) => tr("You move {n} to {space}.", a),
  "{player} moves to {space}.": (a) => tr("You move to {space}.", a),
  "{player} goes back {n} to {space}.": (a) => tr("You go back {n} to {space}.", a),
  "{player} lands on {space}: collects {amount}.": (a) => tr("You land on {space} and collect {amount}.", a),
  "{player} passes {space}: collects {amount}.": (a) => tr("You pass {space} and collect {amount}.", a),
  "{player} buys {space} for {amount}.": (a) => tr("You buy {space} for {amount}.", a),
  "{player} pays {owner} {amount} for {space} ({rule})": (a) => tr("You pay {owner} {amount} for {space} ({rule}).", a),
  "{player} pays the Jail fine of {amount}": (a) => tr("You pay the Jail fine of {amount}.", a),
  "{player} leaves Jail.": (a) => tr("You leave Jail.", a),
  "{player} draws {deck}: “{card}”": (a) => tr("You draw {deck}: “{card}”", a),
  "{player} keeps the card for later.": (a) => tr("You keep the card for later.", a),
  "Card: {player} collects {amount}.": (a) => tr("You collect {amount}.", a),
  "Card: {player} goes straight to Jail.": (a) => tr("You go straight to Jail.", a),
  "Card: {player} pays {other} {amount}": (a) => tr("You pay {other} {amount}.", a),
  "{player} bids {amount}.": (a) => tr("You bid {amount}.", a),
  "{player} passes.": (a) => tr("You pass.", a),
  "{player} is bankrupt: everything goes to the Bank.": (a) => tr("You are bankrupt: everything goes to the Bank.", a),
  "{player} is bankrupt: everything goes to {other}.": (a) => tr("You are bankrupt: everything goes to {other}.", a),
  "{player} rolled {n}.": (a) => tr("You rolled {n}.", a),
  "Card: {player} pays {amount}": (a) => tr("You pay {amount}.", a),
  "{why}: {player} pays {amount}.": (a) => tr("{why}: you pay {amount}.", a),
};
/* ... and those that speak of the reader as the one paid */
const YOU_HEAR = {
  "Card: {player} pays {other} {amount}": (a) => tr("{player} pays you {amount}.", a),
  "{player} pays {owner} {amount} for {space} ({rule})": (a) => tr("{player} pays you {amount} for {space} ({rule}).", a),
};
/* a move of this phone's answered (``outs``: its answers; none when refused): its lines in one
   toast, then what the others did while it was on its way */
function answered(outs, actor) {
  const lines = outs.flatMap((o) => (o ? o.said || o.says || [] : []));
  const mine = actor === me() ? playerName(me()) : null;  /* your own news: "you" */
  S.own.push(...lines.map(lineKey));
  S.ownVersion = Math.max(S.ownVersion, ...outs.map((o) => (o && o.version) || 0));
  let text = lines.map((e) => yours(e, mine)).join(" ");
  if (!S.sending) {
    const held = unsaid(S.held.splice(0)), extra = S.heldNews.splice(0);
    const others = news(held, extra);
    if (others) text = text ? `${text} ${others}` : others;
    if (S.view && S.view.version >= S.ownVersion) S.own.length = 0;
  }
  if (text) toast(text, true);
}
/* ---- commands ---- */
/* an action's block is the same block while the action asks the same (its kind of input,
   dice count, label): a two-dice roll and a one-die roll are not */
function actionKey(a) {
  const i = a.input || {};
  return `act:${a.actor}:${a.type}:${JSON.stringify(a.args || {})}:${a.label}:${i.kind || ""}:`
    + `${i.count || ""}:${i.physical ? 1 : 0}`;
}
/* the action's block, as it is now (to be reset once its answer has come: Keep.sending) */
const blockOf = (a) => document.querySelector(`[data-keep="${CSS.escape(actionKey(a))}"]`);
function send(action, extra) {
  const args = Object.assign({}, action.args || {}, extra || {});
  const sent = Keep.sending(blockOf(action));
  return act(async () => {
    S.sending += 1;  /* its news is told once, by this answer (notify) */
    let out = null;
    try {
      out = await api("POST", `/api/games/${gid()}/commands`,
        {actor: action.actor, type: action.type, args, version: S.view.version, key: randomKey()});
    } finally {
      S.sending -= 1;
      if (!out) answered([], action.actor);  /* refused: the others' news is still told */
    }
    sent();  /* nothing left to keep, unless typed into again meanwhile */
    answered([out], action.actor);
  });
}

/* ---- lists a tab shows (seats, history, tags...): drawn at once from the last answer and
   asked again in the background after each move; a changed answer draws the page again, so
   nothing flashes "Loading…" or jumps under a reader's eye ---- */
function fetched(key, path) {
  const stamp = `${S.game}:${S.view ? S.view.version : ""}:${banker()}:${me()}`;
  const c = S.fetched[key];
  if (!c || (c.stamp !== stamp && !c.busy)) {
    S.fetched[key] = Object.assign({}, c || {}, {busy: true, stamp});
    const game = S.game;
    api("GET", path).then((data) => {
      if (S.game !== game) return;
      const json = JSON.stringify(data), was = S.fetched[key];
      S.fetched[key] = {stamp, data, json};
      if (!was || was.json !== json) render();
    }, (e) => {
      if (S.game !== game) return;
      S.fetched[key] = Object.assign({}, S.fetched[key], {busy: false, error: e.message});
      render();
    });
  }
  return S.fetched[key];
}
function loading(got) {
  return h("p", {class: "muted"}, got.error ? got.error : tr("Loading…"));
}

/* ---- rendering ---- */
function render() {
  const app = $("app"); app.setAttribute("aria-busy", "false");
  if (window.RulesAtHand) RulesAtHand.attach();  /* "Rules" in the bar (rules.js) */
  const who = $("who");
  who.textContent = banker() ? tr("Banker") : me() ? playerName(me()) : S.game ? tr("Watching") : "";
  if (me()) who.style.setProperty("--c", playerColor(me())); else who.style.removeProperty("--c");
  const focus = document.activeElement && document.activeElement.id;
  if (!S.game) { Keep.swap(app, joinScreen()); return; }
  if (!S.view) { Keep.swap(app, [h("p", {class: "muted"}, tr("Loading the game…"))]); return; }
  $("title").textContent = S.view.title || "Board Companion";
  /* the tab's title says it too, for a phone looking at another app */
  document.title = myTurn(S.view) ? `${tr("Your turn!")} · ${S.view.title || "Board Companion"}`
    : S.view.title || "Board Companion";
  document.body.dataset.edition = S.view.edition || "";
  const tabs = [["table", tr("Table")], ["history", tr("History")], ["chart", tr("Money")],
    banker() ? ["banker", tr("Banker")] : ["more", tr("Phone")]];
  const nav = h("nav", {class: "tabs", role: "tablist", "aria-label": tr("Pages")}, ...tabs.map(
    ([k, label]) => h("button", {role: "tab", id: `tab-${k}`, "aria-selected": String(S.tab === k),
      class: S.tab === k ? "sel" : "", onclick: () => { S.leaving = S.tab !== k; S.tab = k; render(); }}, label)));
  const body = {table: tableTab, chart: chartTab, history: historyTab, banker: bankerTab,
    more: moreTab}[S.tab] || tableTab;
  /* what a person composes or reads survives the update (web/static/keep.js) */
  Keep.swap(app, [nav, h("div", {role: "tabpanel", "aria-labelledby": `tab-${S.tab}`},
    ...body())], S.leaving);  /* a form left on another tab waits there (keep.js) */
  S.leaving = false;
  if (focus && $(focus) && document.activeElement !== $(focus)) $(focus).focus({preventScroll: true});
  placeToast();  /* what was drawn may lie under it now */
  if (window.__drawn === undefined) window.__drawn = performance.now();  /* first game drawn */
}

function tableTab() {
  const v = S.view;
  return [keyCard(), reclaimNotice(), glance(v), window.RulesAtHand ? RulesAtHand.firstGame(v) : null,
    v.finished ? storyAtEnd(v) : null,
    offers(v), actionsSection(v), auctionSection(v), editionSection(v),
    playersSection(v), reclaimNotice()].filter(Boolean);
}

/* ---- the end of a game: its story (web/static/story.js, fetched once opened; docs/history.md) ---- */
function storyAtEnd(v) {
  if (typeof storyPanel === "function") return storyPanel(v.game_id, v.version);
  return h("details", {class: "story", ontoggle: (e) => e.target.open && document.head.append(h("script", {
    src: "/static/story.js", onload: () => e.target.replaceWith(storyPanel(v.game_id, v.version, true))}))},
  h("summary", {}, tr("The story of the game")));
}

/* ---- at a glance: whose turn, what now, your balance, what just happened, the dice ---- */
function logText(e) { return typeof e === "string" ? e : String((e && (e.say || e.text)) || ""); }
function glance(v) {
  const sec = h("section", {class: "glance" + (myTurn(v) ? " mine" : "") + (myTurn(v) && S.flash
    ? " flash" : ""), "aria-label": tr("Now")});
  let head;
  if (v.finished) {
    const w = (v.winners || []).map(playerName);
    head = w.length ? trn("Game over: {players} wins!", "Game over: {players} win!", w.length,
      {players: w}) : tr("Game over");
  } else if (myTurn(v)) head = tr("Your turn!");
  else if (v.current) head = tr("{player}'s turn", {player: playerName(v.current)});
  else head = tr("Getting ready");
  sec.append(h("h2", {class: "turn"}, v.current && !v.finished ? dot(v.current) : "", head));
  if (v.finished && v.end_reason) sec.append(h("p", {class: "now"}, words(v.end_reason)));
  if (v.prompt && !v.finished) {
    const to = v.prompt.to || [];
    sec.append(h("p", {class: "now"}, words(v.prompt.text)));
    if (!to.some(mayAct) && to.length) {
      sec.append(h("p", {class: "muted"}, tr("Waiting for {players}.", {players: to.map(playerName)})));
    }
  }
  const p = player(me());
  if (p) {
    const big = amountText(p.money, p.money_text);
    if (big) sec.append(h("p", {class: "balance"}, h("span", {class: "muted"}, tr("You have") + " "),
      h("strong", {}, big)));
    else if (p.score) sec.append(h("p", {class: "balance"},  /* points towards a goal (view's score) */
      h("span", {class: "muted"}, p.score.label + " "),
      h("strong", {}, tr("{n} of {goal}", {n: p.score.points, goal: p.score.goal}))));
  }
  const roll = v.last_roll || [];
  /* the last lines said, each with its rule (view.log_cites, beside view.log) */
  const cites = v.log_cites || [];
  /* a line the log stored as English (an old game's, before messages): marked lang="en" */
  const raw = S.raw && S.raw.version === v.version ? S.raw.log || [] : [];
  /* each rule as the companion sent it (a message: its quote marked English, citeNodes) */
  const rawCites = S.raw && S.raw.version === v.version ? S.raw.log_cites || cites : cites;
  const log = (v.log || []).map((e, i) => ({...(typeof e === "string" ? {say: e} : e),
    cite: (e && e.cite) || rawCites[i] || cites[i], english: typeof raw[i] === "string"}))
    .slice(-4).reverse();
  if (log.length || roll.length) {
    const list = h("ul", {class: "happened", "aria-label": tr("What just happened")});
    /* the dice go beside the newest line of a player who rolled or moved by them (not
       Bowser's): its message names a player and counts the dice's total (its arguments) */
    const names = v.players.map((p) => p.name), total = roll.reduce((x, y) => x + y, 0);
    const raw = ((S.raw && S.raw.log) || []).slice(-4).reverse();
    const byDice = (m) => !!m && names.includes((m.args || {}).player)
      && ["n", "roll", "total"].some((k) => (m.args || {})[k] === total);
    const at = roll.length && raw.length === log.length
      ? raw.findIndex((e) => byDice(message(e))) : -1;
    for (const [i, e] of log.entries()) {
      const text = logText(e);
      /* a very long line (over about six lines) shows its first two (a note for the banker
         must not push the player's choice off the first screen); a tap reads it whole */
      const fold = text.length > 240 && S.wholeLine !== text;
      const said = h("span", {class: fold ? "said fold" : "said",
        lang: e.english ? "en" : null, onclick: () => {
          S.wholeLine = S.wholeLine === text ? null : text; render(); }}, words(text));
      const li = h("li", {}, said);
      if (i === at) li.prepend(dice(roll));
      if (e && e.cite) {
        const why = window.RulesAtHand ? RulesAtHand.why(e.cite)  /* with the readings in force */
          : h("span", {class: "cite", hidden: true}, ...citeNodes(e.cite));
        li.append(" ", h("button", {class: "link", "aria-expanded": "false", onclick: (ev) => {
          why.hidden = !why.hidden; ev.target.setAttribute("aria-expanded", String(!why.hidden));
        }}, tr("rule")), why);
      }
      list.append(li);
    }
    /* dice are shown beside the line that names who rolled them, never on their own */
    sec.append(h("h3", {}, tr("Just now")), list);
  }
  return sec;
}
const PIPS = {1: [[1, 1]], 2: [[0, 0], [2, 2]], 3: [[0, 0], [1, 1], [2, 2]],
  4: [[0, 0], [2, 0], [0, 2], [2, 2]], 5: [[0, 0], [2, 0], [1, 1], [0, 2], [2, 2]],
  6: [[0, 0], [2, 0], [0, 1], [2, 1], [0, 2], [2, 2]]};
function dice(values) {
  const box = h("span", {class: "dice-pics", role: "img",
    "aria-label": tr("dice: {values}", {values})});
  for (const n of values) {
    const svg = s("svg", {viewBox: "0 0 30 30", class: "die"},
      s("rect", {x: 1, y: 1, width: 28, height: 28, rx: 5, class: "die-face"}));
    for (const [x, y] of PIPS[n] || []) svg.append(s("circle", {cx: 7 + x * 8, cy: 7 + y * 8, r: 2.8,
      class: "pip"}));
    if (!PIPS[n]) svg.append(s("text", {x: 15, y: 20, "text-anchor": "middle", "font-size": 13}, String(n)));
    box.append(svg);
  }
  return box;
}

/* ---- trades as offers: both sides' terms beside Accept / Decline ---- */
function terms(side) {
  const out = [];
  if (side.money) out.push(money(side.money));
  for (const i of side.spaces || []) out.push(spaceName(i));
  for (const c of side.cards || []) out.push(cardText(c));
  for (const [k, val] of Object.entries(side)) {
    if (["money", "spaces", "cards"].includes(k) || !Array.isArray(val)) continue;
    out.push(...val.map((x) => assetName(k, String(x))));
  }
  return out.length ? out : [tr("nothing")];
}
function cardText(c) {
  if (c && typeof c === "object") return String(c.text || c.name || tr("a card"));
  for (const p of (S.view && S.view.players) || []) {
    const hit = (p.cards || []).find((x) => x && x.id === c);
    if (hit) return hit.text;
  }
  return tr("a card");
}
function offers(v) {
  const trades = v.trades || [];
  if (!trades.length) return null;
  const sec = h("section", {class: "offers", "aria-label": tr("Trade offers")}, h("h2", {}, tr("Offers")));
  for (const t of trades) {
    const acts = (v.actions || []).filter((a) => OFFER.has(a.type) && a.args &&
      a.args.trade === t.id && mayAct(a.actor));
    const card = h("div", {class: "offer", "data-trade": t.id},
      h("p", {class: "who"}, dot(t.proposer), t.to === me()
        ? tr("{player} offers you a trade", {player: playerName(t.proposer)})
        : tr("{player} offers {other}", {player: playerName(t.proposer), other: playerName(t.to)})),
      h("div", {class: "sides"},
        h("div", {}, h("h3", {}, tr("{player} gives", {player: playerName(t.proposer)})),
          h("ul", {}, ...terms(t.give).map((x) => h("li", {}, x)))),
        h("div", {}, h("h3", {}, tr("{player} gives", {player: playerName(t.to)})),
          h("ul", {}, ...terms(t.take).map((x) => h("li", {}, x))))));
    const row = h("div", {class: "row"});
    for (const a of acts) {
      const box = h("div", {class: "action", "data-type": a.type, "data-actor": a.actor},
        h("button", {class: a.type === "accept_trade" ? "primary" : "",
          onclick: () => send(a)}, a.type === "accept_trade" ? tr("Accept") : a.type ===
          "decline_trade" ? tr("Decline") : tr("Withdraw")));
      row.append(box);
    }
    if (!acts.length) {
      card.append(h("p", {class: "muted"}, tr("Waiting for {players}.", {players: [playerName(t.to)]})));
    }
    card.append(row);
    sec.append(card);
  }
  return sec;
}

/* ---- this phone's actions; destructive ones apart and confirmed ---- */
function actionsSection(v) {
  const mine = (v.actions || []).filter((a) => mayAct(a.actor) && !OFFER.has(a.type));
  const tool = (a) => a.actor === "banker" && a.input && a.input.kind === "transfer";
  const normal = mine.filter((a) => !DANGER.has(a.type) && !tool(a));
  const tools = mine.filter((a) => !DANGER.has(a.type) && tool(a));
  const danger = mine.filter((a) => DANGER.has(a.type) && a.type !== "end_game");
  if (!normal.length && !tools.length && !danger.length) mine.length = 0;
  if (!mine.length) {
    if (v.finished) return null;
    return h("section", {class: "quiet", "aria-label": tr("Your actions")}, h("p", {class: "muted"},
      me() || banker() ? tr("Nothing for you to do right now.")
        : tr("You are watching. Pick your player under Phone.")));
  }
  const sec = h("section", {"aria-label": tr("Your actions")});
  if (normal.length) {
    sec.append(h("h2", {class: "sr"}, tr("What you can do")));
    const list = h("div", {class: "actions"});
    const draws = normal.filter((a) => a.type === "draw" && !a.input);
    for (const a of normal) {
      if (draws.length > 5 && draws.includes(a)) {
        if (a === draws[0]) list.append(drawGrid(draws));
      } else list.append(actionView(a, banker()));
    }
    sec.append(list);
  }
  if (tools.length) {
    sec.append(h("details", {class: "sub", "data-open": "tools"}, h("summary", {}, tr("Banker tools")),
      h("div", {class: "actions"}, ...tools.map((a) => actionView(a, false)))));
  }
  if (danger.length) {
    sec.append(h("div", {class: "careful"}, h("h3", {}, tr("Careful")),
      ...danger.map((a) => dangerView(a, banker()))));
  }
  return sec;
}
/* the cards of a pile in as few words as tell them apart, as groups in the pile's order:
   cards that share their first and last words ("BOOTH: place a booth on a … space.") under
   those words, each named by the words between (PURPLE); any other card by its first sentence
   when no other card begins so ("Set course for Cloud City."), else whole */
function cardGroups(labels) {
  const texts = labels.map((t) => String(t).replace(/^[“"]|[”"]$/g, "")), ws = texts.map((t) => t.split(" "));
  const byHead = new Map();
  ws.forEach((w, i) => { if (w.length > 2) { const k = w.slice(0, 2).join(" "); byHead.set(k, [...(byHead.get(k) || []), i]); } });
  const groups = [], grouped = new Set();
  for (const idx of byHead.values()) {
    if (new Set(idx.map((i) => texts[i])).size < 3) continue;
    const g = idx.map((i) => ws[i]), min = Math.min(...g.map((w) => w.length));
    let p = 0, s = 0;
    while (p < min - 1 && g.every((w) => w[p] === g[0][p])) p += 1;
    while (s < min - p - 1 && g.every((w) => w[w.length - 1 - s] === g[0][g[0].length - 1 - s])) s += 1;
    groups.push({at: idx[0], tight: true, head: [...g[0].slice(0, p), "…", ...g[0].slice(g[0].length - s)].join(" "),
      items: idx.map((i) => ({i, text: ws[i].slice(p, ws[i].length - s).join(" ")}))});
    idx.forEach((i) => grouped.add(i));
  }
  const first = (t) => (/^.+?[.!?](?=\s)/.exec(t) || [t])[0];
  const rest = texts.map((_, i) => i).filter((i) => !grouped.has(i));
  const same = (i) => new Set(rest.filter((j) => first(texts[j]) === first(texts[i])).map((j) => texts[j])).size;
  if (rest.length) groups.push({at: rest[0], tight: false, head: "",
    items: rest.map((i) => ({i, text: same(i) > 1 ? texts[i] : first(texts[i])}))});
  return groups.sort((a, b) => a.at - b.at);
}
/* a card drawn from a real pile, named: the cards that can come, grouped and short (all on
   one screen), with a search box (or tap the card's tag on the reader) */
function drawGrid(draws) {
  const common = (() => {  /* "Item Card: Potion", "Item Card: Fly" -> "Item Card" */
    const heads = new Set(draws.map((a) => String(a.label).split(": ")[0]));
    return heads.size === 1 && String(draws[0].label).includes(": ") ? [...heads][0] : "";
  })();
  const short = (a) => (common ? String(a.label).slice(common.length + 2) : String(a.label));
  const find = h("input", {type: "search", "aria-label": tr("Find the card"), placeholder:
    tr("Type a few letters"), autocomplete: "off", "data-keep": `find:${draws[0].actor}`});
  const cells = [];
  const grids = cardGroups(draws.map((a) => words(short(a)))).map((g) => {
    const mine = g.items.map(({i, text}) => {
      const a = draws[i];
      const cell = h("div", {class: "action", "data-type": a.type, "data-actor": a.actor,
        "data-args": JSON.stringify(a.args || {})},
      h("button", {onclick: () => { const sent = Keep.sending(box); send(a).then(sent); },
        "aria-label": words(a.label)}, text));
      cells[i] = cell;
      return cell;
    });
    const head = g.head ? h("p", {class: "muted group-head", "aria-hidden": "true"}, g.head) : null;
    return [head, h("div", {class: "card-grid" + (g.tight ? " tight" : "")}, ...mine)];
  });
  const filter = () => {
    const q = find.value.trim().toLowerCase();
    cells.forEach((c, i) => { c.hidden = !!q && !words(short(draws[i])).toLowerCase().includes(q); });
    for (const [head, grid] of grids) {
      const none = !Array.from(grid.children).some((c) => !c.hidden);
      grid.hidden = none; if (head) head.hidden = none;
    }
  };
  find.addEventListener("input", filter);
  const who = banker() && draws[0].actor !== "banker" ? `${playerName(draws[0].actor)}: ` : "";
  const box = h("div", {class: "draw-grid", "data-keep": `draws:${draws[0].actor}:${draws.length}`},
    h("p", {class: "label"}, who + (common
      ? tr("Which {kind}? Tap it, or tap the card's tag on the reader.", {kind: common})
      : tr("Which card? Tap it, or tap the card's tag on the reader."))), find, ...grids.flat().filter(Boolean));
  queueMicrotask(filter);
  return box;
}
function dangerView(a, showActor) {
  const key = `${a.actor}:${a.type}`;
  const label = (showActor && a.actor !== "banker" ? `${playerName(a.actor)}: ` : "") + a.label;
  const box = h("div", {class: "action", "data-type": a.type, "data-actor": a.actor});
  if (S.confirm === key) {
    const rule = S.view.end_rule;  /* the edition's ranking, in its own words */
    box.append(h("p", {role: "alert"}, a.type !== "end_game"
      ? tr("{action}? This cannot be taken back by the player.", {action: label})
      : rule ? tr("End the game for everyone now? The winner is {rule}.", {rule: I18n.t(rule)})
        : tr("End the game for everyone now?")),
    h("div", {class: "row"}, h("button", {class: "danger solid", "data-confirm": "yes",
      onclick: () => { S.confirm = null; send(a); }}, tr("Yes: {action}", {action: label})),
    h("button", {onclick: () => { S.confirm = null; render(); }}, tr("Cancel"))));
  } else {
    box.append(h("button", {class: "danger", onclick: () => { S.confirm = key; render(); }}, `${label}…`));
  }
  return box;
}

function amountField(id, inp, label) {
  const dec = (S.view.currency && S.view.currency.decimals) || 0;
  const f = 10 ** dec;
  const field = h("input", {id, type: "number", inputmode: dec ? "decimal" : "numeric",
    min: inp.min / f, max: inp.max / f, step: dec ? 1 / f : 1, value: inp.min / f,
    "aria-describedby": `${id}-range`, "data-fresh": "field"});
  const read = () => Math.round(Number(field.value) * f);
  /* the range follows the game while the field is typed into (keep.js: data-fresh) */
  return [h("label", {for: id}, label), h("p", {class: "muted hint", id: `${id}-range`, "data-fresh": "range"},
    tr("from {min} to {max}", {min: money(inp.min), max: money(inp.max)})), field, read];
}
function actionView(a, showActor) {
  const box = h("div", {class: "action", "data-type": a.type, "data-actor": a.actor,
    "data-args": JSON.stringify(a.args || {}), "data-keep": actionKey(a)});
  const label = (showActor && a.actor !== "banker" ? `${playerName(a.actor)}: ` : "") + words(a.label);
  const inp = a.input;
  if (!inp && a.ends) {  /* a move that ends the player's game says so and asks first */
    const key = `ends:${actionKey(a)}`;
    if (S.confirm === key) {
      box.append(h("p", {role: "alert"}, words(a.ends)), h("div", {class: "row"},
        h("button", {class: "danger solid", "data-confirm": "yes", onclick: () => {
          S.confirm = null; send(a); }}, tr("Yes: {action}", {action: label})),
        h("button", {onclick: () => { S.confirm = null; render(); }}, tr("Cancel"))));
    } else box.append(h("button", {class: "danger", onclick: () => { S.confirm = key; render(); }}, `${label}…`));
  } else if (!inp) {
    box.append(h("button", {class: "primary", onclick: () => send(a)}, label));
  } else if (inp.kind === "dice") {
    box.append(diceInput(a, label, inp));
  } else if (inp.kind === "amount") {
    const [lab, hint, field, read] = amountField(`amt-${a.actor}-${a.type}`, inp, label);
    box.append(lab, hint, h("div", {class: "row"}, field,
      h("button", {class: "primary", onclick: () => send(a, {amount: read()})}, words(a.label))));
  } else if (inp.kind === "choice" && inp.roll) {
    box.append(choiceThenRoll(a, label, inp));
  } else if (inp.kind === "choice") {
    const bonus = inp.bonus && (inp.bonus.cards || []).length ? bonusPicker(inp.bonus) : null;
    box.append(h("p", {class: "label"}, label), bonus ? bonus[0] : "",
      h("div", {class: "choices"}, ...(inp.options || []).map((o) => h("button", {class: "primary",
        "data-value": String(o.value), onclick: () => send(a, Object.assign(
          {[inp.arg || "option"]: o.value}, bonus ? bonus[1]() : {}))},
      words(o.label ?? humanize(o.value))))));
  } else if (inp.kind === "trade") {
    box.append(h("details", {}, h("summary", {}, label), tradeForm(a)));
  } else if (inp.kind === "transfer") {
    box.append(h("details", {}, h("summary", {}, label), transferForm(a)));
  } else {
    box.append(h("button", {onclick: () => send(a)}, label));
  }
  return box;
}
/* a sentence an action's input says in its edition's words (a message id its catalogue has),
   else the page's own generic one */
const saidBy = (id, args, generic) => (id ? I18n.t(id, args) : generic);
/* a choice the roll follows (a catch: the ball, then the die) in one step:
   the die typed (real dice) or rolled by the companion, the choice tapped; both are sent.
   Its words are the input's (roll.typed, roll.rolled, roll.missing) */
function choiceThenRoll(a, label, inp) {
  const typed = !inp.roll.optional;
  const said = inp.roll;
  const die = typed ? h("input", {type: "number", inputmode: "numeric", min: 1, max: 6,
    "data-die": 0, id: `die-${a.actor}-${a.type}`}) : null;
  const go = (value) => act(async () => {
    const roll = die ? Number(die.value) : 0;
    if (die && !(Number.isInteger(roll) && roll >= 1 && roll <= 6)) {
      toast(saidBy(said.missing, {}, tr("Enter the die you rolled (1 to 6), then choose."))); return;
    }
    const sent = Keep.sending(blockOf(a));
    const post = (type, args, version) => api("POST", `/api/games/${gid()}/commands`,
      {actor: a.actor, type, args, version, key: randomKey()});
    S.sending += 1;  /* told once, by the answers (notify) */
    let first = null, then = null;
    try {
      first = await post(a.type, Object.assign({}, a.args || {}, {[inp.arg]: value}),
        S.view.version);
      then = await post("roll", die ? {dice: [roll]} : {}, first.version);
    } finally {
      S.sending -= 1;
      if (!then) answered([first], a.actor);  /* refused: what was done, and the others' news */
    }
    sent();
    answered([first, then], a.actor);  /* the answers' lines, in this phone's language */
  });
  return h("div", {class: "then-roll"}, h("p", {class: "label"}, typed
    ? saidBy(said.typed, {action: label}, tr("{action}: roll the die, enter it, then choose", {action: label}))
    : saidBy(said.rolled, {action: label}, tr("{action}: choose; the companion rolls", {action: label}))),
  die ? h("div", {class: "dice"}, h("label", {for: die.id}, tr("Die") + " ", die)) : "",
  h("div", {class: "choices"}, ...(inp.options || []).map((o) => h("button", {class: "primary",
    "data-value": String(o.value), onclick: () => go(o.value)}, words(o.label ?? humanize(o.value))))));
}
function bonusPicker(b) {
  const checks = (b.cards || []).map((c, i) => [c, h("input", {type: "checkbox", id: `bonus-${i}`,
    "data-bonus": c})]);
  const names = b.names || {};  /* each card's name, as the action's input gives it */
  const box = h("fieldset", {class: "bonus"}, h("legend", {},  /* in the input's words */
    saidBy(b.legend, {n: b.max}, tr("Cards to add (up to {n})", {n: b.max}))),
    ...checks.map(([c, el]) => h("label", {class: "check", for: el.id}, el, names[c] || humanize(c))));
  const read = () => {
    const on = checks.filter(([, el]) => el.checked).map(([c]) => c);
    return on.length ? {bonus: on} : {};
  };
  return [box, read];
}
/* the dice the rules name, in the reader's words (the edition's view.page.dice) */
const dieName = (n) => { const own = ((S.view && S.view.page && S.view.page.dice) || {})[n];
  return own ? I18n.t(own) : n; };
const upperFirst = (t) => String(t).charAt(0).toUpperCase() + String(t).slice(1);
function diceInput(a, label, inp) {
  const count = inp.count || 1;
  /* dice the rules name (a red and a black die) get a labelled field each, in the rules' order */
  const names = inp.names || [];
  const fields = Array.from({length: count}, (_, i) => h("input", {type: "number",
    inputmode: "numeric", min: 1, max: 6, "data-die": i, name: names[i] || `die${i + 1}`,
    "aria-label": names[i] ? tr("{name} die", {name: dieName(names[i])}) : tr("Die {n}", {n: i + 1}),
    placeholder: names[i] ? dieName(names[i]) : ""}));
  const cells = fields.map((f, i) => names[i]
    ? h("label", {class: `die-${names[i]}`}, `${upperFirst(dieName(names[i]))} `, f)
    : f);
  const enter = () => {
    const dice = fields.map((f) => Number(f.value));
    if (dice.some((d) => !Number.isInteger(d) || d < 1)) { toast(tr("Enter every die.")); return; }
    send(a, {dice});
  };
  for (const f of fields) f.addEventListener("keydown", (e) => { if (e.key === "Enter") enter(); });
  const form = h("div", {}, h("div", {class: "dice"}, ...cells),
    h("button", {class: inp.physical || !inp.optional ? "primary" : "", "data-send": "dice",
      onclick: enter}, tr("Send my dice")));
  if (inp.physical || !inp.optional) {
    return h("div", {}, h("p", {class: "label"}, tr("{action}: enter the dice you rolled",
      {action: label})), form);
  }
  /* digital dice: the companion rolls; values typed in would be refused */
  return h("button", {class: "primary", onclick: () => send(a)}, label);
}

/* ---- trade and transfer forms ---- */
function assetLists(p) {
  const out = {};
  for (const k of ["spaces", "cards", ...assetKinds().map((a) => a.kind)]) {
    if (Array.isArray(p[k]) && p[k].length) out[k] = p[k];
  }
  return out;
}
function assetLabel(kind, item) {
  if (kind === "spaces") return spaceName(item);
  if (kind === "cards") return cardText(item);
  return assetName(kind, item);
}
const assetValue = (item) => (item && typeof item === "object" ? item.id : item);
function kindWord(k) {
  const own = assetKinds().find((x) => x.kind === k);
  return ({spaces: tr("Place"), cards: tr("Card")}[k] || (own && I18n.t(own.label)) || humanize(k));
}
function moneyInput(label) {
  const dec = (S.view.currency && S.view.currency.decimals) || 0;
  const el = h("input", {type: "number", min: 0, value: 0, step: dec ? 1 / 10 ** dec : 1,
    inputmode: dec ? "decimal" : "numeric", "aria-label": label});
  return [el, () => Math.round((Number(el.value) || 0) * 10 ** dec)];
}
/* money counted in things, named in the reader's words ("Coins", "Monete"): the name the
   edition's data gives it, which the catalogue has (companion/engine/readings.py) */
function moneyWord(cur) {
  return upperFirst(I18n.t(cur.many));
}
function assetPicker(p, title) {
  const box = h("fieldset", {}, h("legend", {}, title));
  const cur = S.view.currency;
  const [m, readMoney] = moneyInput(tr("{who}: money", {who: title}));
  box.append(h("label", {}, cur && !cur.symbol ? moneyWord(cur) : tr("Money"), m));
  const checks = [];
  for (const [kind, items] of Object.entries(assetLists(p))) {
    for (const item of items) {
      const c = h("input", {type: "checkbox"});
      checks.push([kind, assetValue(item), c]);
      box.append(h("label", {class: "check"}, c, `${kindWord(kind)}: ${assetLabel(kind, item)}`));
    }
  }
  const read = () => {
    const out = {};
    const n = readMoney();
    if (n) out.money = n;
    for (const [kind, val, c] of checks) if (c.checked) (out[kind] = out[kind] || []).push(val);
    return out;
  };
  return [box, read];
}
function tradeForm(a) {
  const v = S.view;
  const others = v.players.filter((p) => p.id !== a.actor && !p.bankrupt);
  const form = h("div", {class: "trade"});
  const to = h("select", {"aria-label": tr("Trade with")},
    ...others.map((p) => h("option", {value: p.id}, p.name)));
  const mine = player(a.actor);
  const [giveBox, give] = assetPicker(mine, tr("{player} gives", {player: mine.name}));
  const takeHolder = h("div");
  let take = () => ({});
  const fill = () => {
    const other = player(to.value);
    if (!other) return;
    const [box, read] = assetPicker(other, tr("{player} gives", {player: other.name}));
    take = read; takeHolder.replaceChildren(box);
  };
  to.addEventListener("change", fill); fill();
  form.append(h("label", {}, tr("Trade with"), to), giveBox, takeHolder,
    h("button", {class: "primary", onclick: () => send(a, {to: to.value, give: give(),
      take: take()})}, tr("Offer the trade")));
  return form;
}
function transferForm(a) {
  const accounts = [["bank", tr("The Bank")], ...S.view.players.map((p) => [p.id, p.name])];
  const opts = () => accounts.map(([id, n]) => h("option", {value: id}, n));
  const src = h("select", {"aria-label": tr("From")}, ...opts());
  const to = h("select", {"aria-label": tr("To")}, ...opts());
  to.selectedIndex = Math.min(1, accounts.length - 1);
  const [amount, read] = moneyInput(tr("Amount"));
  amount.value = 1;
  const reason = h("input", {type: "text", maxlength: 120, "aria-label": tr("Reason"),
    placeholder: tr("Reason (shown in the history)")});
  return h("div", {}, h("div", {class: "row"}, h("label", {}, tr("From"), src),
    h("label", {}, tr("To"), to)),
    h("label", {}, tr("Amount"), amount), h("label", {}, tr("Reason"), reason),
    h("button", {class: "primary", onclick: () => send(a, {source: src.value, to: to.value,
      amount: read(), reason: reason.value})}, tr("Move the money")));
}

/* ---- auction and debt in words ---- */
function auctionSection(v) {
  const out = [];
  if (v.auction) {
    const a = v.auction;
    out.push(h("p", {}, h("strong", {}, tr("Auction of {space}:", {space: spaceName(a.space)}) + " "),
      a.bidder ? tr("{player} leads with {amount}.", {player: playerName(a.bidder), amount: money(a.high)})
        : tr("no bid yet (from {amount}).", {amount: money(a.floor || 1)}),
      (a.passed || []).length ? " " + tr("Passed: {players}.", {players: a.passed.map(playerName)}) : ""));
  }
  if (v.debt) {
    const d = v.debt;
    const bank = d.creditor === "bank" || d.creditor === null || d.creditor === undefined;
    const to = (bank ? tr("to the Bank") : tr("to {player}", {player: playerName(d.creditor)}))
      + (d.reason ? ` (${words(d.reason)})` : "");
    out.push(h("p", {}, h("strong", {}, tr("{player} owes {amount}", {player: playerName(d.player),
      amount: money(d.amount)})), " " + tr("{to}: sell or mortgage to raise it.", {to})));
  }
  return out.length ? h("section", {class: "notice", "aria-label": tr("On the table")}, ...out) : null;
}

/* ---- each edition drawn as itself ---- */
function editionSection(v) {
  try { return editionParts(v); } catch (e) {  /* one odd value must not blank the page */
    return [h("section", {}, h("p", {class: "muted"}, tr("This part of the table cannot be drawn.")))];
  }
}
function editionParts(v) {
  const parts = [];
  if (v.board && v.board.spaces && v.board.spaces.length) parts.push(boardSection(v));
  for (const panel of v.panels || []) parts.push(panelSection(panel));  /* the edition's (panels.js) */
  return parts.filter(Boolean);
}
const GROUP_FALLBACK = ["#8d6e63", "#4fc3f7", "#f06292", "#ffa726", "#e53935", "#fdd835", "#43a047",
  "#1e40af", "#9e9e9e", "#26a69a"];
function groupColor(c) {
  if (!c) return "";
  const css = String(c).replace(/-/g, "");
  if (/^[a-z]{3,20}$/.test(css) && window.CSS && CSS.supports("color", css)) return css;
  const keys = Object.keys((S.view.board && S.view.board.colors) || {}).sort();  /* any key order */
  return GROUP_FALLBACK[Math.max(0, keys.indexOf(c)) % GROUP_FALLBACK.length];
}
/* a space's or card's fact, named in the reader's words */
const fieldWord = (f) => ({name: tr("name"), price: tr("price"), rent: tr("rent"), tax: tr("tax"),
  text: tr("text"), amount: tr("amount")}[f] || humanize(f).toLowerCase());
function boardSection(v) {
  const spaces = v.board.spaces;
  const n = spaces.length, side = Math.ceil(n / 4), cols = side + 1;
  const grid = h("div", {class: "ring", role: "list", "aria-label": trn("The board, {n} space",
    "The board, {n} spaces", n)});
  grid.style.setProperty("--n", cols);
  const pieces = v.board.pieces || [];  /* pieces that are no player's, each with its mark */
  const at = (i) => {  /* GO at the bottom right, then clockwise like the real board */
    const k = i % side, edge = Math.floor(i / side);
    if (edge === 0) return [cols, cols - k];
    if (edge === 1) return [cols - k, 1];
    if (edge === 2) return [1, 1 + k];
    return [1 + k, cols];
  };
  const detail = h("p", {class: "space-detail", "aria-live": "polite"},
    tr("Tap a space to read it."));  /* the space read stays read, in its current words */
  spaces.forEach((sp, i) => {
    const idx = sp.index ?? i;
    const [row, col] = at(idx);
    const here = v.players.filter((p) => p.position === idx && !p.bankrupt);
    const flags = sp.flags || [];  /* the edition's words on this space: {kind, text, shown} */
    const on = pieces.filter((x) => x.index === idx);
    const bits = [sp.name];
    if (sp.owner) bits.push(tr("owned by {player}", {player: playerName(sp.owner)}));
    else if (sp.price !== undefined) bits.push(tr("for sale at {amount}", {amount: money(sp.price)}));
    if (sp.rent !== undefined) bits.push(tr("rent {amount}", {amount: money(sp.rent)}));
    if (sp.amount !== undefined) bits.push(tr("pay {amount}", {amount: money(sp.amount)}));
    bits.push(...flags.map((f) => f.text));
    /* facts the rulebook does not print: the shipped default until the banker confirms them */
    const unsure = (sp.unverified || []).map((f) => fieldWord(f === "amount" ? "tax" : f));
    if (unsure.length) {
      bits.push(tr("{facts} as shipped, not yet checked against your box", {facts: unsure}));
    }
    bits.push(...on.map((x) => x.here));
    if (here.length) {
      bits.push(trn("{players} is here", "{players} are here", here.length,
        {players: here.map((p) => p.name)}));
    }
    const text = bits.join(", ");
    const cell = h("button", {class: ["cell", ...flags.map((f) => f.kind)
      .filter((k) => /^[a-z][a-z-]*$/.test(k)), ...(sp.owner ? ["owned"] : [])].join(" "),
      role: "listitem", "aria-label": text, "data-space": idx,
      onclick: () => { S.spaceRead = idx; detail.textContent = text + "."; }});
    if (S.spaceRead === idx) detail.textContent = text + ".";
    cell.style.gridRow = row; cell.style.gridColumn = col;
    if (sp.owner) cell.style.setProperty("--c", playerColor(sp.owner));
    if (sp.color) {
      const stripe = h("span", {class: "stripe", "aria-hidden": "true"});
      stripe.style.background = groupColor(sp.color);
      cell.append(stripe);
    }
    cell.append(h("span", {class: "nm", "aria-hidden": "true"}, softHyphens(sp.name)));
    for (const f of flags.filter((x) => x.shown)) cell.append(h("span", {class: "flag", "aria-hidden": "true"}, f.text));
    const toks = h("span", {class: "toks", "aria-hidden": "true"});
    for (const p of here) toks.append(dot(p.id));
    for (const x of on) toks.append(h("span", {class: "piece"}, x.mark));
    if (toks.childNodes.length) cell.append(toks);
    grid.append(cell);
  });
  const mid = h("div", {class: "mid"});
  mid.style.gridArea = `2 / 2 / ${cols} / ${cols}`;
  mid.append(h("p", {class: "mid-turn"}, v.current && !v.finished
    ? tr("{player}'s turn", {player: playerName(v.current)}) : ""));
  for (const note of v.board.notes || []) {  /* the edition's lines, a piece's mark before one */
    mid.append(h("p", {class: "note"}, ...(note.mark ? [h("span", {class: "piece"}, note.mark), " "] : []),
      note.text));
  }
  if (v.pot_label) {  /* an edition that names its pot shows it always */
    mid.append(h("p", {class: "pot"}, v.pot_label + " ", h("strong", {}, amountText(v.pot, v.pot_text))));
  } else if (v.pot) {
    mid.append(h("p", {class: "pot"}, tr("Pot") + " ", h("strong", {}, amountText(v.pot, v.pot_text))));
  }
  grid.append(mid);
  const legend = h("ul", {class: "legend", "aria-label": tr("Players' colours")}, ...v.players
    .slice().sort((a, b) => seatIndex(a.id) - seatIndex(b.id)).map((p) => h("li", {}, dot(p.id),
      `${p.name}: ${p.space || ""}`)));
  return h("section", {class: "board", "aria-label": tr("Board")}, h("h2", {}, tr("Board")), grid, detail, legend);
}

/* long words break where a reader expects ("Mush-room"), not anywhere ("Mushroo m") */
function softHyphens(name) {
  return String(name).replace(/[A-Za-zÀ-ÿ']{7,}/g, (w) => {
    const cut = Math.ceil(w.length / 2);
    return `${w.slice(0, cut)}\u00ad${w.slice(cut)}`;
  });
}
/* ---- players ---- */
function playersSection(v) {
  const list = h("ul", {class: "players"});
  for (const p of v.players.slice().sort((a, b) => seatIndex(a.id) - seatIndex(b.id))) {
    const tags = [];
    if (p.is_current) tags.push(h("span", {class: "tag"}, tr("their turn")));
    if (p.id === me()) tags.push(h("span", {class: "tag"}, tr("you")));
    if (p.in_jail) tags.push(h("span", {class: "tag warn"}, tr("in jail")));
    if (p.bankrupt) tags.push(h("span", {class: "tag warn"}, tr("bankrupt")));
    const owned = (p.spaces || []).map(spaceName);
    const li = h("li", {class: "player" + (p.is_current ? " current" : ""), "data-player": p.id},
      h("div", {class: "top"}, h("span", {}, dot(p.id), p.name, p.token ? ` (${p.token})` : ""),
        h("span", {class: "money"}, amountText(p.money, p.money_text) || (p.score ? p.score.count : ""))),
      h("div", {}, ...tags, p.space ? h("span", {class: "muted"}, " " + tr("at {space}", {space: p.space})) : ""),
      owned.length ? h("div", {class: "muted"}, tr("Owns: {spaces}", {spaces: owned.join(", ")})) : "",
      (p.cards || []).length ? h("div", {class: "muted"}, tr("Cards: {cards}", {cards: p.cards.map(cardText).join("; ")})) : "",
      ...assetKinds().filter((k) => (p[k.kind] || []).length).map((k) => h("div", {class: "muted"},
        tr("{kind}: {items}", {kind: I18n.t(k.label), items: p[k.kind].map((x) => assetName(k.kind, x))
          .join(", ")}))));
    li.style.setProperty("--c", playerColor(p.id));
    list.append(li);
  }
  return h("section", {"aria-label": tr("Players")}, h("h2", {}, tr("Players")), list);
}

/* ---- money chart ---- */
function chartTab() {
  const sec = h("section", {"aria-label": tr("Money over the game")}, h("h2", {}, tr("Money over the game")));
  const got = fetched("balances", `/api/games/${gid()}/balances`), bal = got.data;
  if (!bal) { sec.append(loading(got)); return [sec]; }
  const pts = bal.points;
  const w = 340, hgt = 200, pad = 34;
  let max = 1;
  for (const p of pts) for (const m of Object.values(p.money)) max = Math.max(max, m);
  const svg = s("svg", {viewBox: `0 0 ${w} ${hgt}`, role: "img",
    "aria-label": tr("Chart of every player's money after each move")});
  svg.append(s("line", {x1: pad, y1: hgt - pad, x2: w - 5, y2: hgt - pad, stroke: "currentColor"}),
    s("line", {x1: pad, y1: 5, x2: pad, y2: hgt - pad, stroke: "currentColor"}),
    s("text", {x: 2, y: 14, "font-size": 10}, money(max)),
    s("text", {x: 2, y: hgt - pad, "font-size": 10}, money(0)));
  const X = (i) => pad + (pts.length < 2 ? 0 : (i * (w - pad - 5)) / (pts.length - 1));
  const Y = (m) => hgt - pad - (m * (hgt - pad - 5)) / max;
  for (const p of bal.players) {
    const line = pts.map((pt, i) => (p.id in pt.money ? `${X(i).toFixed(1)},${Y(pt.money[p.id]).toFixed(1)}` : ""))
      .filter(Boolean).join(" ");
    svg.append(s("polyline", {points: line, fill: "none", stroke: playerColor(p.id),
      "stroke-width": 2.5}, s("title", {}, p.name)));
  }
  const legend = h("ul", {class: "legend"}, ...bal.players.map((p) => {
    const last = pts.length ? pts[pts.length - 1].money[p.id] : undefined;
    return h("li", {}, dot(p.id), `${p.name}: ${last === undefined ? "" : money(last)}`);
  }));
  sec.append(svg, legend, h("p", {class: "muted"}, trn("{n} move", "{n} moves", pts.length)));
  return [sec];
}

/* ---- history (newest first) ---- */
/* a rule's citation (a message) in this phone's words around the rulebook's quote, which stays
   the English it is and is marked so; an old game's citation, English text, marked whole */
function citeNodes(c) {
  if (!c || typeof c !== "object" || !c.msg) return [h("span", {lang: "en"}, String(c ?? ""))];
  if (c.plural) return [I18n.text(c)];
  /* the rulebook's section and quote stay its English, marked, at any depth ("{first}; {second}") */
  const a = c.args || {}, parts = {};
  for (const [k, v] of Object.entries(a)) {
    if ((k === "quote" || k === "section") && typeof v === "string" && v) parts[k] = h("span", {lang: "en"}, v);
    else if (v && typeof v === "object" && v.msg) parts[k] = h("span", {}, ...citeNodes(v));
  }
  return Object.keys(parts).length ? trNodes(c.msg, {...a, ...parts}) : [I18n.text(c)];
}
const HISTORY_PAGE = 100;  /* lines the History tab asks for at a time */
/* a history row's line in this phone's language (its message beside its English say) */
const rowText = (row) => I18n.text(row.msg ? {msg: row.msg, plural: row.plural, args: row.args || {}}
  : row.say);
function historyTab() {
  const sec = h("section", {"aria-label": tr("History")}, h("h2", {}, tr("Everything that happened")),
    window.RulesAtHand ? RulesAtHand.readings() : null);
  /* the newest lines, a page more at each "Show earlier": a long game's whole history would
     cross the Wi-Fi at every move */
  const limit = S.historyLimit || HISTORY_PAGE, path = `/api/games/${gid()}/history?limit=${limit}`;
  const got = fetched(`history:${limit}`, path), rows = got.data;
  if (!rows) { sec.append(loading(got)); return [sec]; }
  const list = h("ol", {class: "hist", reversed: true, start: rows.length ? rows[0].n : 0});
  let lastCmd = null;
  rows.forEach((row) => {
    const said = words(rowText(row));
    /* a line stored as English (an old game's, before messages): marked lang="en" */
    const li = h("li", {class: row.undone ? "undone" : "", "data-anchor": `h${row.n}`},
      row.msg ? said : h("span", {lang: "en"}, said));
    if (row.cite) li.append(" (", h("span", {class: "cite"}, ...citeNodes(row.cite)), ")");
    /* the banker can take a move back from here, after saying yes */
    if (banker() && !row.undone && row.cmd > 0 && row.cmd !== lastCmd && row.type !== "undone") {
      const asking = S.confirm === `undo:${row.cmd}`;
      li.append(asking ? h("span", {class: "row", role: "alert"}, h("button", {class: "danger solid",
        "data-undo": row.cmd, onclick: () => act(async () => {
          S.confirm = null;
          await api("POST", `/api/games/${gid()}/undo`, {cmd: row.cmd});
          toast(tr("Taken back: {move} and everything after it.", {move: said}), true);
        })}, tr("Yes, take back this move and all after it")), h("button", {onclick: () => {
        S.confirm = null; render(); }}, tr("Cancel")))
        : h("button", {class: "link", "aria-label": tr("Take back: {move}", {move: said}),
          onclick: () => { S.confirm = `undo:${row.cmd}`; render(); }}, tr("take back…")));
    }
    lastCmd = row.cmd;
    list.append(li);
  });
  sec.append(list);
  if (rows.length && rows[rows.length - 1].n > 1) {
    sec.append(h("button", {onclick: () => { S.historyLimit = limit + HISTORY_PAGE; render(); }},
      tr("Show earlier moves")));
  }
  return [sec];
}

/* ---- seats: claim, the seat key, taking a seat back after a dead phone ---- */
function keyCard() {
  if (!S.newKey || S.newKey.game !== S.game) return null;
  return h("section", {class: "notice key", "aria-label": tr("Your seat key")},
    h("h2", {}, tr("Your seat key")), h("p", {class: "seatkey"}, S.newKey.key),
    h("p", {}, tr("If this phone dies, open the page on another phone, join with the game's code and "
      + "enter this key to play {player} again. It is shown only now.", {player: playerName(S.newKey.player)})),
    h("button", {onclick: () => { S.newKey = null; render(); }}, tr("I noted it")));
}
function reclaimNotice() {
  const reqs = (S.seat && S.seat.requests) || [];
  if (!banker() || !reqs.length) return null;
  return h("section", {class: "notice", "aria-label": tr("Phones asking for a seat")},
    ...reqs.map((r) => h("div", {class: "action", "data-request": r.player, "data-code": r.code},
      h("p", {}, ...trNodes("A phone asks to play {player}: code {code} ({device}, asked {n} s ago). "
        + "Let it only if that phone shows this code.", {player: r.name, code: h("strong", {}, r.code),
        device: I18n.text(r.device), n: r.waited})),
      h("div", {class: "row"},
        h("button", {class: "primary", onclick: () => act(async () => {
          await api("POST", `/seat/${gid()}/approve`, {request: r.id});
          toast(tr("The new phone plays {player} now.", {player: r.name}), true); await loadSeat(); render();
        })}, tr("Let it play {player}", {player: r.name})),
        h("button", {onclick: () => act(async () => {
          await api("POST", `/seat/${gid()}/deny`, {request: r.id}); await loadSeat(); render();
        })}, tr("Refuse")),
        h("button", {onclick: () => act(async () => {
          await api("POST", `/seat/${gid()}/block`, {request: r.id});
          toast(tr("That phone cannot ask for seats again in this game."), true); await loadSeat(); render();
        })}, tr("Block this phone"))))));
}
function seatsSection() {
  const sec = h("section", {"aria-label": tr("Players' phones")},
    h("h2", {}, banker() ? tr("Phones") : tr("Who is this phone?")));
  const got = fetched("seats", `/api/games/${gid()}/seats`);
  sec.append(h("div", {class: "seats"}, ...(got.data ? got.data.map(seatRow) : [loading(got)])));
  return sec;
}
function seatRow(p) {
  const row = h("div", {class: "seat", "data-keep": `seat:${p.id}`});
  if (banker()) {
    row.append(h("p", {}, dot(p.id), p.claimed ? tr("{player}: a phone plays", {player: p.name})
      : tr("{player}: no phone yet", {player: p.name})));
    if (p.claimed) row.append(h("button", {class: "danger", onclick: () => act(async () => {
      await api("POST", `/api/games/${gid()}/release`, {player: p.id}); delete S.fetched.seats; render();
    })}, tr("Free {player}'s seat", {player: p.name})));
    return row;
  }
  if (p.mine) {
    row.append(h("p", {class: "strong"}, dot(p.id), tr("You are {player}", {player: p.name})), h("div", {class: "row"},
      h("button", {onclick: () => act(async () => {
        const r = await api("POST", `/seat/${gid()}/key`, {});
        S.newKey = {game: S.game, player: r.player, key: r.key}; S.tab = "table"; render();
      })}, tr("New seat key")),
      h("button", {class: "danger", onclick: () => act(async () => {
        await api("POST", `/api/games/${gid()}/release`, {player: p.id});
        await loadSession(); seatChanged(); render();
      })}, tr("Leave this seat"))));
    return row;
  }
  if (!p.claimed) {
    row.append(h("button", {class: "primary", "data-claim": p.id, onclick: () => claim(p.id)},
      dot(p.id), tr("I am {player}", {player: p.name})));
    return row;
  }
  const asking = S.seat && (S.seat.asking || []).find((a) => a.player === p.id);
  /* only the typed key is kept across draws (and the panel's open state), so the ask button
     says what was asked, and that the banker refused */
  row.removeAttribute("data-keep"); row.dataset.anchor = `seat:${p.id}`;
  const key = h("input", {id: `key-${p.id}`, autocomplete: "off", autocapitalize: "characters",
    placeholder: tr("e.g. {example}", {example: "1A2B-3C4D-5E6F"}), "data-keep": `seatkey:${p.id}`});
  row.append(h("p", {}, dot(p.id), tr("{player} is on another phone.", {player: p.name})),
    h("details", {class: "sub", "data-reclaim": p.id, "data-open": `reclaim:${p.id}`},
      h("summary", {}, tr("This is me: take {player} back", {player: p.name})),
      h("label", {for: key.id}, tr("Seat key from the old phone")), key,
      h("div", {class: "row"}, h("button", {class: "primary", onclick: () => act(async () => {
        const typed = document.getElementById(key.id).value;  /* the kept field, not this draw's */
        const r = await api("POST", `/seat/${gid()}/reclaim`, {player: p.id, key: seatKey(typed)});
        S.newKey = {game: S.game, player: p.id, key: r.key};  /* the old key is spent */
        await loadSession(); seatChanged(); S.tab = "table"; toast(tr("This phone plays {player} again.", {player: p.name}), true); render();
      })}, tr("Take back with the key")),
      h("button", {"data-ask": p.id, onclick: () => act(async () => {
        const r = await api("POST", `/seat/${gid()}/reclaim`, {player: p.id});
        await loadSeat(); toast(tr("Asked the banker; show them the code {code}.", {code: r.code}), true); render();
      })}, asking ? tr("Asked the banker: show them {code}", {code: asking.code}) : tr("Ask the banker instead")))));
  return row;
}
/* a seat key as typed ("bbe3 8af3 4864", "BBE3-8AF3-4864", "bbe38af34864") as shown */
function seatKey(typed) {
  const bare = String(typed).replace(/[^0-9a-z]/gi, "").toUpperCase();
  return bare.length === 12 ? bare.match(/.{4}/g).join("-") : bare;
}
async function claim(pid) {
  const code = S.code || (S.view && S.view.join_code);
  await act(async () => {
    await api("POST", "/api/join", {code, player: pid});
    await loadSession(); seatChanged();
    const r = await api("POST", `/seat/${gid()}/key`, {}).catch(() => null);
    if (r) S.newKey = {game: S.game, player: r.player, key: r.key};
    S.tab = "table"; render(); keepAwake();
  });
}

/* ---- display settings (kept on this phone) ---- */
function displaySection() {
  const theme = h("select", {id: "pref-theme"}, ...[["auto", tr("Like this phone")], ["light", tr("Light")],
    ["dark", tr("Dark")]].map(([v, l]) => h("option", {value: v, selected: S.prefs.theme === v}, l)));
  theme.addEventListener("change", () => { S.prefs.theme = theme.value; applyPrefs(); });
  const check = (key, label) => {
    const el = h("input", {type: "checkbox", id: `pref-${key}`, checked: !!S.prefs[key]});
    el.addEventListener("change", () => { S.prefs[key] = el.checked; applyPrefs(); });
    return h("label", {class: "check", for: el.id}, el, label);
  };
  /* the phone's language (web/static/i18n.js), named in each language's own words */
  const lang = h("select", {id: "pref-lang"});
  I18n.picker(lang, () => { if (S.raw) showView(S.raw); else render(); });
  /* "Language" in the reader's words, then in the others: a phone lost in a language it cannot
     read still finds its way back */
  const langWord = [tr("Language"), ...["Language", "Lingua", "Idioma"].filter((w) => w !== tr("Language"))];
  return h("section", {"aria-label": tr("Display")}, h("h2", {}, tr("Display")),
    h("label", {for: "pref-lang"}, langWord.join(" · ")), lang,
    h("label", {for: "pref-theme"}, tr("Colours")), theme, check("big", tr("Large text")),
    check("sound", tr("A sound when it is my turn")), window.RulesAtHand ? RulesAtHand.setting() : null,
    window.ReadAloud ? ReadAloud.setting() : null,
    h("p", {class: "muted hint"}, Awake.state() === "video" || Awake.state() === "lock"
      ? tr("The screen stays on while the game is open.")
      : tr("Tap the page once and the screen stays on while the game is open.")));
}
function moreTab() {
  return [keyCard(), seatsSection(), displaySection(), bankerLogin(), gamesSection()].filter(Boolean);
}

/* ---- join ---- */
function joinScreen() {
  const code = h("input", {id: "code", inputmode: "numeric", autocomplete: "off", maxlength: 12,
    value: S.code || "", placeholder: tr("e.g. {example}", {example: "482193"})});
  const go = () => act(async () => {
    S.code = code.value.trim();
    const r = await api("POST", "/api/join", {code: S.code});
    await loadSession(); openGame(r.game_id, "more");
  });
  code.addEventListener("keydown", (e) => { if (e.key === "Enter") go(); });
  const join = h("section", {"aria-label": tr("Join a game"), "data-keep": "join"}, h("h2", {}, tr("Join the game")),
    h("label", {for: "code"}, tr("Code shown on the companion's screen")), h("div", {class: "row"},
      code, h("button", {class: banker() ? null : "primary", onclick: go}, tr("Join"))));
  /* a banker came to start a game: New game first, joining one below it */
  return [...(banker() ? [setupForm(), join] : [join]), gamesSection(), bankerLogin(),
    displaySection()].filter(Boolean);
}
function gameLabel(g) {
  const args = {game: g.title, code: String(g.join_code || "")};
  if (g.status === "open") {
    return g.join_code ? tr("{game} (playing, code {code})", args) : tr("{game} (playing)", args);
  }
  return g.join_code ? tr("{game} (finished, code {code})", args) : tr("{game} (finished)", args);
}
function gamesSection() {
  const sec = h("section", {"aria-label": tr("Games")}, h("h2", {}, tr("Games")));
  const got = fetched("games", "/api/games");
  if (!got.data) return sec;
  const mine = got.data.filter((g) => g.joined || banker()).reverse();
  sec.append(h("div", {class: "actions"}, ...(mine.length ? mine.map((g) => h("button",
    {onclick: () => openGame(g.id)}, gameLabel(g)))
    : [h("p", {class: "muted"}, banker() ? tr("No game yet: start one with New game.")
      : tr("Join with the code to see a game."))])));
  return sec;
}
function bankerLogin() {
  if (banker()) return null;
  const pin = h("input", {id: "pin", type: "password", inputmode: "numeric", autocomplete: "off"});
  const wait = S.session && S.session.pin_wait;  /* a flood of wrong PINs from other phones */
  const form = h("form", {}, h("label", {for: "pin"}, tr("Banker PIN")),
    h("div", {class: "row"}, pin, h("button", {class: "primary", type: "submit"}, tr("Log in"))),
    wait ? h("p", {class: "hint", role: "status"}, tr("Someone is trying many PINs, so logins from a new "
      + "phone wait {n} s. A phone that has been the banker here before can log in now.", {n: wait})) : null);
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    act(async () => {
      await api("POST", "/api/banker/login", {pin: pin.value});
      await loadSession(); S.tab = S.game ? "banker" : "table"; render();
    });
  });
  return h("details", {"data-keep": "login", class: "opener"}, h("summary", {}, tr("Banker")), form);
}

/* ---- banker: safe controls; destructive ones apart, confirmed, named ---- */
async function lastCommand() {
  const hist = await api("GET", `/api/games/${gid()}/history?limit=${5 * HISTORY_PAGE}`);
  const row = hist.find((r) => !r.undone && r.cmd > 0 && r.type !== "undone");
  if (!row) return null;
  /* the move is named as a player names it ("Anna's roll", a message), not by what followed it */
  const cmds = await api("GET", `/api/games/${gid()}/commands`);
  const c = cmds.find((x) => x.cmd === row.cmd);
  return {cmd: row.cmd, text: c ? c.move : rowText(row)};
}
function undoBox() {
  const box = h("div", {class: "undo-box"});
  const draw = () => {
    const u = S.undo;
    if (!u || u.version !== S.view.version) {
      if (!u) box.replaceChildren(h("p", {class: "muted"}, tr("Looking up the last move…")));
      const version = S.view.version;
      lastCommand().then((c) => {  /* an open question stays open while its move is the last */
        const asking = !!(S.undo && S.undo.asking && S.undo.c && c && S.undo.c.cmd === c.cmd);
        S.undo = {version, c, asking}; draw();
      }).catch((e) => box.replaceChildren(h("p", {}, e.message)));
      if (!u) return;
    }
    if (!u.c) { box.replaceChildren(h("p", {class: "muted"}, tr("Nothing to take back."))); return; }
    const what = h("strong", {}, words(I18n.text(u.c.text)));
    if (!u.asking) {
      box.replaceChildren(h("p", {}, ...trNodes("Last move: {move}", {move: what})), h("button", {class: "danger", id: "undo",
        onclick: () => { if (S.undo) S.undo.asking = true; render(); }}, tr("Take back the last move…")));
      return;
    }
    box.replaceChildren(h("p", {role: "alert"}, ...trNodes("Take back {move}? Everyone's phone goes back "
      + "to before it.", {move: what})), h("div", {class: "row"}, h("button", {class: "danger solid",
      "data-confirm": "undo", onclick: () => act(async () => {
        await api("POST", `/api/games/${gid()}/undo`, {cmd: u.c.cmd});
        toast(tr("Taken back: {move}.", {move: words(I18n.text(u.c.text))}), true);
      })}, tr("Yes, take it back")), h("button", {onclick: () => { if (S.undo) S.undo.asking = false; render(); }}, tr("Cancel"))));
  };
  draw();
  return box;
}
function bankerTab() {
  const out = [];
  const hw = S.session.hardware;
  /* taking a move back is what a banker reaches for mid-game: first, apart and confirmed */
  out.push(reclaimNotice(), h("section", {class: "careful", "aria-label": tr("Careful")},
    h("h2", {}, tr("Take back or end")), undoBox(), ...(S.view.actions || [])
      .filter((a) => a.type === "end_game").map((a) => dangerView(a, false))),
  h("section", {"aria-label": tr("Join code")},
    h("h2", {}, tr("Join code: {code}", {code: String(S.view.join_code)})),
    h("img", {class: "qr", src: `/api/games/${gid()}/qr.svg`, alt: tr("QR code to join, code {code}",
      {code: String(S.view.join_code)})})),
  seatsSection());
  if (hw) {
    const img = h("img", {class: "oled", alt: tr("The companion's screen"), src: `/api/oled.png?t=${Date.now()}`});
    out.push(h("section", {"aria-label": tr("Screen mirror")}, h("h2", {}, tr("Companion screen")), img,
      h("button", {onclick: () => { img.src = `/api/oled.png?t=${Date.now()}`; }}, tr("Refresh"))));
  }
  if (S.session.simulated) {
    const role = h("input", {id: "tap-role", value: "table"});
    const uid = h("input", {id: "tap-uid", placeholder: tr("e.g. {example}", {example: "04A1B2C3"})});
    out.push(h("section", {"aria-label": tr("Virtual tap")}, h("h2", {}, tr("Virtual tap")),
      h("div", {class: "row"}, h("div", {}, h("label", {for: "tap-role"}, tr("Reader")), role),
        h("div", {}, h("label", {for: "tap-uid"}, tr("Tag number")), uid)),
      h("button", {onclick: () => act(async () => {
        const before = S.view.version;
        await api("POST", "/api/tap", {role: role.value, uid: uid.value, game_id: S.game});
        for (let i = 0; i < 8 && S.view.version <= before; i += 1) {  /* up to 2 s */
          await new Promise((r) => setTimeout(r, 250));
          if (i === 3) await loadView();
        }
        if (S.view.version > before) {
          toast(tr("The table took the tag: {line}", {line: logText((S.view.log || []).slice(-1)[0])}), true);
        } else toast(tr("The table did not act on that tag; its screen says why."));
      })}, tr("Tap"))));
  }
  if (hw) out.push(tableSection());
  const tags = h("div", {});
  const gotTags = fetched("tags", `/api/tags?edition=${encodeURIComponent(S.view.edition || "")}`);
  if (!gotTags.data) tags.append(loading(gotTags));
  else {
    const t = gotTags.data, p = t.progress;
    const ed = S.view.edition || "";
    const running = p && p.enrolling === ed;
    const move = h("input", {type: "checkbox", id: "enroll-move"});
    const toggle = h("button", {id: "enroll-toggle", onclick: () => act(async () => {
      await api("POST", "/api/enrollment", {edition: running ? null : ed, move: move.checked});
      toast(running ? tr("Enrollment stopped.") : tr("Tap each tag on the reader in turn."), true);
      delete S.fetched.tags; render();
    })}, running ? tr("Stop enrolling") : tr("Enroll tags for this edition"));
    const counts = Object.entries(t.enrolled);
    const known = counts.map(([e, n]) => {
      if (e === ed) return tr("{n} for this game", {n});
      return tr("{n} for {edition}", {n, edition: humanize(e)});
    });
    tags.replaceChildren(
      p ? h("p", {id: "enroll-progress"}, running ? tr("{progress}. {prompt}",
        {progress: I18n.text(p.text), prompt: I18n.text(p.prompt)}) : tr("{progress}.",
        {progress: I18n.text(p.text)})) : "",
      h("p", {}, counts.length ? tr("Tags known: {list}", {list: known.join(", ")})
        : tr("No tags known yet.")),
      t.enroll_hook && !running ? h("label", {class: "check", for: "enroll-move"}, move,
        " " + tr("Move tags already enrolled as something else")) : "",
      t.enroll_hook ? toggle : h("p", {class: "muted"}, tr("Enroll tags at the companion "
        + "(companion enroll).")));
  }
  out.push(h("section", {"aria-label": tr("Tags")}, h("h2", {}, tr("Tags")), tags));
  out.push(h("section", {"aria-label": tr("This game")}, h("h2", {}, tr("This game")),
    h("a", {class: "btn", href: `/api/games/${gid()}/export`, download: `game-${S.game}.jsonl`},
      tr("Save the game to a file"))));
  out.push(h("p", {}, h("a", {class: "btn", id: "profiles-link", href: "/profile"},
    tr("Box profiles (board and cards of your box)"))));
  out.push(setupForm(), gamesSection(), displaySection(), h("button", {onclick: () => act(async () => {
    await api("POST", "/api/banker/logout", {}); await loadSession(); S.tab = "table"; render();
  })}, tr("Log out of banker")));
  return out.filter(Boolean);
}

/* the table (readers, buttons, screen) serves one game: which, and how each device is */
function tableSection() {
  const box = h("div", {id: "table-status"});
  const got = fetched("table", "/api/table");
  if (!got.data) box.append(loading(got));
  else {
    const t = got.data;
    const here = t.served && t.served.game_id === S.game;
    box.replaceChildren(
      h("p", {}, here ? tr("The table serves this game.") : t.served
        ? tr("The table serves another game: {game}.", {game: t.served.title})
        : tr("The table serves no game.")),
      here || !t.can_serve ? "" : h("button", {id: "serve-game", onclick: () => act(async () => {
        await api("POST", "/api/table", {game_id: S.game});
        toast(tr("The table now serves this game."), true); delete S.fetched.table; render();
      })}, tr("Serve this game at the table")),
      h("ul", {}, ...t.devices.map((d) => h("li", {class: d.working === false ? "device-missing" : ""},
        d.working === false
          ? tr("{device}: not working, retrying ({message})", {device: I18n.text(d.label || d.name), message: I18n.text(d.message)})
          : tr("{device}: working ({message})", {device: I18n.text(d.label || d.name), message: I18n.text(d.message)})))));
  }
  return h("section", {"aria-label": tr("Table")}, h("h2", {}, tr("Table")), box);
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
    const args = {field: what, min: input.min, max: input.max};
    throw new Error(input.min && input.max ? tr("{field}: enter a whole number from {min} to {max}.", args)
      : input.min ? tr("{field}: enter a whole number from {min}.", args)
        : input.max ? tr("{field}: enter a whole number up to {max}.", args)
          : tr("{field}: enter a whole number.", args));
  }
  return n;
}
function numField(label, value, opts) {
  return h("input", Object.assign({type: "number", inputmode: "numeric", min: 0, step: 1,
    value, "aria-label": label}, opts || {}));
}

/* one control per setting; each reader returns the changed value or undefined */
function settingField(raw) {
  /* the edition's labels are sent in English and marked for the catalogue (N_ in Python) */
  const st = Object.assign({}, raw, {label: I18n.t(raw.label),
    choices: (raw.choices || []).map((c) => Object.assign({}, c, {label: c.label && I18n.t(c.label)})),
    keys: (raw.keys || []).map((k) => Object.assign({}, k, {label: k.label && I18n.t(k.label)}))});
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
      try { v = JSON.parse(el.value); } catch (e) { throw new Error(tr("{field}: not valid JSON.", {field: st.label})); }
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
/* what the card effect editor names: money, spaces, kinds of space, colour groups */
function fxContext(b) {
  const cur = b.currency || {};
  const fmt = (n) => I18n.money({money: n, cur});
  return {money: fmt, spaces: b.effect_spaces, kinds: b.effect_kinds, colors: b.effect_colors};
}
function boardEditor(b, unverified, edition) {
  const unv = new Set(b.unverified || []);
  const dec = b.currency ? b.currency.decimals : 0;
  const cents = dec ? h("p", {class: "muted hint"}, tr("Amounts in hundredths: {amount} is {n}.",
    {amount: I18n.money({money: 750, cur: b.currency}), n: "750"})) : "";
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
  const spaces = h("div", {class: "sp-grid", role: "group", "aria-label": tr("Spaces")},
    h("div", {class: `sp head c${cols.length}`, "aria-hidden": "true"},
      ...cols.map((f) => h("span", {}, upperFirst(fieldWord(f))))));
  for (const sp of b.spaces || []) {
    const row = h("div", {class: `sp c${cols.length}`, title: sp.color_name || sp.color || ""},
      ...cols.map((f) => input("space", sp.id, f, sp[f], tr("{field} of {space}",
        {field: upperFirst(fieldWord(f)), space: sp.name}))));
    const c = String(sp.color || "").replace(/-/g, "");  // "light-blue" -> "lightblue"
    if (/^[a-z]{3,20}$/.test(c) && CSS.supports("color", c)) row.style.setProperty("--c", c);
    spaces.append(row);
  }
  const taxes = (b.taxes || []).map((t) => h("div", {class: "sp tax"},
    h("span", {}, t.name), input("space", t.id, "amount", t.amount, tr("Amount of {space}", {space: t.name}))));
  const decks = {};
  for (const c of b.cards || []) (decks[c.deck] = decks[c.deck] || {title: c.deck_title || c.deck, cards: []}).cards.push(c);
  const deckViews = Object.values(decks).map((d) => h("details", {class: "sub"},
    h("summary", {}, trn("{deck} ({n} card)", "{deck} ({n} cards)", d.cards.length, {deck: d.title})),
    ...d.cards.map((c, i) => {
      const el = h("textarea", {maxlength: 200, rows: 2, "aria-label": tr("{deck} card {n}", {deck: d.title, n: i + 1}),
        class: unv.has("text") ? "unv" : null}, c.text);
      el.dataset.card = c.id;
      rows.push(["card", c.id, "text", el, c.text]);
      const why = h("p", {class: "hint err", "aria-live": "polite"});
      let readFx = () => c.effect;
      const changed = () => {
        let effect;
        try { effect = readFx(); } catch (e) { why.textContent = e.message; return; }
        api("POST", "/api/profiles/check", {edition, name: "setup",
          settings: {board: {cards: {[c.id]: {effect}}}}})
          .then(() => { why.textContent = ""; fx.removeAttribute("aria-invalid"); })
          .catch((e) => { why.textContent = e.message; fx.setAttribute("aria-invalid", "true"); });
      };
      const [fx, read] = Effects.editor(c.effect, b.effects, fxContext(b),
        tr("{deck}, card {n}", {deck: d.title, n: i + 1}), changed);
      readFx = read;
      fx.dataset.effect = c.id;
      rows.push(["card", c.id, "effect", {read, type: "effect"}, Effects.norm(c.effect, b.effects)]);
      return h("div", {class: "card-fx"}, el, fx, why);
    })));
  const anyUnv = unv.size > 0;
  const box = h("details", {id: "setup-board"},
    h("summary", {}, anyUnv ? tr("Board and cards (unverified defaults)") : tr("Board and cards")),
    unverified.length ? h("p", {class: "muted hint"}, tr("Not printed in the rulebook, shipped as "
      + "defaults: {list}. Dashed fields are such defaults: correct them from "
      + "your box. Only changes are sent.", {list: unverified.map(I18n.text).join("; ")}))
      : h("p", {class: "muted hint"}, tr("Only changes are sent.")),
    h("p", {class: "muted hint"}, tr("Corrections here are for this game; save them in a box profile "
      + "to keep them for every game.")),
    cents, cols.length ? spaces : "", taxes.length ? h("h3", {}, tr("Taxes")) : "", ...taxes,
    deckViews.length ? h("h3", {}, tr("Cards")) : "", ...deckViews);
  const read = () => {
    const out = {};
    for (const [kind, id, field, el, def] of rows) {
      let v;
      if (el.type === "effect") {
        v = el.read();
        if (Effects.same(v, def, b.effects)) continue;
      } else if (el.type === "number") {
        v = whole(el, el.getAttribute("aria-label"));
      } else {
        v = el.value.trim();
        if (!v) { el.focus(); throw new Error(tr("{field} cannot be empty.", {field: el.getAttribute("aria-label")})); }
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
  if (S.setupEl) return Keep.standIn(S.setupEl);  // kept across draws: a half-filled form survives
  const ed = h("select", {id: "setup-edition"});
  const players = h("textarea", {id: "setup-players", rows: 3, autocomplete: "off",
    placeholder: tr("One name per line")});
  const tokenBox = h("div", {id: "setup-tokens", "aria-live": "polite"});
  const dice = h("select", {id: "setup-dice"}, h("option", {value: "digital"}, tr("Digital dice")),
    h("option", {value: "physical"}, tr("Physical dice (enter values)")));
  const seed = h("input", {id: "setup-seed", type: "number", inputmode: "numeric",
    value: Math.floor(Math.random() * 1e6)});
  const editionBox = h("div", {id: "setup-edition-box"});
  const settings = h("textarea", {id: "setup-settings", spellcheck: "false", class: "code",
    placeholder: tr("e.g. {example}", {example: '{"board": {"spaces": {"id": {"price": 2}}, "cards": {"id": {"text": "..."}}}}'})});
  const advancedBox = h("div");
  const profile = h("select", {id: "setup-profile"});  // box profiles (profiles branch)
  /* with a profile chosen, its corrections are the game's: the form's board list gives way to
     the profile editor (a new tab, so this half-filled form stays; the game takes the profile
     as saved when it starts) */
  const profileEdit = h("a", {id: "setup-profile-edit", class: "btn", target: "_blank", hidden: true},
    tr("Correct this box's board and cards"));
  const profileChanged = () => {
    profileEdit.hidden = !profile.value;
    profileEdit.href = `/profile?edition=${encodeURIComponent(ed.value)}&name=${encodeURIComponent(profile.value)}`;
    for (const id of ["#setup-board", "#setup-box-language-row"]) {
      const el = editionBox.querySelector(id);
      if (el) el.hidden = !!profile.value;
    }
  };
  profile.addEventListener("change", profileChanged);
  let info = null, readers = [], boardRead = () => undefined, pending = null;
  const chosen = {};  // player name -> token
  const names = () => players.value.split("\n").map((l) => l.trim()).filter(Boolean)
    .map((l) => { const [name, token] = l.split(":").map((x) => x.trim()); return {name, token}; });
  const drawTokens = () => {
    const tokens = info ? info.tokens : [];
    const ps = names();
    if (!ps.length) { tokenBox.replaceChildren(); return; }
    if (!tokens.length) {
      tokenBox.replaceChildren(h("p", {class: "muted hint"}, tr("Tokens: tap each player's token "
        + "on the reader when the game asks.")));
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
      const sel = h("select", {id, "data-player": p.name}, h("option", {value: ""}, tr("No token")),
        ...tokens.map((t) => h("option", {value: t, selected: chosen[p.name] === t},
          I18n.text((info.token_names || {})[t]) || t)));  /* the box's word, in this phone's language */
      sel.addEventListener("change", () => { chosen[p.name] = sel.value; });
      return h("div", {class: "token-row"}, h("label", {for: id}, tr("Token for {player}", {player: p.name})), sel);
    }));
  };
  players.addEventListener("input", drawTokens);
  // Tap tokens on the reader: each enrolled token tapped goes to the next player in the list.
  let tapTimer = null;
  const tapStatus = h("p", {class: "muted hint", "aria-live": "polite"});
  const tapButton = h("button", {type: "button", id: "setup-tap-tokens"}, tr("Tap tokens on the reader"));
  const stopTaps = (text) => {
    clearInterval(tapTimer); tapTimer = null;
    tapButton.textContent = tr("Tap tokens on the reader"); tapStatus.textContent = text || "";
  };
  tapButton.addEventListener("click", () => act(async () => {
    if (tapTimer) { stopTaps(); return; }
    const ps = names();
    if (!ps.length || !info || !info.tokens.length) throw new Error(tr("Name the players first."));
    let next = 0, seen = (await api("GET", "/api/tags/last")).tap;
    seen = seen ? seen.n : 0;
    tapStatus.textContent = tr("{player}: tap your token.", {player: ps[0].name});
    tapButton.textContent = tr("Stop");
    tapTimer = setInterval(async () => {
      let tap;
      try { tap = (await api("GET", "/api/tags/last")).tap; } catch (e) { stopTaps(e.message); return; }
      if (!tap || tap.n <= seen) return;
      seen = tap.n;
      const token = tap.edition === ed.value && tap.object && tap.object.startsWith("token:")
        ? tap.object.slice(6) : null;
      if (!token || !info.tokens.includes(token)) {
        tapStatus.textContent = tr("That tag is not one of this edition's tokens; tap a token.");
        return;
      }
      chosen[ps[next].name] = token; drawTokens(); next += 1;
      if (next >= ps.length) stopTaps(tr("Every player has a token."));
      else tapStatus.textContent = tr("{player}: tap your token.", {player: ps[next].name});
    }, 700);
  }));
  const load = () => {
    info = null; readers = []; boardRead = () => undefined;
    editionBox.replaceChildren(h("p", {class: "muted"}, tr("Loading the edition…")));
    advancedBox.replaceChildren();
    if (!ed.value) return;
    const name = ed.value;
    const none = () => h("option", {value: ""}, tr("None: the edition's defaults"));
    profile.replaceChildren(none());
    profileChanged();
    // the whole list from the answer (two loads in flight must not each add theirs)
    api("GET", `/api/profiles?edition=${encodeURIComponent(name)}`).then((r) => {
      if (ed.value !== name) return;
      const kept = profile.value;
      profile.replaceChildren(none(), ...r.profiles.map((p) => h("option", {value: p.name}, p.name)));
      profile.value = kept;
      profileChanged();
    }).catch(() => {});
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
        const [box, read] = boardEditor(info.board, info.unverified || [], name);
        /* the box's language: its space names and card texts as printed (board.language) */
        const boxLanguage = info.language || "en";  /* the edition's own (one box's is Italian) */
        const lang = h("select", {id: "setup-box-language"},
          ...Object.entries(I18n.languages()).map(([code, own]) =>
            h("option", {value: code, lang: code, selected: code === boxLanguage}, own)));
        boardRead = () => {
          const b = read();
          return lang.value === boxLanguage ? b : {...(b || {}), language: lang.value};
        };
        kids.push(h("div", {id: "setup-box-language-row"}, h("label", {for: "setup-box-language"},
          tr("Language of the box (space names and card texts)")), lang), box);
      } else if ((info.unverified || []).length) {
        kids.push(h("p", {class: "muted hint"}, tr("Not printed in the rulebook, shipped as defaults: "
          + "{list}. Correct them above.", {list: info.unverified.map(I18n.text).join("; ")})));
      }
      editionBox.replaceChildren(...kids);
      advancedBox.replaceChildren(...advanced);
      drawTokens(); profileChanged();
    }).catch((e) => editionBox.replaceChildren(h("p", {}, e.message)));
  };
  ed.addEventListener("change", load);
  /* the editions; asked again when the form opens if an earlier try failed (a phone that
     logged in while the first answer was on its way) */
  let listing = null;  // one ask at a time: a second answer must not undo the banker's choice
  const editions = () => listing || (listing = api("GET", "/api/editions").then((list) => {
    const kept = ed.value;
    ed.replaceChildren(...list.map((e) => h("option", {value: e.name}, e.title)));
    if (kept && list.some((e) => e.name === kept)) ed.value = kept;
    if (!kept || ed.value !== kept) load();
  }).catch((e) => { listing = null; editionBox.replaceChildren(h("p", {}, e.message)); }));
  editions();
  const start = () => act(async () => {
    if (!info && pending) await pending;
    if (!info) throw new Error(tr("Choose an edition first."));
    let form = {};
    for (const [name, read] of readers) {
      const v = read();
      if (v !== undefined) form[name] = v;
    }
    const board = boardRead();
    if (board) form.board = board;
    if (settings.value.trim()) {
      let extra;
      try { extra = JSON.parse(settings.value); } catch (e) { throw new Error(tr("Advanced settings must be JSON.")); }
      if (!isObj(extra)) throw new Error(tr("Advanced settings must be a JSON object."));
      form = merge(form, extra);
    }
    const ps = names().map((p) => ({name: p.name,
      token: info.tokens.length ? chosen[p.name] || "" : p.token || ""}));
    const tokens = ps.map((p) => p.token).filter(Boolean);
    if (new Set(tokens).size < tokens.length) throw new Error(tr("Two players have the same token."));
    const r = await api("POST", "/api/games", {edition: ed.value, players: ps, dice: dice.value,
      seed: Number(seed.value) || 0, ...(profile.value  // a profile's corrections replace the form's
        ? {profile: profile.value, settings: settings.value.trim() ? JSON.parse(settings.value) : {}}
        : {settings: form})});
    S.setupEl = null;
    toast(tr("Game started."), true); await loadSession(); openGame(r.game_id, "banker");
  });
  const editLink = h("a", {href: "/profile"}, tr("edit"));
  S.setupEl = h("details", {id: "setup", class: "opener", "data-keep": "setup", ontoggle: (ev) => {
    if (ev.target.open && !ed.options.length) editions();
  }}, h("summary", {}, tr("New game")),
    h("label", {for: "setup-edition"}, tr("Edition")), ed,
    h("label", {for: "setup-players"}, tr("Players, one name per line")), players, tokenBox,
    h("div", {class: "row"}, tapButton), tapStatus,
    h("label", {for: "setup-dice"}, tr("Dice")), dice,
    h("label", {for: "setup-profile"}, ...trNodes("Box profile (your corrections, {edit})",
      {edit: editLink})), profile, profileEdit,
    editionBox,
    h("label", {for: "setup-seed"}, tr("Seed (shuffles and digital dice)")), seed,
    h("details", {class: "sub"}, h("summary", {}, tr("Advanced")), advancedBox,
      h("label", {for: "setup-settings"}, tr("More settings and corrections (JSON, merged in)")), settings),
    h("button", {class: "primary", onclick: start}, tr("Start the game")));
  return S.setupEl;
}


/* ---- start ---- */
function openGame(id, tab) {
  if (S.game !== id) {
    Keep.forget();
    S.view = null; S.viewJson = null; S.seen = -1; S.fetched = {}; S.seat = null;
  }
  S.game = id; S.tab = tab || "table";
  history.replaceState(null, "", `/?game=${encodeURIComponent(id)}`);
  render(); connect(); keepAwake();
  /* the first picture waits for the seat order too, so colours never change under the eye */
  S.seatPending = true;
  Promise.all([api("GET", `/api/games/${gid()}`).catch(() => null), loadSeat()]).then(([v]) => {
    S.seatPending = false;
    if (v && (!S.view || v.version >= S.view.version)) { S.viewJson = null; showView(v); } else render();
  });
}
/* the banker hears about seat requests, and an asking phone about the banker's yes */
setInterval(() => {
  if (!S.game || document.visibilityState !== "visible") return;
  if (me()) checkSeat();
  if (!(banker() || (S.seat && (S.seat.asking || []).length))) return;
  loadSeat(true);
}, 4000);
async function main() {
  applyPrefs();
  await I18n.load(I18n.wanted());
  $("toast").addEventListener("click", hideToast);
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
