// Drawing dominoes and dice as SVG: tiles with pips (red pips on Chinese tiles), dice,
// and a line of tiles laid as a snake that turns at the edge of the table.

const NS = "http://www.w3.org/2000/svg";

/** An SVG element with attributes and children. */
export function el(tag, attrs = {}, children = []) {
  const node = document.createElementNS(NS, tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value !== undefined && value !== null) node.setAttribute(key, String(value));
  }
  for (const child of children) node.append(child);
  return node;
}

// Pip places in a square half of 100 x 100 units.
const SPOT = {
  TL: [27, 27], TC: [50, 27], TR: [73, 27],
  ML: [27, 50], C: [50, 50], MR: [73, 50],
  BL: [27, 73], BC: [50, 73], BR: [73, 73],
};
const LAYOUT = {
  0: [],
  1: ["C"],
  2: ["TL", "BR"],
  3: ["TL", "C", "BR"],
  4: ["TL", "TR", "BL", "BR"],
  5: ["TL", "TR", "C", "BL", "BR"],
  6: ["TL", "TR", "ML", "MR", "BL", "BR"],
  7: ["TL", "TR", "ML", "C", "MR", "BL", "BR"],
  8: ["TL", "TC", "TR", "ML", "MR", "BL", "BC", "BR"],
  9: ["TL", "TC", "TR", "ML", "C", "MR", "BL", "BC", "BR"],
};

/**
 * How many pips of a half are red on a Chinese tile: every pip of a 1 or a 4; half of
 * a 6 on [6-6] (or on every tile, with `allSixes`). `red` is false for Western tiles.
 */
function redSpots(pips, spots, red, isDouble) {
  if (!red) return new Set();
  if (pips === 1 || pips === 4) return new Set(spots);
  if (pips === 6 && (red === "all" || isDouble)) return new Set(["TL", "ML", "BL"]);
  return new Set();
}

/** One half: pips (or a numeral past 9) in a 100 x 100 square at (x, y). */
function half(pips, x, y, across, red, isDouble) {
  const g = el("g", { transform: `translate(${x} ${y})` });
  if (pips > 9) {
    g.append(el("text", { x: 50, y: 52, class: "pip-number" }, [String(pips)]));
    return g;
  }
  const spots = LAYOUT[pips];
  const reds = redSpots(pips, spots, red, isDouble);
  const radius = pips > 6 ? 8.5 : pips === 1 ? 12 : 10;
  for (const spot of spots) {
    let [cx, cy] = SPOT[spot];
    if (across) [cx, cy] = [cy, cx]; // on a tile lying across, a six shows two rows of three
    g.append(el("circle", { cx, cy, r: radius, class: reds.has(spot) ? "pip red" : "pip" }));
  }
  return g;
}

/**
 * A tile as an SVG group in tile units: 100 x 200 upright (`first` on top), 200 x 100
 * lying across (`first` on the left). `red`: false, true (Chinese: 1s and 4s, [6-6]'s
 * sixes) or "all" (every six half red). `mark`: {first|second: class} outlines a half;
 * `last` paints it as the tile laid last.
 */
export function tileGroup(first, second, { across = false, red = false, mark = {}, last = false } = {}) {
  const isDouble = first === second;
  const w = across ? 200 : 100;
  const h = across ? 100 : 200;
  const g = el("g", { class: last ? "tile last" : "tile" });
  g.append(el("rect", { x: 3, y: 3, width: w - 6, height: h - 6, rx: 14, class: "face" }));
  g.append(
    across
      ? el("line", { x1: 100, y1: 16, x2: 100, y2: 84, class: "divider" })
      : el("line", { x1: 16, y1: 100, x2: 84, y2: 100, class: "divider" }),
  );
  g.append(half(first, 0, 0, across, red, isDouble));
  g.append(half(second, across ? 100 : 0, across ? 0 : 100, across, red, isDouble));
  for (const [which, cls] of Object.entries(mark)) {
    const second_ = which === "second";
    const x = across && second_ ? 100 : 0;
    const y = !across && second_ ? 100 : 0;
    g.append(el("rect", { x: x + 8, y: y + 8, width: 84, height: 84, rx: 10, class: `mark ${cls}` }));
  }
  return g;
}

/** A standalone tile picture; `size` is the width of a half in CSS pixels. */
export function tileSvg(first, second, { size = 28, across = false, red = false, mark = {}, label, last = false } = {}) {
  const w = across ? 200 : 100;
  const h = across ? 100 : 200;
  const node = el("svg", {
    viewBox: `0 0 ${w} ${h}`,
    width: (w / 100) * size,
    height: (h / 100) * size,
    class: "tile-svg",
    focusable: "false",
  });
  if (label) {
    node.setAttribute("role", "img");
    node.setAttribute("aria-label", label);
  } else {
    node.setAttribute("aria-hidden", "true");
  }
  node.append(tileGroup(first, second, { across, red, mark, last }));
  return node;
}

