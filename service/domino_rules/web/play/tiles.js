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
