// The trains games' tables: TRAINS (trains from a hub, one per seat and the Mexican train,
// with markers and the doubles to satisfy) and FEET (arms from the centre double and from
// each later double, the foot, with its three toes). Each is a layout entry of play.js's
// LAYOUTS ({table, guide, squeezes}, and the words of a move and of an event that name a
// train or an arm); it reads only its layout's table fields and the scene play.js gives it.
//
// A train or an arm is a row of tiles from the hub (or its foot) outwards. A row longer
// than its room shows its first tile and its last ones, with the number between; the whole
// layout is then drawn in full below the hand, under "The whole layout". `[data-open-end]`
// marks the end of each train or arm the person may lay on now.

import { el, snakeSvg, tileSvg } from "./tiles.js";

/** The layout entries, drawn with play.js's helpers (`ctx`): h, scene, act, plural,
 * listWords, capital, red, narrow, tableWidth, live, squeeze (the window's squeeze, a
 * function), laidTiles. */
export function trainLayouts(ctx) {
  const { h, scene, act, plural, listWords, capital } = ctx;
  const tileName = (tile) => `${tile.high}-${tile.low}`;
  const bracket = (tile) => `[${tileName(tile)}]`;
  const isDouble = (laid) => laid.left === laid.right;
  const has = (value) => value !== undefined && value !== null;

  // ---------------------------------------------------------------- names

  /** A train by its number in words: "your train", "Seat 2's train", "the Mexican train"
   * ([MT-5]: a seat's train is its seat, the Mexican train is P). */
  function trainName(train) {
    const { players, seat } = scene();
    if (train === players) return "the Mexican train";
    if (train === seat) return "your train";
    return `Seat ${train}'s train`;
  }

  const armName = (arm) => `arm ${arm}`;

  /** The person's legal plays, by train or arm number (none while another seat acts). */
  function playsByTrain() {
    const { view, seat } = scene();
    const found = new Map();
    if (!live() || seat === undefined || seat === null) return found;
    for (const move of view.legal_moves || []) {
      if (move.kind !== "PLAY" || move.seat !== seat || !has(move.train)) continue;
      if (!found.has(move.train)) found.set(move.train, []);
      found.get(move.train).push(move);
    }
    return found;
  }

  const live = () => ctx.live();
  const tight = () => live() && ctx.squeeze() >= 3;
  /** Squeezed thrice while the person is to act, or once the match is over (when Rematch
   * must stay in the window): what they cannot lay on is told in words, and the whole
   * layout is drawn below, under "The whole layout". */
  const briefly = () => live() && ctx.squeeze() >= 3
    && (scene().status === "MATCH_OVER" || (scene().view.legal_moves || []).some((m) => m.seat === scene().seat));
  const compact = () => live() && ctx.squeeze() >= 1;

  // ---------------------------------------------------------------- a row of tiles

  const tilePx = () => (ctx.narrow() ? 33 : 34);
  const GAP_PX = 64;

  /** A small marker, as a player puts one on their train (drawn, with words beside it). */
  function markerIcon() {
    const svg = el("svg", { viewBox: "0 0 16 16", width: 14, height: 14, class: "marker-icon", "aria-hidden": "true", focusable: "false" }, [
      el("rect", { x: 2, y: 1, width: 2, height: 14, rx: 1 }),
      el("path", { d: "M4 2 L14 5 L4 8 Z" }),
    ]);
    return svg;
  }

  /** The pictures of a row of laid tiles (from the hub outwards), in `room` px: all of
   * them, or the first and the last ones with a mark for the tiles between. `mirror`: the
   * row runs right to left (its inner half drawn on the right). `owed`: the indices of
   * doubles to satisfy; `fresh`: the tiles the last move laid; `openEnd`: the name of the
   * open end the last tile holds ([data-open-end]), where the person may lay there. */
  function rowPictures(tiles, { room, mirror = false, owed = [], openEnd, emptyText, headOnly = false }) {
    const u = tilePx();
    const step = 2 * u + 4;
    const fresh = (ctx.laidTiles(scene().view) || []);
    const picture = (laid, i) => {
      const last = i === tiles.length - 1;
      const mark = {};
      if (owed.includes(i)) Object.assign(mark, { first: "owed", second: "owed" });
      else if (last && has(openEnd)) mark.second = "open";
      const [a, b] = mirror ? [laid.right, laid.left] : [laid.left, laid.right];
      if (mirror && mark.second && !mark.first) {
        mark.first = mark.second;
        delete mark.second;
      }
      const justLaid = fresh.some((t) => t.high === laid.tile.high && t.low === laid.tile.low);
      const node = tileSvg(a, b, { size: u, across: true, red: ctx.red(), mark, last: justLaid });
      const wrap = h("span", { class: `laid-tile${owed.includes(i) ? " owed" : ""}`, "data-last": justLaid ? "" : null, "data-open-end": last && has(openEnd) ? openEnd : null }, node);
      return wrap;
    };
    let pieces;
    if (!tiles.length) {
      pieces = [h("span", { class: "empty-train", "data-open-end": has(openEnd) ? openEnd : null, text: emptyText })];
    } else if (!headOnly && tiles.length * step <= room) {
      pieces = tiles.map(picture);
    } else {
      // the first tile (at the hub) where there is room for it, the last ones always
      const head = headOnly || room < 3 * step + GAP_PX ? 0 : 1;
      const tail = Math.max(1, Math.min(tiles.length - head, Math.floor((room - head * step - GAP_PX) / step)));
      const between = tiles.length - head - tail;
      pieces = [
        ...tiles.slice(0, head).map((laid, i) => picture(laid, i)),
        between > 0 ? h("span", { class: "row-gap", "aria-hidden": "true", text: head ? `… ${between} …` : `+${between}` }) : null,
        ...tiles.slice(tiles.length - tail).map((laid, i) => picture(laid, tiles.length - tail + i)),
      ].filter(Boolean);
    }
    return mirror ? pieces.reverse() : pieces;
  }

  const pairs = (tiles) => tiles.map((l) => `${l.left}-${l.right}`).join(", ");

  /** Every train or arm drawn whole, in a disclosure below the hand. */
  function wholeLayout(rows) {
    const width = ctx.tableWidth();
    return h("details", { class: "whole-layout" },
      h("summary", { text: "The whole layout" }),
      ...rows.flatMap((row) => [
        h("p", { class: "arm-title small", text: `${capital(row.name)}: ${row.tiles.length ? plural(row.tiles.length, "tile") : "no tile yet"}` }),
        row.tiles.length
          ? h("div", { class: "line-box" }, snakeSvg(row.tiles.map((l) => ({ first: l.left, second: l.right })), {
            width, size: 20, red: ctx.red(), label: `${capital(row.name)}, outwards: ${pairs(row.tiles)}`,
          }))
          : null,
      ]));
  }

  // ---------------------------------------------------------------- TRAINS

  /** The doubles to satisfy, in words: "satisfy the [6-6] on Seat 1's train". */
  function owedWords(table) {
    const trains = table.trains || [];
    return (table.pending || []).map((p) => {
      const train = trains.find((t) => t.train === p.train) || { tiles: [] };
      const double = [...train.tiles].reverse().find(isDouble);
      const tile = double ? bracket(double.tile) : "double";
      return { train: p.train, binding: Boolean(p.binding), tile, words: `the ${tile} on ${trainName(p.train)}` };
    });
  }

  function openingWords(table) {
    const opening = table.opening || [];
    if (!opening.length) return "";
    const { seat } = scene();
    const names = opening.map((s) => (s === seat ? "you" : `seat ${s}`));
    if (live() && ctx.squeeze() >= 3) return `Opening round, own trains only: ${listWords(names)} still to play.`;
    return `Opening round: each seat's first turn lays tiles on its own train only. Still to play it: ${listWords(names)}.`;
  }

  function trainsTable(view, table) {
    const { players, seat, status, toAct } = scene();
    const trains = table.trains || [];
    const plays = playsByTrain();
    // a hand over leaves no double to satisfy (the last tile may have been one: [MT-11])
    const owed = status === "IN_PROGRESS" ? owedWords(table) : [];
    const engine = table.engine;
    const main = [h("h3", { class: `table-title${compact() ? " visually-hidden" : ""}`, text: "The trains" })];
    const facts = [];
    if (engine && has(engine.high)) facts.push(`Engine ${bracket(engine)} in the hub`);
    facts.push(`Boneyard: ${plural(view.stock, "tile")}`);
    main.push(h("p", { class: "facts", text: facts.join(" · ") }));
    const binding = owed.find((o) => o.binding);
    if (binding) {
      const later = owed.filter((o) => o !== binding && o.binding);
      const then = later.length ? ` Then ${listWords(later.map((o) => o.words))}, in that order.` : "";
      const rule = tight() ? `only a ${doubleNumber(table, binding.train)}, only there` : `until it is, the only tile anyone may lay is one with a ${doubleNumber(table, binding.train)}, there`;
      main.push(h("p", { class: "owed-line", text: `Satisfy ${binding.words}: ${rule}.${then}` }));
    } else if (tight()) {
      // squeezed thrice: a double not binding yet is said on its train's row only
    } else if (owed.length && (table.opening || []).length) {
      // [MT-10] doubles laid in the opening round bind nobody until it is over
      const one = owed.length === 1;
      main.push(h("p", { class: "owed-line", text: `${capital(listWords(owed.map((o) => o.words)))} ${one ? "waits" : "wait"} to be satisfied: when the opening round is over, ${one ? "it binds" : "they bind"} everyone, oldest first.` }));
    } else if (owed.length) {
      const mine = toAct === seat ? "You laid" : `Seat ${toAct} laid`;
      main.push(h("p", { class: "owed-line", text: `${mine} ${listWords(owed.map((o) => o.words))}: ${toAct === seat ? "you play" : "they play"} again; when the turn ends, the next seat must satisfy it.` }));
    }
    const opening = openingWords(table);
    if (opening && status === "IN_PROGRESS") main.push(h("p", { class: "facts opening", text: opening }));

    const narrow = ctx.narrow();
    const width = ctx.tableWidth();
    const hubWidth = 2 * tilePx() + 24;
    const twoSides = !narrow && !compact();
    const room = twoSides ? Math.floor((width - hubWidth) / 2) - 12 : width - 12;
    const rows = [];
    let hidden = 0;
    let elided = false;
    trains.forEach((train, i) => {
      const name = trainName(train.train);
      const mexican = train.train === players;
      const mine = plays.get(train.train);
      const owedHere = owed.filter((o) => o.train === train.train);
      const owedIdx = owedHere.length ? [train.tiles.length - 1].filter((k) => k >= 0 && isDouble(train.tiles[k])) : [];
      // squeezed thrice: a train the person cannot lay on now is told in words only
      const brief = briefly() && !mine && !owedHere.some((o) => o.binding);
      if (brief) hidden += 1;
      const left = twoSides && i % 2 === 1;
      const pictures = rowPictures(train.tiles || [], {
        room: compact() ? Math.max(2 * tilePx() + 8, room - 150) : room,
        mirror: left,
        owed: owedIdx,
        openEnd: mine ? (mexican ? "mexican" : train.train === seat ? "yours" : `train-${train.train}`) : undefined,
        emptyText: `empty: starts with a ${train.open_end}`,
        headOnly: compact(),
      });
      if ((train.tiles || []).length && pictures.some((p) => p.classList.contains("row-gap"))) elided = true;
      const marker = !mexican && train.public;
      const label = [
        `${capital(name)}${train.tiles.length ? `, from the hub: ${pairs(train.tiles)}` : ", not started"}.`,
        ` Its open end is ${train.open_end}.`,
        marker ? " Its marker is up: open to all." : "",
        mexican ? " Open to all." : "",
        owedHere.length ? ` Satisfy its double ${owedHere[0].tile}.` : "",
      ].join("");
      const nameLine = h("div", { class: "train-name" },
        h("strong", { text: capital(name) }),
        marker ? h("span", { class: "marker" }, markerIcon(), " open to all") : null,
        mexican ? h("span", { class: "muted", text: " open to all" }) : null,
        h("span", { class: "train-facts", text: brief ? ` ends in ${train.open_end}` : ` · ${plural(train.tiles.length, "tile")} · ends in ${train.open_end}` }),
        owedHere.length ? h("span", { class: "owed-note", text: `${brief ? " (" : " · "}satisfy the ${owedHere[0].tile}${brief ? ")" : ""}` }) : null);
      rows.push(h("li", {
        class: `train${brief ? " brief" : ""}${train.train === seat ? " you" : ""}${mexican ? " mexican" : ""}${marker ? " public" : ""}${owedHere.length ? " owed" : ""}${mine ? " playable" : ""}${left ? " left" : " right"}${compact() ? " compact" : ""}`,
        "data-train": train.train,
      }, nameLine, brief ? null : h("div", { class: "train-tiles", role: "img", "aria-label": label }, ...pictures)));
    });
    // squeezed thrice, the engine is told in the facts only
    const hub = engine && has(engine.high) && !(live() && ctx.squeeze() >= 3)
      ? h("li", { class: `hub rows-${Math.ceil(rows.length / 2)}`, "aria-label": `The hub: the engine ${tileName(engine)}` },
        tileSvg(engine.high, engine.low, { size: tilePx(), across: !twoSides, red: ctx.red() }))
      : null;
    main.push(h("ol", { class: `trains${twoSides ? " two-sides" : ""}${hidden ? " squeezed" : ""}`, "aria-label": "The trains, from the hub outwards" }, hub, ...rows));
    const whole = elided || hidden || compact();
    const more = whole && trains.some((t) => t.tiles.length)
      ? [wholeLayout(trains.map((t) => ({ name: trainName(t.train), tiles: t.tiles })))]
      : [];
    return { main, more };
  }

  /** The number a double on `train` (its last tile) shows. */
  function doubleNumber(table, train) {
    const found = (table.trains || []).find((t) => t.train === train);
    const last = found && found.tiles.at(-1);
    return last ? String(last.left) : "";
  }

  function trainsGuide(moves, kinds, table) {
    const { seat } = scene();
    const owed = owedWords(table);
    const binding = owed.find((o) => o.binding);
    const inOpening = (table.opening || []).includes(seat);
    const own = (table.trains || []).find((t) => t.train === seat);
    if (kinds.has("PLAY")) {
      if (binding) return `Satisfy ${binding.words}: lay a tile with a ${doubleNumber(table, binding.train)} there.`;
      if (inOpening) {
        return own && own.tiles.length
          ? "Your opening turn: add more tiles to your own train, or pass to stop."
          : "Your opening turn: lay a first tile on your own train (you may go on laying there).";
      }
      if (owed.length) return `You laid a double: play again, on ${owed.map((o) => o.words).join(" or ")} or on any train you may use.`;
      return "Lay a tile on your own train, on the Mexican train, or on a train whose marker is up (open to all).";
    }
    if (kinds.has("DRAW")) {
      return binding
        ? `Nothing in your hand satisfies ${binding.words}: draw one tile. If it fits, you lay it; if not, your marker goes up.`
        : "Nothing in your hand fits a train you may use: draw one tile. If it fits, you lay it; if not, your marker goes up.";
    }
    if (inOpening && own && own.tiles.length) return "Your opening chain can stop here: pass.";
    return "Nothing fits and the boneyard is empty: pass (your marker goes up: your train is open to all).";
  }

  /** A move's words, where it names a train: "play [6-5] on the Mexican train". */
  function trainsMoveLabel(move) {
    const table = ctx.table();
    if (move.kind === "PLAY" && has(move.train)) return `play ${bracket(move.tile)} on ${trainName(move.train)}`;
    if (move.kind === "PASS" && (table.opening || []).includes(move.seat)) {
      const own = (table.trains || []).find((t) => t.train === move.seat);
      if (own && own.tiles.length) return "pass: stop your opening chain";
    }
    return undefined;
  }

  /** An event's words, where it is the trains': the train a tile went on, the engine, the
   * markers, a double's follow-up. */
  function trainsWords(e) {
    const { seat } = scene();
    const t = e.tile && has(e.tile.high) ? bracket(e.tile) : "";
    switch (e.kind) {
      case "PLAY": {
        if (!has(e.train)) return undefined;
        const where = e.train === e.seat && e.seat !== seat ? "their own train" : trainName(e.train);
        return `${act(e.seat, "play")} ${t} on ${where}.`;
      }
      case "ENGINE":
        return has(e.seat)
          ? `${act(e.seat, "place")} the engine ${t} in the hub.`
          : `The engine ${t} is set in the hub: every train starts with a ${e.tile.high}.`;
      case "MARKER_UP":
        return e.seat === seat
          ? "Your marker goes up: your train is open to all."
          : `Seat ${e.seat}'s marker goes up: their train is open to all.`;
      case "MARKER_DOWN":
        return e.seat === seat
          ? "Your marker comes down: your train is yours alone again."
          : `Seat ${e.seat}'s marker comes down: their train is theirs alone again.`;
      case "BONUS_TURN":
        return `${act(e.seat, "lay")} a double and ${e.seat === seat ? "play" : "plays"} again.`;
      default:
        return undefined;
    }
  }

  // ---------------------------------------------------------------- FEET

  /** Each foot: its number, the arm whose end it is (none for the centre) and its arms. */
  function feetOf(table) {
    const arms = table.arms || [];
    return (table.feet || []).map((number, foot) => {
      const on = foot === 0 ? undefined : arms.find((a) => a.foot < foot && a.tiles.length
        && isDouble(a.tiles.at(-1)) && a.tiles.at(-1).left === number);
      return { foot, number, on, arms: arms.filter((a) => a.foot === foot) };
    });
  }

  const footTile = (number) => `[${number}-${number}]`;

  /** The foot every play must go on, in words, or "". */
  function pendingWords(table) {
    if (!has(table.pending_foot)) return "";
    const foot = feetOf(table)[table.pending_foot];
    if (!foot) return "";
    const laid = foot.arms.filter((a) => a.tiles.length).length;
    const toes = foot.arms.length;
    const what = foot.foot === 0 ? `the centre ${footTile(foot.number)}` : `the ${footTile(foot.number)}`;
    return `Every play goes on ${what} until its ${toes === 3 ? "three toes" : `${toes} arms`} are laid (${laid} of ${toes} so far).`;
  }

  function feetTable(view, table) {
    const plays = playsByTrain();
    const feet = feetOf(table);
    const main = [h("h3", { class: `table-title${compact() ? " visually-hidden" : ""}`, text: "The chicken feet" })];
    const engine = table.engine;
    const facts = [];
    if (engine && has(engine.high)) facts.push(`Centre ${bracket(engine)}`);
    if (feet.length > 1) facts.push(`Feet: ${feet.length - 1}`);
    facts.push(`Boneyard: ${plural(view.stock, "tile")}`);
    main.push(h("p", { class: "facts", text: facts.join(" · ") }));
    const pending = pendingWords(table);
    if (pending && scene().status === "IN_PROGRESS") main.push(h("p", { class: "owed-line", text: pending }));
    // on a wide table the arms stand in columns of 22rem (play.css)
    const room = ctx.narrow() ? ctx.tableWidth() - 12 : Math.min(ctx.tableWidth() - 12, 340);
    const groups = [];
    let hidden = 0;
    let elided = false;
    const allRows = [];
    for (const foot of feet) {
      // a hand over leaves no foot to finish (the last tile may have grown one)
      const isPending = table.pending_foot === foot.foot && scene().status === "IN_PROGRESS";
      const items = [];
      // squeezed thrice: a foot the person cannot lay on now is one line of words
      const briefFoot = briefly() && !foot.arms.some((a) => plays.has(a.arm));
      for (const arm of foot.arms) {
        allRows.push({ name: armName(arm.arm), tiles: arm.tiles });
        const mine = plays.get(arm.arm);
        const brief = briefFoot || (briefly() && !mine);
        if (brief) hidden += 1;
        const closed = !has(arm.open_end);
        const pictures = rowPictures(arm.tiles, {
          room: compact() ? Math.max(2 * tilePx() + 8, room - 150) : room,
          owed: [],
          openEnd: mine ? `arm-${arm.arm}` : undefined,
          emptyText: `empty toe: starts with a ${foot.number}`,
          headOnly: compact(),
        });
        if (pictures.some((p) => p.classList.contains("row-gap"))) elided = true;
        const end = closed ? `ends in the foot ${footTile(arm.tiles.at(-1).left)}` : `open ${arm.open_end}`;
        const label = `Arm ${arm.arm}${arm.tiles.length ? `, from its foot: ${pairs(arm.tiles)}` : ", no tile yet"}. ${capital(end)}.`;
        items.push(h("li", { class: `arm${brief ? " brief" : ""}${mine ? " playable" : ""}${closed ? " closed" : ""}${compact() ? " compact" : ""}`, "data-arm": arm.arm },
          h("div", { class: "train-name" }, h("strong", { text: `Arm ${arm.arm}` }), h("span", { class: "train-facts", text: ` · ${plural(arm.tiles.length, "tile")} · ${end}` })),
          brief ? null : h("div", { class: "train-tiles", role: "img", "aria-label": label }, ...pictures)));
      }
      if (!items.length) continue;
      const title = foot.foot === 0
        ? `The centre ${footTile(foot.number)}: ${plural(foot.arms.length, "arm")}`
        : `The foot ${footTile(foot.number)}, at the end of ${foot.on ? armName(foot.on.arm) : "an arm"}: three toes`;
      if (briefFoot) {
        const open = foot.arms.filter((a) => has(a.open_end)).map((a) => `${armName(a.arm)} open ${a.open_end}`);
        const ends = open.length ? capital(open.join(" · ")) : "Every arm ends in a foot";
        groups.push(h("li", { class: "foot brief", "data-foot": foot.foot },
          h("p", { class: "foot-title" }, h("strong", { text: `${title}.` }), ` ${ends}.`)));
        continue;
      }
      groups.push(h("li", { class: `foot${isPending ? " pending" : ""}`, "data-foot": foot.foot },
        h("p", { class: "foot-title" }, h("strong", { text: title }), isPending ? h("span", { class: "owed-note", text: " · every play goes here now" }) : null),
        h("ol", { class: "arms", "aria-label": title }, ...items)));
    }
    main.push(h("ol", { class: `feet${tight() ? " squeezed" : ""}`, "aria-label": "The centre and the feet, each with its arms" }, ...groups));
    const more = (elided || hidden || compact()) && allRows.some((r) => r.tiles.length) ? [wholeLayout(allRows)] : [];
    return { main, more };
  }

  function feetGuide(moves, kinds, table) {
    const pending = pendingWords(table);
    if (kinds.has("PLAY")) {
      if (pending) return `${pending} Lay a tile with a ${feetOf(table)[table.pending_foot].number} there.`;
      return "Lay a tile on the open end of any arm it matches.";
    }
    if (kinds.has("DRAW")) return "Nothing in your hand can be laid: draw one tile. If it fits, you lay it.";
    return "Nothing in your hand can be laid and the boneyard is empty: pass.";
  }

  function feetMoveLabel(move) {
    if (move.kind === "PLAY" && has(move.train)) return `play ${bracket(move.tile)} on ${armName(move.train)}`;
    return undefined;
  }

  function feetWords(e) {
    const t = e.tile && has(e.tile.high) ? bracket(e.tile) : "";
    switch (e.kind) {
      case "PLAY": {
        if (!has(e.train)) return undefined;
        const foot = e.tile && e.tile.high === e.tile.low ? ": a new foot, whose three toes are laid next" : "";
        return `${act(e.seat, "play")} ${t} on ${armName(e.train)}${foot}.`;
      }
      case "ENGINE":
        return has(e.seat)
          ? `${act(e.seat, "place")} the centre double ${t}.`
          : `The centre double ${t} is set in the middle: its arms start with a ${e.tile.high}.`;
      default:
        return undefined;
    }
  }

  return {
    // a squeezed window draws each row's end only (1), then only the rows the person may
    // lay on (3), the rest under "The whole layout"
    TRAINS: { table: trainsTable, guide: trainsGuide, squeezes: 3, moveLabel: trainsMoveLabel, words: trainsWords },
    FEET: { table: feetTable, guide: feetGuide, squeezes: 3, moveLabel: feetMoveLabel, words: feetWords },
  };
}