const DIE = {
  1: ["C"],
  2: ["TL", "BR"],
  3: ["TL", "C", "BR"],
  4: ["TL", "TR", "BL", "BR"],
  5: ["TL", "TR", "C", "BL", "BR"],
  6: ["TL", "TR", "ML", "MR", "BL", "BR"],
};

/** A die showing `n`. */
export function dieSvg(n, size = 34) {
  const node = el("svg", {
    viewBox: "0 0 100 100",
    width: size,
    height: size,
    class: "die",
    role: "img",
    "aria-label": `die showing ${n}`,
    focusable: "false",
  });
  node.append(el("rect", { x: 4, y: 4, width: 92, height: 92, rx: 16, class: "die-face" }));
  for (const spot of DIE[n] || []) {
    const [cx, cy] = SPOT[spot];
    node.append(el("circle", { cx, cy, r: 9, class: "die-pip" }));
  }
  return node;
}

/**
 * A line of tiles laid end to end as a snake: across, left to right, then down at the
 * table's edge and back right to left, and so on. `tiles` are {first, second}, `first`
 * the half touching the tile before. `width` is the space in pixels, `size` a half's
 * side. `marks` maps a tile's index to {first|second: class}; `last` lists the indices of
 * the tiles laid last (painted so, each in a group of its own that can be animated);
 * `ends` maps a tile's index to the name of the open end it holds (its group's
 * `data-open-end`). A line wider than `width` in one row (`row: true`) does not turn.
 */
export function snakeSvg(tiles, { width, size = 20, red = false, marks = {}, label = "", last = [], ends = {}, row = false }) {
  const u = size;
  const room = row ? Infinity : Math.max(width, 6 * u);
  const placed = [];
  let x = 0;
  let y = 0;
  let dir = 1;
  tiles.forEach((tile, i) => {
    if (i === 0) {
      placed.push({ tile, x: 0, y: 0, across: true, flip: false });
      x = 2 * u;
      return;
    }
    if (dir === 1) {
      if (x + 2 * u <= room) {
        placed.push({ tile, x, y, across: true, flip: false });
        x += 2 * u;
      } else {
        placed.push({ tile, x: x - u, y: y + u, across: false, flip: false });
        x -= u;
        y += 2 * u;
        dir = -1;
      }
    } else if (x - 2 * u >= 0) {
      placed.push({ tile, x: x - 2 * u, y, across: true, flip: true });
      x -= 2 * u;
    } else {
      placed.push({ tile, x, y: y + u, across: false, flip: false });
      x += u;
      y += 2 * u;
      dir = 1;
    }
  });
  let height = u;
  let right = 2 * u;
  for (const p of placed) {
    height = Math.max(height, p.y + (p.across ? u : 2 * u));
    right = Math.max(right, p.x + (p.across ? 2 * u : u));
  }
  const node = el("svg", {
    viewBox: `-2 -2 ${right + 4} ${height + 4}`,
    width: right + 4,
    height: height + 4,
    class: "snake",
    focusable: "false",
  });
  if (label) {
    node.setAttribute("role", "img");
    node.setAttribute("aria-label", label);
  } else {
    node.setAttribute("aria-hidden", "true"); // a part of a picture named as a whole
  }
  placed.forEach((p, i) => {
    const { first, second } = p.tile;
    const mark = { ...(marks[i] || {}) };
    // lying right to left, the touching half is drawn on the right
    const [a, b] = p.flip ? [second, first] : [first, second];
    if (p.flip) {
      const swapped = {};
      if (mark.first) swapped.second = mark.first;
      if (mark.second) swapped.first = mark.second;
      Object.assign(mark, { first: undefined, second: undefined }, swapped);
      for (const key of Object.keys(mark)) if (!mark[key]) delete mark[key];
    }
    const g = tileGroup(a, b, { across: p.across, red, mark, last: last.includes(i) });
    g.setAttribute("transform", `translate(${p.x} ${p.y}) scale(${u / 100})`);
    if (last.includes(i) || ends[i]) {
      // a group of its own: a CSS transform on it leaves the tile's placement alone
      const wrap = el("g", { class: "laid", "data-index": i, "data-open-end": ends[i] });
      if (last.includes(i)) wrap.setAttribute("data-last", "");
      wrap.append(g);
      node.append(wrap);
    } else {
      node.append(g);
    }
  });
  return node;
}

/** The length along its arm of the "+n" mark that stands for tiles not drawn (px): in
 * the line, and in UP and DOWN (where the mark is a tile's width across). */
const GAP = 30;
const GAP_UP = 22;

