/* A live update never destroys what a person is composing or reading (issue #29).
   Keep.swap(root, kids) puts freshly drawn kids into root, except that:
   - a block (an element with data-keep="key") the person is using stays the very same
     element: a field in it has focus, a field was changed, or a details in it was opened.
     Its field keeps focus, caret and the phone's keyboard; its closures stay its own;
   - a details with data-open="key" keeps the open or closed state the person left it in;
   - the element at the top of the screen (or the focused block) stays where the eye was;
   - a block in use that a draw to another tab leaves out is put aside, and comes back as it
     was when a draw asks for its key again (a trade typed, a look at History, back);
   - the element a finger is pressing stays the very same element until the finger lifts: a
     browser sends a tap nowhere when its press and its release land on two elements, so a
     move arriving mid-tap would otherwise swallow it. It is kept when the fresh tree draws it
     again unchanged (same tag, id, text and block), and is drawn fresh after the tap.
   A kept block moves into the fresh tree along its chain of parents, which are updated in
   place (attributes and children), so the block is never taken out of the document.
   What a kept block marks data-fresh="key" follows the game all the same: a text (a bid's
   range) takes the fresh words; a field takes the fresh attributes (min, max), never its value. */
"use strict";
const Keep = (() => {
  const FIELD = "input:not([type=button]):not([type=submit]):not([type=hidden]), textarea, select";
  const fieldsOf = (block) => block.matches(FIELD) ? [block] : Array.from(block.querySelectorAll(FIELD));
  const changed = (f) => {
    if (f.type === "checkbox" || f.type === "radio") return f.checked !== f.defaultChecked;
    if (f.tagName === "SELECT") {  /* with no option marked, the first is the default */
      const marked = Array.from(f.options).findIndex((o) => o.defaultSelected);
      return f.selectedIndex !== Math.max(0, marked);
    }
    return f.value !== f.defaultValue;
  };
  function engaged(block) {
    const a = document.activeElement;
    if (a && block.contains(a) && a.matches(FIELD)) return true;
    if (fieldsOf(block).some(changed)) return true;
    if (block.tagName === "DETAILS" && block.open) return true;
    return Array.from(block.querySelectorAll("details")).some((d) => d.open);
  }
  const keyed = (root, key) => root.querySelector(`[data-keep="${CSS.escape(key)}"]`);
  const PRESSABLE = "button, summary, a, label, input, select, [role=tab]";
  let pressed = null, pressKept = false;
  const aside = new Map();  /* blocks in use that a draw did not show, by key */
  document.addEventListener("pointerdown", (e) => {
    pressed = e.target instanceof Element ? e.target.closest(PRESSABLE) : null; pressKept = false;
  }, true);
  /* after the finger lifts (and its click ran): true when a draw kept the pressed element, so
     the caller draws again to bring it up to date */
  function release() {
    const kept = pressKept;
    pressed = null; pressKept = false;
    return kept;
  }
  /* the fresh tree's drawing of the pressed element, if it draws it once and unchanged */
  function twin(fresh, el) {
    const block = (e) => {
      const b = e.parentElement && e.parentElement.closest("[data-keep]");
      return b ? b.dataset.keep : "";
    };
    const found = Array.from(fresh.querySelectorAll(el.tagName)).filter((e) => e.id === el.id
      && e.textContent === el.textContent && block(e) === block(el));
    return found.length === 1 ? found[0] : null;
  }
  /* the element the eye is on: the focused block, else the first marked one on screen */
  function anchor(root) {
    if (window.scrollY <= 0) return null;
    const a = document.activeElement;
    let el = a && a !== root && root.contains(a) ? a.closest("[data-keep],[data-anchor]") : null;
    if (!el) {
      el = Array.from(root.querySelectorAll("[data-keep],[data-anchor]"))
        .find((e) => e.getBoundingClientRect().bottom > 0);
    }
    if (!el) return null;
    return {sel: el.dataset.keep !== undefined ? `[data-keep="${CSS.escape(el.dataset.keep)}"]`
      : `[data-anchor="${CSS.escape(el.dataset.anchor)}"]`, top: el.getBoundingClientRect().top};
  }
  function copyAttributes(old, neu) {
    for (const at of Array.from(old.attributes)) if (!neu.hasAttribute(at.name)) old.removeAttribute(at.name);
    for (const at of Array.from(neu.attributes)) {
      if (old.getAttribute(at.name) !== at.value) old.setAttribute(at.name, at.value);
    }
  }
  /* old (in the document) takes neu's attributes and children; kept nodes stay put */
  function adopt(old, neu, pairs, blocks, isRoot) {
    if (!isRoot) copyAttributes(old, neu);
    const want = Array.from(neu.childNodes).map((c) => {
      if (!pairs.has(c)) return c;
      const o = pairs.get(c);
      if (!blocks.has(c)) adopt(o, c, pairs, blocks, false);
      return o;
    });
    const wanted = new Set(want);
    for (const c of Array.from(old.childNodes)) if (!wanted.has(c)) c.remove();
    let ref = old.firstChild;
    for (const c of want) {
      if (c === ref) ref = ref.nextSibling;
      else old.insertBefore(c, ref);
    }
  }
  function refresh(old, neu) {
    for (const el of neu.querySelectorAll("[data-fresh]")) {
      const was = old.querySelector(`[data-fresh="${CSS.escape(el.dataset.fresh)}"]`);
      if (!was || was.tagName !== el.tagName) continue;
      if (was.matches(FIELD)) {
        for (const at of Array.from(el.attributes)) {
          if (at.name !== "value" && was.getAttribute(at.name) !== at.value) was.setAttribute(at.name, at.value);
        }
      } else if (was.textContent !== el.textContent) {
        copyAttributes(was, el); was.replaceChildren(...el.childNodes);
      }
    }
  }
  function swap(root, kids, leaving = false) {
    const fresh = document.createElement("div");
    fresh.append(...kids.filter(Boolean));
    /* blocks to keep: the outermost engaged ones, and any the fresh tree stands in for */
    const keepers = [];
    for (const el of root.querySelectorAll("[data-keep]")) {
      if (keepers.some((k) => k.contains(el))) continue;
      const stand = keyed(fresh, el.dataset.keep);
      if (engaged(el) || (stand && stand.hasAttribute("data-standin"))) keepers.push(el);
    }
    const twins = new Map(keepers.map((old) => [old, keyed(fresh, old.dataset.keep)]));
    if (leaving) for (const [old, neu] of twins) if (!neu) aside.set(old.dataset.keep, old);
    for (const [key, old] of aside) {  /* back from another tab: as it was left */
      const neu = keyed(fresh, key);
      if (!neu || root.contains(old)) continue;
      neu.replaceWith(old); aside.delete(key);
    }
    if (pressed && root.contains(pressed)
        && !keepers.some((k) => k.contains(pressed) || pressed.contains(k))) {
      const neu = twin(fresh, pressed);
      if (neu) { keepers.push(pressed); twins.set(pressed, neu); }
    }
    const opened = {};
    for (const d of root.querySelectorAll("details[data-open]")) opened[d.dataset.open] = d.open;
    for (const d of fresh.querySelectorAll("details[data-open]")) {
      if (d.dataset.open in opened) d.open = opened[d.dataset.open];
    }
    const eye = anchor(root);
    const pairs = new Map(), blocks = new Set();
    for (const old of keepers) {
      const neu = twins.get(old);
      if (!neu) continue;
      const chain = [];
      let o = old, n = neu;
      while (n !== fresh && o && o !== root && o.tagName === n.tagName) {
        chain.push([n, o]); n = n.parentNode; o = o.parentNode;
      }
      if (n !== fresh || o !== root || chain.some(([a, b]) => pairs.has(a) && pairs.get(a) !== b)) continue;
      for (const [a, b] of chain) pairs.set(a, b);
      blocks.add(neu);
      refresh(old, neu);
      if (old === pressed) pressKept = true;
    }
    adopt(root, fresh, pairs, blocks, true);
    if (eye) {
      const el = root.querySelector(eye.sel);
      if (el) window.scrollBy(0, el.getBoundingClientRect().top - eye.top);
    }
  }
  /* a node that lives across draws (a form kept in memory): while it is on the page, the
     fresh tree holds a stand-in and the node itself stays where it is */
  function standIn(node) {
    if (!node.isConnected) return node;
    const el = document.createElement(node.tagName);
    el.dataset.keep = node.dataset.keep; el.setAttribute("data-standin", "");
    return el;
  }
  /* a block whose content was sent: back to as drawn, so the next draw replaces it (sending) */
  function reset(block) {
    const a = document.activeElement;
    if (a && block.contains(a)) a.blur();
    for (const f of fieldsOf(block)) {
      if (f.type === "checkbox" || f.type === "radio") f.checked = f.defaultChecked;
      else if (f.tagName === "SELECT") for (const o of f.options) o.selected = o.defaultSelected;
      else f.value = f.defaultValue;
    }
    for (const d of block.querySelectorAll("details")) d.open = false;
    if (block.tagName === "DETAILS") block.open = false;
  }
  /* a block whose content is being sent: the function returned, called once the answer has
     come, resets it unless the person has used it again meanwhile. On slow Wi-Fi the live
     update of a move comes before its answer and may draw the same form again (doubles: the
     next roll), kept as it was; the dice typed into it then are the next roll's, not this one's */
  function sending(block) {
    if (!block) return () => {};
    const look = () => [document.activeElement,
      ...fieldsOf(block).map((f) => (f.type === "checkbox" || f.type === "radio") ? f.checked : f.value)];
    const was = look();
    return () => {
      const now = look();
      if (now.every((x, i) => x === was[i])) reset(block);
    };
  }
  /* another game: nothing put aside belongs to it */
  function forget() { aside.clear(); }
  return {swap, standIn, sending, release, forget};
})();
window.Keep = Keep;
