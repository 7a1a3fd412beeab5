/* Live updates: the stream sends the whole view once, then patches (see web/events.py).
   Live.apply(base, ops) returns a new view; containers on a changed path are copied, the
   rest is shared, so the view the page holds is never changed under it. */
"use strict";
const Live = (() => {
  const copy = (x) => (Array.isArray(x) ? x.slice() : Object.assign({}, x));
  function apply(base, ops) {
    let root = base;
    for (const op of ops) {
      const [kind, path] = op;
      if (!path.length) {
        if (kind === "s") { root = op[2]; continue; }
        root = copy(root);
      } else {
        root = copy(root);
      }
      let parent = root;
      const last = path.length ? path[path.length - 1] : null;
      for (let i = 0; i < path.length - 1; i++) {
        parent[path[i]] = copy(parent[path[i]]);
        parent = parent[path[i]];
      }
      if (kind === "s") { parent[last] = op[2]; continue; }
      if (kind === "d") { if (Array.isArray(parent)) parent.splice(last, 1); else delete parent[last]; continue; }
      if (kind !== "l") throw new Error("unknown patch operation " + kind);
      let list;
      if (path.length) { list = parent[last] = parent[last].slice(); } else { list = root; }
      list.splice(0, op[2]);
      list.push(...op[3]);
    }
    return root;
  }
  /* One stream's state: hand every `view` and `patch` event to follow(ev), get the current
     view back, or null when a patch does not fit (the caller reconnects for a whole view). */
  function follower() {
    let view = null;
    return {
      view: (ev) => { view = JSON.parse(ev.data); return view; },
      patch: (ev) => {
        const p = JSON.parse(ev.data);
        if (!view || view.version !== p.from) { view = null; return null; }
        view = apply(view, p.ops);
        return view;
      },
    };
  }
  return {apply, follower};
})();
window.Live = Live;