/** The space an arm's tiles take along it: a tile lying along the arm 2 halves, a double
 * (lying crosswise) 1. */
const along = (tile, u) => (tile.inner === tile.outer ? u : 2 * u);

/** The tiles of an arm (from the centre outwards) drawn within `room` pixels along it: all
 * of them, or the outermost ones (the end always) behind a "+n" mark for the `hidden`
 * ones nearer the centre. */
function fitArm(tiles, room, u, gap = GAP) {
  const total = tiles.reduce((sum, t) => sum + along(t, u), 0);
  if (total <= room) return { shown: tiles, hidden: 0 };
  let used = gap;
  let k = tiles.length;
  while (k > 0 && (k === tiles.length || used + along(tiles[k - 1], u) <= room)) {
    used += along(tiles[k - 1], u);
    k -= 1;
  }
  return { shown: tiles.slice(k), hidden: k };
}

/** Room shared between two arms on either side of the centre: each gets what it needs if
 * both fit, else the shorter keeps what it needs and the longer the rest. */
function share(needA, needB, room) {
  if (needA + needB <= room) return [needA, needB];
  const half = room / 2;
  if (needA <= half) return [needA, room - needA];
  if (needB <= half) return [room - needB, needB];
  return [half, half];
}

/**
 * A layout laid as a cross: a line left to right through a spinner, and the spinner's UP
 * and DOWN arms above and below it; every double lies crosswise to its arm (standing in
 * the line, lying across in UP and DOWN). `cross.spinner` is the spinner's pip (or
 * undefined: then `cross.row` is the whole line, left to right, as {inner: left pip,
 * outer: right pip}); `left`, `right`, `up` and `down` list each arm's tiles from the
 * spinner outwards as {inner, outer} (the pip facing the spinner, the pip facing away).
 * Any tile (the spinner's in `cross.spinnerTile`) may carry `ends` (the open ends it holds: its
 * group gets `data-open-end`, its outer half an outline of class `<name>-end`, both halves
 * for a double; "open" where it holds several) and `last` (laid by the last move).
 *
 * The drawing stays within `width` x `height` pixels where it can (the spinner and each
 * arm's end tile are always drawn): an arm too long for its share shows its outermost
 * tiles and a "+n" mark for the n tiles between them and the spinner; a line without a
 * spinner shows its two ends and a mark for its middle. Returns {svg, hidden}: hidden is
 * how many tiles are not drawn.
 */
