/* Read aloud, for the youngest players (docs/web.md, "Read aloud"): a switch kept on this
   phone, off until its reader turns it on, that speaks what happens at the table in the
   phone's language with the browser's own speech synthesis (speechSynthesis: nothing asked of
   the companion, works over plain http). The main page (app.js) asks this module for:
   - ReadAloud.setting(): the switch in the Phone tab, saying when this phone has no voice
     for its language (then nothing is spoken: a voice of another language would garble it);
   - ReadAloud.say(lines): speak these lines, each {text, lang} (the page's rendered words:
     lang is the phone's, or "en" for a line an old game stored as English). */
"use strict";
const ReadAloud = (() => {
  const KEY = "companion.readAloud";
  const T = () => ({
    label: tr("Read aloud what happens at the table"),
    on: tr("Reading aloud is on."),
    noVoice: tr("This phone has no voice for this language: add one in its text-to-speech settings."),
    noSpeech: tr("This browser cannot read aloud."),
  });
  const synth = () => window.speechSynthesis || null;
  const on = () => { try { return localStorage.getItem(KEY) === "on"; } catch (e) { return false; } };
  const base = (tag) => String(tag || "").toLowerCase().replace("_", "-").split("-")[0];
  /* the phone's voice for ``lang``; null when none: undefined while the list is not known yet
     (some browsers fill it a moment after the page loads) */
  function voice(lang) {
    const s = synth();
    const all = s ? s.getVoices() : [];
    if (!all.length) return undefined;
    return all.find((v) => base(v.lang) === base(lang) && v.default)
      || all.find((v) => base(v.lang) === base(lang)) || null;
  }
  function speak(text, lang) {
    const s = synth(), v = voice(lang);
    if (!s || !text || v === null) return;
    const u = new SpeechSynthesisUtterance(text);
    u.lang = v ? v.lang : lang;
    if (v) u.voice = v;
    s.speak(u);
  }
  function say(lines) {
    if (!on()) return;
    for (const line of lines) speak(line.text, line.lang || I18n.lang());
  }
  /* the voices arrive late on some browsers: the switch's words follow */
  let explainNow = null;
  if (synth() && synth().addEventListener) {
    synth().addEventListener("voiceschanged", () => { if (explainNow) explainNow(); });
  }
  function setting() {
    const s = synth();
    const el = h("input", {type: "checkbox", id: "pref-aloud", checked: on() && !!s, disabled: !s,
      "aria-describedby": "pref-aloud-hint"});
    const hint = h("p", {class: "muted hint", id: "pref-aloud-hint", "aria-live": "polite"});
    const explain = () => {
      hint.textContent = !s ? T().noSpeech : voice(I18n.lang()) === null ? T().noVoice : "";
      hint.hidden = !hint.textContent;
    };
    el.addEventListener("change", () => {
      try { localStorage.setItem(KEY, el.checked ? "on" : "off"); } catch (e) { /* private mode */ }
      if (el.checked) { s.cancel(); speak(T().on, I18n.lang()); }  /* a tap: lets iPhones speak later */
      else if (s) s.cancel();
      explain();
    });
    explainNow = explain;
    explain();
    return h("div", {}, h("label", {class: "check", for: el.id}, el, T().label), hint);
  }
  return {setting, say};
})();
window.ReadAloud = ReadAloud;
