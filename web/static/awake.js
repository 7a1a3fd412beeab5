/* The screen stays on while a game is open, and "your turn" is heard and seen on any phone.
   navigator.wakeLock exists only in a secure context (https, localhost); the table's page is
   plain http by name or address, where a muted, looping, inline video keeps phones awake (the
   known fallback; the two tiny films are NoSleep.js's, MIT: vendor/nosleep.LICENSE). A phone
   lets a video play, and audio sound, once the person has tapped: Awake.tap() runs on taps. */
"use strict";
const Awake = (() => {
  let lock = null, video = null, audio = null, unplayable = null;
  function film() {
    const v = document.createElement("video");
    v.setAttribute("playsinline", ""); v.setAttribute("muted", ""); v.setAttribute("loop", "");
    v.setAttribute("aria-hidden", "true"); v.setAttribute("title", "Keeps the screen on");
    v.muted = true; v.loop = true; v.className = "awake";
    for (const [kind, type] of [["webm", "video/webm"], ["mp4", "video/mp4"]]) {
      const src = document.createElement("source");
      src.src = `/static/vendor/awake.${kind}`; src.type = type; v.append(src);
    }
    /* play() stays pending for ever when no film can load (a missing file): answer then too */
    unplayable = new Promise((resolve) => {
      v.lastElementChild.addEventListener("error", () => resolve(null));
    });
    /* iOS lets a looping video sleep the screen at its end: keep it mid-film */
    v.addEventListener("timeupdate", () => { if (v.currentTime > 0.5) v.currentTime = Math.random() * 0.5; });
    document.body.append(v);
    return v;
  }
  /* keep the screen on (again: a hidden page loses the lock and pauses the film) */
  async function on() {
    if (window.isSecureContext && navigator.wakeLock) {
      if (lock && !lock.released) return "lock";
      try { lock = await navigator.wakeLock.request("screen"); return "lock"; } catch (e) { lock = null; }
    }
    video = video || film();
    if (playing()) return "video";
    try { return await Promise.race([video.play().then(() => "video"), unplayable]); }
    catch (e) { return null; }  /* before a tap */
  }
  /* a film keeps the screen on only once it has frames to show, not merely asked to play */
  const playing = () => video && !video.paused && video.readyState >= HTMLMediaElement.HAVE_CURRENT_DATA;
  function off() {
    if (lock && !lock.released) lock.release().catch(() => {});
    lock = null;
    if (video) video.pause();
  }
  const state = () => (lock && !lock.released ? "lock" : playing() ? "video" : null);
  /* a short two-tone chime; the context is made on a tap so that it may sound later */
  function chime() {
    try {
      audio = audio || new (window.AudioContext || window.webkitAudioContext)();
      if (audio.state === "suspended") audio.resume();
      [660, 880].forEach((f, i) => {
        const o = audio.createOscillator(), g = audio.createGain(), t = audio.currentTime + i * 0.16;
        o.frequency.value = f; g.gain.value = 0.12; o.connect(g); g.connect(audio.destination);
        o.start(t); o.stop(t + 0.14);
      });
    } catch (e) { /* no audio on this phone */ }
  }
  function unlockAudio() {
    try {
      audio = audio || new (window.AudioContext || window.webkitAudioContext)();
      if (audio.state === "suspended") audio.resume();
    } catch (e) { /* no audio */ }
  }
  return {on, off, state, chime, unlockAudio};
})();
window.Awake = Awake;