export function crossSvg(cross, { size = 33, width = Infinity, height = Infinity, red = false, label = "" }) {
  const u = size;
  const tiles = [];
  const gaps = [];
  let hidden = 0;
  /** Place a tile: `across` lying left to right, else standing; `first` left or on top;
   * `outer` the half ("first" or "second") an end of the tile is at. */
  const put = (tile, x, y, across, first, second, outer) => tiles.push({ tile, x, y, across, first, second, outer });
  const gap = (n, x, y, w, hgt) => {
    hidden += n;
    gaps.push({ n, x, y, w, h: hgt });
  };
  if (cross.spinner === undefined) {
    // one line, left to right: its ends, and its middle as a mark where it does not fit
    const row = cross.row;
    const total = row.reduce((sum, t) => sum + along(t, u), 0);
    let head = row;
    let tail = [];
    if (total > width) {
      const room = (width - GAP) / 2; // the mark between them counted here, once
      const fromLeft = fitArm([...row].reverse(), room, u, 0);
      const headLength = fromLeft.shown.reduce((sum, t) => sum + along(t, u), 0);
      const fromRight = fitArm(row.slice(fromLeft.shown.length), width - GAP - headLength, u, 0);
      head = [...fromLeft.shown].reverse();
      tail = fromRight.shown;
      if (head.length + tail.length >= row.length) {
        head = row;
        tail = [];
      }
    }
    let x = 0;
    const lay = (t) => {
      const outer = (t.ends || []).includes("left") ? "first" : "second";
      if (t.inner === t.outer) {
        put(t, x, -u, false, t.inner, t.outer, outer);
        x += u;
      } else {
        put(t, x, -u / 2, true, t.inner, t.outer, outer);
        x += 2 * u;
      }
    };
    head.forEach(lay);
    if (tail.length) {
      gap(row.length - head.length - tail.length, x, -0.35 * u, GAP, 0.7 * u);
      x += GAP;
      tail.forEach(lay);
    }
  } else {
    const s = cross.spinner;
    put(cross.spinnerTile || {}, -u / 2, -u, false, s, s, "first");
    // the line: the room beside the spinner (a double lying across UP or DOWN reaches
    // half a tile further out on each side)
    const need = (arm) => arm.reduce((sum, t) => sum + along(t, u), 0);
    const across = [...cross.up, ...cross.down].some((t) => t.inner === t.outer) ? 2 * u : u;
    const [leftRoom, rightRoom] = share(need(cross.left), need(cross.right), width - across);
    const [upRoom, downRoom] = share(need(cross.up), need(cross.down), height - 2 * u);
    const arm = (list, room, place, mark, gapLength = GAP) => {
      const fit = fitArm(list, room, u, gapLength);
      let at = 0; // how far from the spinner's side
      if (fit.hidden) {
        mark(fit.hidden, at);
        at += gapLength;
      }
      for (const t of fit.shown) {
        place(t, at);
        at += along(t, u);
      }
    };
    const dbl = (t) => t.inner === t.outer;
    arm(cross.left, leftRoom,
      (t, at) => (dbl(t) ? put(t, -u / 2 - at - u, -u, false, t.inner, t.inner, "first")
        : put(t, -u / 2 - at - 2 * u, -u / 2, true, t.outer, t.inner, "first")),
      (n, at) => gap(n, -u / 2 - at - GAP, -0.35 * u, GAP, 0.7 * u));
    arm(cross.right, rightRoom,
      (t, at) => (dbl(t) ? put(t, u / 2 + at, -u, false, t.inner, t.inner, "second")
        : put(t, u / 2 + at, -u / 2, true, t.inner, t.outer, "second")),
      (n, at) => gap(n, u / 2 + at, -0.35 * u, GAP, 0.7 * u));
    arm(cross.up, upRoom,
      (t, at) => (dbl(t) ? put(t, -u, -u - at - u, true, t.inner, t.inner, "first")
        : put(t, -u / 2, -u - at - 2 * u, false, t.outer, t.inner, "first")),
      (n, at) => gap(n, -u / 2, -u - at - GAP_UP, u, GAP_UP), GAP_UP);
    arm(cross.down, downRoom,
      (t, at) => (dbl(t) ? put(t, -u, u + at, true, t.inner, t.inner, "second")
        : put(t, -u / 2, u + at, false, t.inner, t.outer, "second")),
      (n, at) => gap(n, -u / 2, u + at, u, GAP_UP), GAP_UP);
  }
  let [left, top, right, bottom] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const p of tiles) {
    left = Math.min(left, p.x);
    top = Math.min(top, p.y);
    right = Math.max(right, p.x + (p.across ? 2 * u : u));
    bottom = Math.max(bottom, p.y + (p.across ? u : 2 * u));
  }
  for (const g of gaps) {
    left = Math.min(left, g.x);
    top = Math.min(top, g.y);
    right = Math.max(right, g.x + g.w);
    bottom = Math.max(bottom, g.y + g.h);
  }
  const node = el("svg", {
    viewBox: `${left - 2} ${top - 2} ${right - left + 4} ${bottom - top + 4}`,
    width: right - left + 4,
    height: bottom - top + 4,
    class: "cross",
    focusable: "false",
  });
  if (label) {
    node.setAttribute("role", "img");
    node.setAttribute("aria-label", label);
  } else {
    node.setAttribute("aria-hidden", "true");
  }
  for (const p of tiles) {
    const ends = p.tile.ends || [];
    const mark = {};
    if (ends.length) {
      const cls = ends.length === 1 ? `${ends[0]}-end` : "open";
      const spinner = cross.spinner !== undefined && p === tiles[0];
      // the spinner's UP end is its top half, its DOWN end its bottom half; a double end
      // shows both its halves; a lone tile of a line both its ends
      if (spinner && (ends.includes("up") || ends.includes("down"))) {
        if (ends.includes("up")) mark.first = "up-end";
        if (ends.includes("down")) mark.second = "down-end";
      } else if (p.first === p.second) Object.assign(mark, { first: cls, second: cls });
      else if (ends.includes("left") && ends.includes("right")) Object.assign(mark, { first: "left-end", second: "right-end" });
      else mark[p.outer] = cls;
    }
    const g = tileGroup(p.first, p.second, { across: p.across, red, mark, last: Boolean(p.tile.last) });
    g.setAttribute("transform", `translate(${p.x} ${p.y}) scale(${u / 100})`);
    if (p.tile.last || ends.length) {
      const wrap = el("g", { class: "laid", "data-open-end": ends.length ? ends.join(" ") : undefined });
      if (p.tile.last) wrap.setAttribute("data-last", "");
      wrap.append(g);
      node.append(wrap);
    } else {
      node.append(g);
    }
  }
  for (const g of gaps) {
    node.append(el("g", { class: "gap" }, [
      el("rect", { x: g.x + 1, y: g.y + 1, width: g.w - 2, height: g.h - 2, rx: 6 }),
      el("text", { x: g.x + g.w / 2, y: g.y + g.h / 2 }, [`+${g.n}`]),
    ]));
  }
  return { svg: node, hidden };
}
