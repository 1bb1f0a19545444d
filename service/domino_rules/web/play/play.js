// The playground: one person against bots, or several people sharing one device
// (pass-and-play) with bots in the other seats, through the service's public REST API only.
//
// The page keeps the match's state token in memory, and in localStorage so that the match
// survives a reload; it never shows it. The person sees their own seat's view (GetView)
// after every move, theirs or a bot's; the bots' moves come from SuggestMove, each bot at
// its seat's level. With two or more people, the page shows one person's view at a time:
// when another person's turn comes, every hand leaves the page behind a pass screen
// (`#pass`, `#game[data-waiting="pass"]`) until `#pass-show` ("I am seat N, show my hand")
// is pressed, and then that seat's view is shown.
//
// Automation hooks: every element that makes a move for the person is a <button> with
// `data-move` (the move's JSON, sent back unchanged); a tile with several legal moves (an
// end, an open half, a lake tile to catch) has `aria-haspopup="dialog"` and `data-move`
// holding what its moves share, and opens a prompt whose buttons hold the full moves.
// `#status` (hidden: people read `#turn`) holds IN_PROGRESS, HAND_OVER or MATCH_OVER;
// `#game[data-waiting="you"]` says the page waits for the person ("over": the match is
// over) and `#game[data-version]` is the match's version. On the table, `[data-open-end]`
// marks what a tile is laid on or matched with (an end, the open half, the lake) and
// `[data-last]` the tiles the last move laid; `#last-move` tells the moves since the
// person's own. `#undo` takes the person's last move back, `#rematch` and `#new-match`
// follow a match's end, `#abandon` (then `#abandon-yes`) drops the match.
// `window.dominoState()` returns the match's {token, version, status, to_act, game_id,
// seat (the person whose view is shown), people, levels, passing, ...} or null;
// `window.dominoRecord(seat)` a person's record of the match so far (what "Download record"
// saves; the person shown when no seat is given), or null before a match. The record viewer: `#replay[data-file]`
// is the name of the file opened last, `#replay[data-verdict]` VALID or DIVERGED once the
// service has answered, `[data-step]` the step shown (0: the deal) and `[data-last]` the
// last it can show; `#replay-move[data-record-move]` holds the step's move (its JSON),
// `#replay-hands li[data-seat]` a seat's hand (each tile an image named like "6-4"), and
// `#replay-divergence`, shown when the record diverges, its `data-step` and `data-reason`.
//
// Query parameters: `api` (the service's base URL, default this page's origin),
// `delay` (milliseconds before a bot moves), `ruleset`, `profile` (a rules variant of the
// ruleset, from the catalogue's profiles), `level`, `seed`.

import { crossSvg, dieSvg, snakeSvg, tileSvg } from "./tiles.js";
import { sha256Hex } from "./sha256.js";
import { trainLayouts } from "./trains.js";

// ------------------------------------------------------------------ small helpers

const $ = (id) => document.getElementById(id);

/** An HTML element: `attrs` (class, text, on<event>, data-*, aria-*...) and children. */
function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined && child !== false) node.append(child);
  }
  return node;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const tileName = (tile) => `${tile.high}-${tile.low}`;
const sameTile = (a, b) => Boolean(a && b) && a.high === b.high && a.low === b.low;
const hasTile = (tile) => Boolean(tile) && tile.high !== undefined;
const pips = (tile) => tile.high + tile.low;
const capital = (text) => text.charAt(0).toUpperCase() + text.slice(1);
const plural = (n, one, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const listWords = (items, and = "and") =>
  items.length <= 1 ? items.join("") : `${items.slice(0, -1).join(", ")} ${and} ${items.at(-1)}`;
/** Alternatives in words: "6, 12 or 18". */
const orWords = (items) => listWords(items, "or");

const ui = { skip: document.querySelector(".skip") };
for (const id of [
  "setup-box", "setup", "ruleset", "ruleset-about", "options", "players", "seat", "level",
  "delay", "seed", "service", "api", "more-options", "more-toggle", "profile-box", "sides", "reload", "start", "error", "status", "turn", "game",
  "who", "pass", "hand-area", "log-box", "record-tools",
  "game-title", "rules-link", "commitment", "seats", "last-move", "table", "table-more", "guide",
  "hand", "hand-title", "prompt", "actions", "hint", "result", "log", "download-record",
  "record-note", "abandon", "abandon-confirm", "abandon-yes", "abandon-no", "record-file",
  "replay", "replay-title", "replay-verdict", "replay-divergence", "replay-nav", "replay-first",
  "replay-back", "replay-forward", "replay-last", "replay-goto", "replay-step", "replay-position",
  "replay-move", "replay-seats", "replay-table", "replay-hands", "replay-events", "replay-points",
  "replay-close",
]) {
  ui[id.replace(/-(\w)/g, (_, c) => c.toUpperCase())] = $(id);
}

const params = new URLSearchParams(location.search);

// ------------------------------------------------------------------ the service

class ServiceError extends Error {
  constructor(message, reason, httpStatus) {
    super(message);
    this.reason = reason;
    this.httpStatus = httpStatus;
  }
}

function apiBase() {
  const typed = ui.api.value.trim().replace(/\/+$/, "");
  if (typed) return typed;
  return location.origin.startsWith("http") ? location.origin : "http://127.0.0.1:8080";
}

/** GET (no body) or POST a JSON body to the REST door; the JSON answer or a ServiceError. */
async function call(path, body) {
  const base = apiBase();
  let response;
  try {
    response = await fetch(
      base + path,
      body === undefined
        ? { method: "GET" }
        : { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) },
    );
  } catch (error) {
    throw new ServiceError(`The service at ${base} does not answer (${error.message}).`, "UNAVAILABLE");
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    const reason = (data && data.details && data.details[0] && data.details[0].reason) || `HTTP ${response.status}`;
    throw new ServiceError((data && data.message) || `HTTP ${response.status} from ${base}${path}`, reason, response.status);
  }
  if (data === null) throw new ServiceError(`${base}${path} did not answer JSON.`, "NOT_JSON");
  return data;
}

// ------------------------------------------------------------------ errors, in one place

/** Show `error`, with a "Try again" button running `retry` and, where given, another way
 * out (`other`: {text, run}). */
function showError(error, retry, other) {
  ui.error.replaceChildren(
    h("strong", { text: "Something went wrong: " }),
    h("span", { text: error.message || String(error) }),
    error.reason ? h("span", { class: "reason", text: ` (${error.reason})` }) : null,
  );
  if (retry) {
    ui.error.append(" ", h("button", { type: "button", onclick: retry, text: "Try again" }));
  }
  if (other) {
    ui.error.append(" ", h("button", { type: "button", class: "secondary", onclick: other.run, text: other.text }));
  }
  ui.error.hidden = false;
}

function clearError() {
  ui.error.hidden = true;
  ui.error.replaceChildren();
}

// ------------------------------------------------------------------ the catalogue and set-up

let catalogue = [];

const humanName = (name) => capital(name.replace(/_/g, " "));
/** A value the service names in capitals, in words: "HIGHEST_DOUBLE" is "Highest double". */
const enumWords = (value) => capital(String(value).toLowerCase().replace(/_/g, " "));
const rulesetInfo = () => catalogue.find((info) => info.id === ui.ruleset.value);
/** Where a player reads how to play a ruleset: the how-to-play page, at the ruleset's
 * anchor (it links on to the rulebook of record for implementers). */
const rulesUrl = (info) => `${apiBase()}/how-to-play#${encodeURIComponent(info.id)}`;
/** A bot level's name ("Greedy") and the catalogue's description of it. */
const levelName = (level) => enumWords(level);
function levelAbout(info, level) {
  const bot = (info.bots || []).find((b) => b.level === level);
  return bot ? bot.description : "";
}

async function loadCatalogue() {
  clearError();
  ui.start.disabled = true;
  ui.ruleset.disabled = true;
  try {
    catalogue = (await call("/v1/rulesets")).rulesets;
  } catch (error) {
    catalogue = [];
    ui.ruleset.replaceChildren(h("option", { text: "(no games: the service did not answer)" }));
    ui.options.replaceChildren(h("legend", { text: "Options" }));
    showMoreOptions(true);
    ui.service.open = true;
    showError(error, loadCatalogue);
    return;
  }
  const wanted = params.get("ruleset") || ui.ruleset.value;
  ui.ruleset.replaceChildren(
    ...catalogue.map((info) => h("option", { value: info.id, text: info.name })),
  );
  if (catalogue.some((info) => info.id === wanted)) ui.ruleset.value = wanted;
  ui.ruleset.disabled = false;
  ui.start.disabled = false;
  chooseRuleset();
  resumeSaved();
}

/** Fold or unfold "More options" (the game's options, the pace, the seed, the service). */
function showMoreOptions(open) {
  ui.moreOptions.hidden = !open;
  ui.moreToggle.setAttribute("aria-expanded", String(open));
}

/** An int option whose 0 stands for a default the rules work out ("0: 7 to two players"). */
const zeroIsDefault = (option) => option.type === "int" && option.default === "0" && /(^|[;,(]\s*)0(:| =) /.test(option.description);

/** An option's description in a player's words: no rule tags ("[BLK-2]"), the values and
 * other options it names as the form shows them, and "0: ..." read as the default. */
function optionHelp(info, option) {
  let text = option.description.replace(/\s*\[[A-Z][A-Z0-9]*-\d+[a-z]?\]/g, "");
  for (const value of option.allowed_values || []) {
    text = text.replace(new RegExp(`\\b${value}\\b:?`, "g"), (found) => `“${enumWords(value)}”${found.endsWith(":") ? ":" : ""}`);
  }
  for (const other of info.options) {
    if (other.name.includes("_")) text = text.replace(new RegExp("`?\\b" + other.name + "\\b`?", "g"), `“${humanName(other.name).toLowerCase()}”`);
  }
  if (zeroIsDefault(option)) text = text.replace(/(^|[;,(]\s*)0(:| =) /, "$1left empty (the default): ");
  return text.replace(/`/g, "");
}

/** Set an option's field to `value` as the form writes it ("0" for a defaulted int: empty). */
function setField(input, option, value) {
  if (input.dataset.type === "bool") input.checked = String(value) === "true";
  else if (option && zeroIsDefault(option) && String(value) === "0") input.value = "";
  else input.value = String(value);
}

/** Under the table's choices: what the chosen bots do, in the catalogue's words. */
function describeLevel() {
  const info = rulesetInfo();
  const help = $("level-help");
  if (info && help) help.textContent = `${levelName(ui.level.value)} bots: ${levelAbout(info, ui.level.value)}`;
}

function chooseRuleset() {
  const info = rulesetInfo();
  if (!info) return;
  ui.rulesetAbout.replaceChildren(
    h("span", { text: `${info.description} ` }),
    h("a", { href: rulesUrl(info), target: "_blank", rel: "noopener", text: `How to play ${info.name}` }),
  );
  ui.options.replaceChildren(h("legend", { text: "Options" }));
  ui.profileBox.replaceChildren();
  for (const option of info.options) {
    const id = `option-${option.name}`;
    const help = h("small", { id: `${id}-help`, class: "muted", text: optionHelp(info, option) });
    let input;
    if (option.type === "bool") {
      input = h("input", { id, type: "checkbox", "aria-describedby": `${id}-help` });
      input.checked = option.default === "true";
      ui.options.append(
        h("div", { class: "field check" }, input, h("label", { for: id, text: humanName(option.name) }), help),
      );
    } else {
      if (option.type === "enum") {
        input = h("select", { id, "aria-describedby": `${id}-help` },
          ...option.allowed_values.map((value) => h("option", { value, text: enumWords(value) })));
      } else {
        input = h("input", {
          id, type: "number", inputmode: "numeric", step: 1, min: option.min, max: option.max,
          "aria-describedby": `${id}-help`,
        });
        if (zeroIsDefault(option)) input.placeholder = "default";
      }
      input.dataset.type = option.type;
      setField(input, option, option.default);
      ui.options.append(
        h("div", { class: "field" }, h("label", { for: id, text: humanName(option.name) }), input, help),
      );
    }
    input.dataset.option = option.name;
    input.dataset.type = option.type;
    input.addEventListener("change", () => {
      syncProfile();
      fillPlayers();
    });
  }
  if (!info.options.length) ui.options.append(h("p", { class: "muted", text: "This game has no options." }));
  addProfiles(info);
  const level = params.get("level") || ui.level.value || "GREEDY";
  ui.level.replaceChildren(
    ...info.bots.map((bot) => h("option", { value: bot.level, text: levelName(bot.level) })),
  );
  ui.level.value = info.bots.some((bot) => bot.level === level) ? level : info.bots[0].level;
  describeLevel();
  fillPlayers();
}

// ------------------------------------------------------------------ profiles
//
// A ruleset may name sets of options (`profiles` in the catalogue: a variant as a book or
// a club plays it). The form offers them in "Rules variant", the one that plays the
// ruleset's default options chosen at first (or, where no profile does, "The standard
// rules", every option at its default); choosing one sets every option as it says (an
// option it leaves unset at its default), and the options can still be changed under it:
// the variant shown is then the one the options match, or "Your own options".

const CUSTOM = "";
/** "The standard rules": every option at its default, where no profile plays them. */
const STANDARD = "-standard";

/** The value a profile gives an option, as the form writes it ("true", "NONE", "61"). */
function profileValue(info, profile, option) {
  const own = ((profile.options || {})[info.id]) || {};
  const value = own[option.name];
  if (value === undefined || value === null || (typeof value === "string" && value.endsWith("_UNSPECIFIED"))) return option.default;
  return String(value);
}

/** The value an option's field holds, as the form writes it. */
function formValue(input) {
  if (input.dataset.type === "bool") return String(input.checked);
  if (input.dataset.type === "int" && input.value.trim() === "") {
    const option = rulesetInfo().options.find((o) => o.name === input.dataset.option);
    return option ? option.default : "";
  }
  return input.value;
}

/** The profile of `info` whose options are `options` (as readOptions gives them), if any:
 * `prefer` first. */
function matchingProfile(info, options, prefer) {
  const same = (profile) => info.options.every((option) => {
    const value = options[option.name];
    return (value === undefined ? option.default : String(value)) === profileValue(info, profile, option);
  });
  const profiles = info.profiles || [];
  return profiles.find((p) => p.id === prefer && same(p)) || profiles.find(same) || null;
}

/** Whether the options (as readOptions gives them) are every option at its default. */
function allDefaults(info, options) {
  return info.options.every((option) => {
    const value = options[option.name];
    return value === undefined || String(value) === option.default;
  });
}

function addProfiles(info) {
  const profiles = info.profiles || [];
  if (!profiles.length) return;
  // where no profile plays the defaults, the standard rules come first
  const standard = matchingProfile(info, {}, "") ? [] : [h("option", { value: STANDARD, text: "The standard rules" })];
  const select = h("select", { id: "profile", "aria-describedby": "profile-help" },
    ...standard,
    ...profiles.map((p) => h("option", { value: p.id, text: p.name })),
    h("option", { value: CUSTOM, text: "Your own options (under More options)" }));
  const help = h("small", { id: "profile-help", class: "muted" });
  ui.profileBox.append(
    h("div", { class: "field profile" }, h("label", { for: "profile", text: "Rules variant" }), select, help),
  );
  const wanted = params.get("profile");
  select.value = profiles.some((p) => p.id === wanted) ? wanted : (matchingProfile(info, {}, "") || { id: STANDARD }).id;
  select.addEventListener("change", () => {
    applyProfile();
    fillPlayers();
  });
  applyProfile();
}

/** Set every option as the chosen profile says. */
function applyProfile() {
  const info = rulesetInfo();
  const select = $("profile");
  if (!info || !select) return;
  const profile = (info.profiles || []).find((p) => p.id === select.value);
  if (profile || select.value === STANDARD) {
    for (const input of ui.options.querySelectorAll("[data-option]")) {
      const option = info.options.find((o) => o.name === input.dataset.option);
      if (!option) continue;
      setField(input, option, profile ? profileValue(info, profile, option) : option.default);
    }
  }
  describeProfile();
}

/** Show the profile the options match (after an option was changed), or "Your own
 * options". */
function syncProfile() {
  const info = rulesetInfo();
  const select = $("profile");
  if (!info || !select) return;
  const options = {};
  for (const input of ui.options.querySelectorAll("[data-option]")) options[input.dataset.option] = formValue(input);
  const found = matchingProfile(info, options, select.value);
  const standard = !found && allDefaults(info, options) && select.querySelector(`option[value="${STANDARD}"]`);
  select.value = found ? found.id : standard ? STANDARD : CUSTOM;
  describeProfile();
}

function describeProfile() {
  const info = rulesetInfo();
  const select = $("profile");
  const help = $("profile-help");
  if (!info || !select || !help) return;
  const profile = (info.profiles || []).find((p) => p.id === select.value);
  help.textContent = profile
    ? profile.description
    : select.value === STANDARD
      ? "The game as the rulebook gives it, every option at its usual value."
      : "The options under More options match none of the variants.";
}

/** The most players the options allow: a `set_max_pip` option grows the set (3 tiles a seat). */
function maxPlayers(info) {
  const setMax = ui.options.querySelector('[data-option="set_max_pip"]');
  if (setMax && Number.isInteger(Number(setMax.value)) && Number(setMax.value) > 0) {
    const n = Number(setMax.value);
    return Math.max(info.max_players, Math.floor(((n + 1) * (n + 2)) / 2 / 3));
  }
  return info.max_players;
}

function fillPlayers() {
  const info = rulesetInfo();
  if (!info) return;
  const before = Number(ui.players.value) || 3;
  const top = maxPlayers(info);
  ui.players.replaceChildren();
  for (let n = info.min_players; n <= top; n++) ui.players.append(h("option", { value: n, text: String(n) }));
  ui.players.value = String(Math.min(Math.max(before, info.min_players), top));
  fillSeats();
}

function fillSeats() {
  const before = Number(ui.seat.value) || 0;
  const players = Number(ui.players.value);
  ui.seat.replaceChildren();
  for (let s = 0; s < players; s++) ui.seat.append(h("option", { value: s, text: `Seat ${s}` }));
  ui.seat.value = String(Math.min(before, players - 1));
  fillWho();
}

// ------------------------------------------------------------------ who plays each seat
//
// Under More options, each seat is played by a person or by a bot of a level. "Your seat"
// and "Bots play" above are the short way to set them: "Your seat" makes its seat a
// person's, "Bots play" sets the level of every bot. Two or more people share the device
// (pass-and-play): between their turns the page hides every hand.

const PERSON = "PERSON";

/** The seats' choices ("who-<seat>"), in seat order. */
const whoSelects = () => [...ui.who.querySelectorAll("select[data-who]")];

/** The form's choice for each seat: PERSON or a bot level. */
const formLevels = () => whoSelects().map((select) => select.value);

/** Build a choice per seat, keeping those made before where they still fit. */
function fillWho(levels) {
  const info = rulesetInfo();
  if (!info) return;
  const players = Number(ui.players.value);
  const before = levels || formLevels();
  const you = Number(ui.seat.value);
  const known = (value) => value === PERSON || info.bots.some((bot) => bot.level === value);
  ui.who.replaceChildren(
    h("legend", { text: "Who plays each seat" }),
    h("p", { class: "muted small who-help", id: "who-help",
      text: "Two or more people can share this device: between their turns every hand is hidden until the next player says it is them." }),
  );
  const grid = h("div", { class: "who-grid" });
  for (let seat = 0; seat < players; seat++) {
    const id = `who-${seat}`;
    const select = h("select", { id, "data-who": seat, "aria-describedby": "who-help" },
      h("option", { value: PERSON, text: "A person" }),
      ...info.bots.map((bot) => h("option", { value: bot.level, text: `${levelName(bot.level)} bot` })));
    const wanted = levels ? before[seat] : seat === you ? PERSON : before[seat];
    select.value = wanted !== undefined && known(wanted) ? wanted : ui.level.value;
    select.addEventListener("change", whoChanged);
    grid.append(h("div", { class: "field who" }, h("label", { for: id, text: `Seat ${seat}` }), select));
  }
  ui.who.append(grid);
  ui.seat.dataset.was = ui.seat.value;
}

/** "Your seat" changed: that seat is a person's; the one it was before goes to a bot. */
function seatChanged() {
  const selects = whoSelects();
  const was = selects[Number(ui.seat.dataset.was)];
  if (was && was.value === PERSON && ui.seat.dataset.was !== ui.seat.value) was.value = ui.level.value;
  const now = selects[Number(ui.seat.value)];
  if (now) now.value = PERSON;
  ui.seat.dataset.was = ui.seat.value;
}

/** "Bots play" changed: every bot plays at that level. */
function levelChanged() {
  for (const select of whoSelects()) if (select.value !== PERSON) select.value = ui.level.value;
  describeLevel();
}

/** A seat's choice changed: "Your seat" follows to a person's seat where it was made a bot's. */
function whoChanged() {
  const levels = formLevels();
  if (levels[Number(ui.seat.value)] !== PERSON) {
    const first = levels.indexOf(PERSON);
    if (first >= 0) ui.seat.value = String(first);
  }
  ui.seat.dataset.was = ui.seat.value;
}

function readOptions() {
  const options = {};
  for (const input of ui.options.querySelectorAll("[data-option]")) {
    const name = input.dataset.option;
    if (input.dataset.type === "bool") options[name] = input.checked;
    else if (input.dataset.type === "int") {
      if (input.value.trim() === "") {
        // the default: sent as the service's "0" where the field shows it in words
        const option = rulesetInfo().options.find((o) => o.name === name);
        if (option && zeroIsDefault(option)) options[name] = 0;
        continue;
      }
      options[name] = Number(input.value);
    } else options[name] = input.value;
  }
  return options;
}

// ------------------------------------------------------------------ the match

/** The match being played, or null. `generation` ends the loops of an older match. */
let game = null;
let generation = 0;

function botDelay() {
  const ms = Number(ui.delay.value);
  return Number.isFinite(ms) && ms >= 0 ? Math.min(ms, 10000) : 700;
}

/** The match the form describes: {info, players, seat (the person whose view shows
 * first), level, levels (per seat: PERSON or a bot level), options, seed}. */
function formMatch() {
  const info = rulesetInfo();
  if (!info) return null;
  const levels = formLevels();
  const seat = levels[Number(ui.seat.value)] === PERSON ? Number(ui.seat.value) : levels.indexOf(PERSON);
  return {
    info,
    players: Number(ui.players.value),
    seat,
    level: ui.level.value,
    levels,
    options: readOptions(),
    seed: ui.seed.value,
  };
}

function startMatch(event) {
  event.preventDefault();
  const setup = formMatch();
  if (!setup) return;
  if (setup.seat < 0) {
    showError({ message: "Every seat is a bot's: choose “A person” for at least one seat, under More options, “Who plays each seat”." });
    showMoreOptions(true);
    return;
  }
  begin(setup);
}

/** Per seat, PERSON or a bot level: a setup's own, or (a match saved by an older page)
 * the person at `seat` and every other seat a bot of `level`. */
function seatLevels(setup) {
  if (Array.isArray(setup.levels) && setup.levels.length === setup.players) return [...setup.levels];
  return Array.from({ length: setup.players }, (_, s) => (s === setup.seat ? PERSON : setup.level));
}

/** Deal a new match for `setup` (an empty or missing seed: the service draws one) and play
 * it. The match saved for a reload is replaced. */
async function begin(setup) {
  const info = setup.info;
  const gen = ++generation;
  game = null;
  clearError();
  clearGame();
  forgetMatch();
  setStatus("", "Dealing…");
  const body = { ruleset: info.id, players: setup.players };
  // a ruleset's options go in the field named like it (a ruleset without options has none)
  if (info.options.length) body.options = { [info.id]: setup.options };
  if (setup.seed) body.seed = setup.seed;
  let answer;
  // each person's record starts from the deal as their own seat saw it: a deal may show a
  // seat tiles the others see hidden (a tile it drew while the deal looked for a double)
  const dealSeen = {};
  try {
    answer = await call("/v1/games", body);
    for (const [s, level] of seatLevels(setup).entries()) {
      if (level !== PERSON) continue;
      const view = await call("/v1/games:view", { state: answer.state, seat: s });
      dealSeen[s] = view.events || [];
    }
  } catch (error) {
    if (gen !== generation) return;
    setStatus("", "");
    showError(error);
    return;
  }
  if (gen !== generation) return;
  game = newGame(gen, setup, body.options, {
    gameId: answer.game_id,
    commitment: answer.seed_commitment,
    deal: answer.events,
    dealSeen,
    token: answer.state,
    version: answer.version,
    status: answer.status,
    toAct: answer.to_act,
  });
  showGame();
  saveMatch();
  await play(gen);
}

/** A match's state on the page: `setup` as `begin` takes it, `dealt` what NewGame said
 * (or what was saved of the match before a reload). */
function newGame(gen, setup, sentOptions, dealt) {
  const levels = seatLevels(setup);
  if (levels[setup.seat] !== PERSON) throw new Error(`seat ${setup.seat} is not a person's`);
  // a move saved by an older page holds the events its one person saw
  const moves = (dealt.moves || []).map((recorded) => (recorded.events !== undefined && recorded.seen === undefined
    ? { ...recorded, seen: { [setup.seat]: recorded.events }, events: undefined }
    : recorded));
  return {
    gen,
    info: setup.info,
    ruleset: setup.info.id,
    players: setup.players,
    // the person whose view the page shows (the one holding the device)
    seat: setup.seat,
    level: setup.level,
    levels,
    // the seats people play, in order: with two or more, the page hides every hand between
    // their turns
    people: levels.flatMap((level, s) => (level === PERSON ? [s] : [])),
    options: setup.options,
    sentOptions,
    gameId: dealt.gameId,
    commitment: dealt.commitment,
    deal: dealt.deal,
    // the deal's events as each person's seat saw them (none in a match saved by an older
    // page: its records start from `deal`)
    dealSeen: dealt.dealSeen || {},
    // the record's moves: {move, seen (per person's seat, the move's events as that seat
    // saw them), match_points, after (the version it made)}, or {undo: k} where a person
    // took back the last k moves
    moves,
    seed: dealt.seed,
    token: dealt.token,
    version: dealt.version,
    status: dealt.status,
    toAct: dealt.toAct,
    view: null,
    score: null,
    nextHand: null,
    loggedVersion: dealt.loggedVersion ?? -1,
    // what happened, a turn an entry: {hand, texts, seat (the mover; absent for a deal), undo,
    // eye (the person's seat whose eyes the texts are written for; absent: the one person)}
    log: dealt.log || [],
    // the tokens before the people's moves this hand, the latest last, each with its mover's
    // seat: Undo goes back to one
    undo: dealt.undo || [],
    // the hands are hidden until the next person says they hold the device
    veiled: Boolean(dealt.veiled),
    busy: true,
    prompt: null,
    hint: null,
    seedCheck: null,
    resumed: Boolean(dealt.resumed),
    // the version whose new tile was animated; where the person's tile left from
    animated: dealt.version,
    flyFrom: null,
    wasWaiting: false,
  };
}

function showGame() {
  // the form laid out before it folds: Chromium leaves a fieldset rebuilt and folded in
  // the same task without a box when it unfolds again
  void ui.setup.offsetHeight;
  ui.setupBox.open = false;
  ui.game.hidden = false;
  document.body.classList.add("playing");
  ui.skip.href = "#game";
  ui.skip.textContent = "Skip to the table";
  window.scrollTo(0, 0);
}

function clearGame() {
  ui.game.hidden = true;
  ui.game.dataset.waiting = "";
  ui.game.dataset.version = "";
  document.body.classList.remove("playing");
  ui.skip.href = "#setup-box";
  ui.skip.textContent = "Skip to the new match form";
  for (const node of [ui.gameTitle, ui.commitment, ui.seats, ui.lastMove, ui.table, ui.tableMore, ui.guide,
    ui.hand, ui.prompt, ui.actions, ui.hint, ui.result, ui.log]) {
    node.replaceChildren();
  }
  shownLog = null;
  ui.prompt.hidden = true;
  ui.hint.hidden = true;
  ui.result.hidden = true;
  ui.lastMove.hidden = true;
  ui.abandonConfirm.hidden = true;
  ui.abandon.hidden = false;
}

function setStatus(status, sentence) {
  ui.status.textContent = status;
  ui.turn.textContent = sentence;
}

// ------------------------------------------------------------------ a match kept across reloads
//
// After every move the match is saved in localStorage (its token, the record so far, the
// log and the tokens Undo can go back to), for the service it is played against; a page
// loaded there resumes it. A new match replaces it; "Abandon this match" drops it.

const SAVED = "domino-rules.playground.match";
const KEPT = ["ruleset", "players", "seat", "level", "levels", "options", "sentOptions", "gameId", "commitment",
  "deal", "dealSeen", "moves", "seed", "token", "version", "status", "toAct", "loggedVersion", "undo"];

function saveMatch() {
  if (!game || game.gen !== generation) return;
  const saved = { format: 1, api: apiBase(), log: game.log.slice(-300 * game.people.length) };
  for (const key of KEPT) saved[key] = game[key];
  try {
    localStorage.setItem(SAVED, JSON.stringify(saved));
  } catch {
    // storage full or refused: the match is not kept across a reload
  }
}

function forgetMatch() {
  try {
    localStorage.removeItem(SAVED);
  } catch {
    // nothing was kept
  }
}

/** The match saved before the page was loaded: `{saved}`, `{bad}` (why the entry is not
 * a match this page can resume: another page's, an older page's, or damaged), or null
 * when nothing is saved. */
function savedMatch() {
  let text;
  try {
    text = localStorage.getItem(SAVED);
  } catch {
    return null; // storage refused: nothing can have been kept
  }
  if (text === null) return null;
  let saved;
  try {
    saved = JSON.parse(text);
  } catch {
    return { bad: "it is not JSON" };
  }
  const bad = savedProblem(saved);
  return bad ? { bad } : { saved };
}

/** What is wrong with a saved match, or "" when the page can resume it. */
function savedProblem(saved) {
  if (saved === null || typeof saved !== "object" || Array.isArray(saved)) return "it is not a saved match";
  if (saved.format !== 1) return "it was saved by another version of this page";
  const text = (value) => typeof value === "string" && value !== "";
  const whole = (value) => Number.isInteger(value) && value >= 0;
  const objects = (value) => value === undefined || (Array.isArray(value)
    && value.every((item) => item !== null && typeof item === "object"));
  if (!text(saved.token)) return "it holds no state token";
  if (!text(saved.api)) return "it names no service";
  if (!text(saved.ruleset) || !whole(saved.players) || !whole(saved.seat) || saved.seat >= saved.players) {
    return "its game, players or seat are missing";
  }
  if (!whole(saved.version) || !text(saved.status) || !text(saved.level)) return "its version, status or bot level is missing";
  if (saved.options !== undefined && (saved.options === null || typeof saved.options !== "object" || Array.isArray(saved.options))) {
    return "its options are not a set of options";
  }
  if (!objects(saved.moves) || !objects(saved.deal)) return "its moves are damaged";
  if (saved.dealSeen !== undefined && (saved.dealSeen === null || typeof saved.dealSeen !== "object"
    || Array.isArray(saved.dealSeen) || !Object.values(saved.dealSeen).every((events) => Array.isArray(events) && objects(events)))) {
    return "its deal is damaged";
  }
  if (!objects(saved.log) || !(saved.log || []).every((entry) => Array.isArray(entry.texts))) return "its log is damaged";
  if (saved.undo !== undefined && !Array.isArray(saved.undo)) return "its take-backs are damaged";
  if (saved.levels !== undefined && (!Array.isArray(saved.levels) || saved.levels.length !== saved.players
    || !saved.levels.every(text) || saved.levels[saved.seat] !== PERSON)) {
    return "who plays each seat is damaged";
  }
  return "";
}

/** Say that the match kept in this browser cannot be resumed, and why; offer a fresh start
 * (which drops it). */
function offerFreshStart(why) {
  const error = { message: `The match saved in this browser cannot be resumed: ${why}.`, reason: "SAVED_MATCH_DAMAGED" };
  showError(error, null, {
    text: "Start afresh",
    run: () => {
      forgetMatch();
      clearError();
      newMatchForm();
    },
  });
}

/** Resume the match saved before the page was loaded, if it was played against this
 * service and nothing else is being played; a saved match that cannot be read is said so,
 * with a fresh start offered. */
async function resumeSaved() {
  const found = savedMatch();
  if (!found || game) return;
  if (found.bad) {
    offerFreshStart(found.bad);
    return;
  }
  const saved = found.saved;
  if (saved.api !== apiBase()) return;
  const info = catalogue.find((entry) => entry.id === saved.ruleset);
  if (!info) return;
  const gen = ++generation;
  const setup = {
    info, players: saved.players, seat: saved.seat, level: saved.level, levels: saved.levels, options: saved.options || {},
  };
  try {
    // with two or more people, nobody knows who holds the device after a reload: the
    // hands stay hidden until the person to act says it is them
    const veiled = seatLevels(setup).filter((level) => level === PERSON).length > 1 && saved.status !== "MATCH_OVER";
    game = newGame(gen, setup, saved.sentOptions, { ...saved, resumed: true, veiled });
    fillForm(setup);
  } catch (error) {
    generation += 1;
    game = null;
    offerFreshStart(`it does not fit this page (${error.message})`);
    return;
  }
  clearError();
  showGame();
  await play(gen);
}

/** Set the form to a match's ruleset, options and table, for the next one. */
function fillForm(setup) {
  ui.ruleset.value = setup.info.id;
  chooseRuleset();
  for (const input of ui.options.querySelectorAll("[data-option]")) {
    const value = setup.options[input.dataset.option];
    if (value === undefined) continue;
    setField(input, setup.info.options.find((o) => o.name === input.dataset.option), value);
  }
  syncProfile();
  fillPlayers();
  ui.players.value = String(setup.players);
  fillSeats();
  ui.seat.value = String(setup.seat);
  if ([...ui.level.options].some((option) => option.value === setup.level)) ui.level.value = setup.level;
  fillWho(seatLevels(setup));
  describeLevel();
}

function abandonMatch() {
  generation += 1;
  game = null;
  forgetMatch();
  clearError();
  clearGame();
  setStatus("", "");
  newMatchForm();
}

/** Open the form for a new match, and put the focus in it. */
function newMatchForm() {
  ui.setupBox.open = true;
  ui.setupBox.scrollIntoView({ block: "start" });
  ui.ruleset.focus({ preventScroll: true });
}

/** After a match: the same ruleset, options and table again, a new seed. */
function rematch() {
  if (!game) return;
  begin({
    info: game.info, players: game.players, seat: game.seat, level: game.level, levels: game.levels, options: game.options,
  });
}

/** After a match: the form for another one, starting from this one's settings. */
function newMatch() {
  if (game) fillForm(game);
  generation += 1;
  game = null;
  forgetMatch();
  clearGame();
  setStatus("", "");
  newMatchForm();
}

window.dominoState = () => (game
  ? {
    token: game.token,
    version: game.version,
    status: game.status,
    to_act: game.toAct,
    game_id: game.gameId,
    seed_commitment: game.commitment,
    ruleset: game.ruleset,
    players: game.players,
    seat: game.seat,
    level: game.level,
    levels: game.levels,
    people: game.people,
    passing: game.veiled,
    options: game.sentOptions || {},
    resumed: game.resumed,
    undo: game.undo.length,
  }
  : null);

// ------------------------------------------------------------------ playing

const isPerson = (seat) => game.levels[seat] === PERSON;
/** Whether two or more people share the device (pass-and-play). */
const passAndPlay = () => game.people.length > 1;

/** Fetch what the person's seat sees (and the score once a hand is over); with two or more
 * people, what each of their seats sees too, for their logs and records. */
async function refresh(gen) {
  const eyes = [game.seat, ...game.people.filter((s) => s !== game.seat)];
  const views = {};
  for (const eye of eyes) {
    views[eye] = await call("/v1/games:view", { state: game.token, seat: eye });
    if (gen !== generation) return false;
  }
  const view = views[game.seat];
  game.view = view;
  game.status = view.status;
  game.toAct = view.to_act;
  game.version = view.version;
  const last = game.moves.at(-1);
  const made = last && !last.undo && last.after === view.version ? last : null;
  if (view.version > game.loggedVersion) {
    game.loggedVersion = view.version;
    for (const eye of eyes) {
      // each person's log in their own words ("you"), from their own view
      const texts = drawScene({ ...game, seat: eye, view: views[eye] }, () => describe(views[eye].events));
      if (texts.length) {
        game.log.push({ hand: view.hand_number, texts, seat: made ? made.move.seat : undefined, eye: passAndPlay() ? eye : undefined });
      }
    }
  }
  if (made && made.match_points === undefined) {
    // a move as each person saw it (their own: as ApplyMove showed it); the match points
    // after any move
    made.seen = made.seen || {};
    for (const eye of eyes) if (made.seen[eye] === undefined) made.seen[eye] = views[eye].events;
    made.match_points = view.match_points;
  }
  game.score = null;
  game.nextHand = null;
  if (view.status !== "IN_PROGRESS") {
    const score = await call("/v1/games:score", { state: game.token });
    if (gen !== generation) return false;
    game.score = score;
    if (score.seed !== undefined) game.seed = score.seed; // revealed: the match is over
    if (view.status === "HAND_OVER") {
      const legal = await call("/v1/games:legalMoves", { state: game.token });
      if (gen !== generation) return false;
      game.nextHand = legal.moves.find((move) => move.kind === "NEXT_HAND") || null;
    }
  }
  saveMatch();
  return true;
}

/** Bring the page up to date, then let the bots move until the person is to act. */
async function play(gen) {
  try {
    game.busy = true;
    if (!(await refresh(gen))) return;
    while (gen === generation) {
      if (game.status === "IN_PROGRESS" && !isPerson(game.toAct)) {
        game.busy = true;
        render();
        await sleep(botDelay());
        if (gen !== generation) return;
        const suggestion = await call("/v1/games:suggestMove", {
          state: game.token, seat: game.toAct, level: game.levels[game.toAct],
        });
        if (gen !== generation) return;
        await send(suggestion.move, gen);
        continue;
      }
      // another person's turn: the device changes hands, every hand hidden meanwhile
      if (game.status === "IN_PROGRESS" && game.toAct !== game.seat) game.veiled = true;
      game.busy = false;
      render();
      if (game.status === "MATCH_OVER") await checkSeed(gen);
      return;
    }
  } catch (error) {
    if (gen !== generation) return;
    game.busy = false;
    render();
    ui.game.dataset.waiting = "";
    // a match resumed from before a reload that the service no longer takes (its token
    // refused) can be dropped from here
    const stuck = game.resumed && !game.view;
    showError(error, () => {
      clearError();
      play(gen);
    }, stuck ? { text: "Abandon this match", run: abandonMatch } : null);
  }
}

/** Apply a move (the person's or a bot's) and fetch the person's view of the result. */
async function send(move, gen) {
  const answer = await call("/v1/games:applyMove", {
    state: game.token, move, expected_version: game.version,
  });
  if (gen !== generation) return;
  game.token = answer.state;
  game.version = answer.version;
  game.status = answer.status;
  game.toAct = answer.to_act;
  // the record: a person's own move with the events ApplyMove showed them; the others'
  // events (and every move's match points) come with each person's next view
  const seen = isPerson(move.seat) && game.people.includes(move.seat) ? { [move.seat]: answer.events } : {};
  game.moves.push({ move, seen, after: answer.version });
  await refresh(gen);
}

/** The person to take the device: the one to act, or, a hand being over, the one who held
 * it; null while the bots play. */
function passSeat() {
  if (game.status === "IN_PROGRESS") return isPerson(game.toAct) ? game.toAct : null;
  return game.seat;
}

/** The person to act says they hold the device: their seat's view is shown. */
async function showHand() {
  const to = passSeat();
  if (!game || !game.veiled || game.busy || to === null) return;
  game.seat = to;
  game.veiled = false;
  game.prompt = null;
  game.hint = null;
  game.flyFrom = null;
  game.animated = game.version;
  game.wasWaiting = false;
  shownLog = null;
  await play(game.gen);
}

/** The person chose a move. */
async function choose(move) {
  if (!game || game.busy) return;
  const gen = game.gen;
  clearError();
  const from = move.tile ? ui.hand.querySelector(`[data-tile="${tileName(move.tile)}"] svg`) : null;
  game.flyFrom = from ? { rect: from.getBoundingClientRect(), version: game.version + 1 } : null;
  // Undo goes back to the token before this move, within this hand
  if (move.kind === "NEXT_HAND") game.undo = [];
  else game.undo.push({ token: game.token, version: game.version, hand: game.view.hand_number, seat: game.seat });
  if (game.undo.length > 30) game.undo.shift();
  game.busy = true;
  game.prompt = null;
  game.hint = null;
  render();
  try {
    await send(move, gen);
  } catch (error) {
    if (gen !== generation) return;
    game.undo.pop();
    game.busy = false;
    render();
    showError(error, () => {
      clearError();
      play(gen);
    });
    return;
  }
  await play(gen);
}

/** Whether the person may take back their last move: their turn, in the hand they made it,
 * and no other person's move since (a take-back never crosses another person's turn). */
function canUndo() {
  const back = game && game.undo.at(-1);
  return Boolean(back) && !game.busy && !game.veiled && game.status === "IN_PROGRESS" && game.toAct === game.seat
    && back.hand === game.view.hand_number && (back.seat ?? game.seat) === game.seat;
}

/** Why Undo is off, where the last move a person made this hand is another person's: "" when
 * it is not. */
function undoBlocked() {
  const back = game.undo.at(-1);
  if (!back || back.hand !== game.view.hand_number || (back.seat ?? game.seat) === game.seat) return "";
  return `Undo is off: the last move made by a person is seat ${back.seat}’s, and a move can be taken back only by its own player, before another person’s turn.`;
}

/** Take back the person's last move, and the bots' moves after it: the token from before
 * it comes back, and the record says how many moves were taken back. */
async function undo() {
  if (!canUndo()) return;
  const gen = game.gen;
  const back = game.undo.pop();
  const taken = game.version - back.version;
  clearError();
  game.token = back.token;
  game.version = back.version;
  game.moves.push({ undo: taken });
  game.loggedVersion = back.version;
  game.animated = back.version;
  const after = taken > 2 ? ` and the ${taken - 1} moves after it` : taken === 2 ? " and the move after it" : "";
  for (const eye of passAndPlay() ? game.people : [undefined]) {
    game.log.push({
      hand: back.hand,
      undo: true,
      eye,
      texts: [eye === undefined || eye === game.seat
        ? `You take back your move${after}: your turn again.`
        : `Seat ${game.seat} takes back their move${after}.`],
    });
  }
  game.prompt = null;
  game.hint = null;
  game.flyFrom = null;
  game.busy = true;
  render();
  await play(gen);
}

async function askHint() {
  if (!game || game.busy) return;
  const gen = game.gen;
  const version = game.version;
  game.hint = { loading: true };
  renderHint();
  try {
    const answer = await call("/v1/games:suggestMove", { state: game.token, seat: game.seat, level: "STRONG" });
    if (gen !== generation || !game || game.version !== version) return;
    game.hint = answer;
  } catch (error) {
    if (gen !== generation || !game) return;
    game.hint = null;
    showError(error);
  }
  render();
}

async function checkSeed(gen) {
  const seed = game.score && game.score.seed;
  if (seed === undefined || game.seedCheck) return;
  const digest = await sha256Hex(seed);
  if (gen !== generation) return;
  game.seedCheck = { seed, digest, ok: digest === game.commitment };
  renderResult();
}

// ------------------------------------------------------------------ the match record
//
// The person's record of the match (docs/records.md): a SEAT record, every move's events
// as their seat saw them, and the seed once the match is over and GetScore reveals it.
// Anyone can replay it (Replay, or "Open record" below) to check every move and score.

/** The JSON of a move or an event as a record writes it: the service prints every field,
 * a record leaves out those at their default. A field that may be present and zero (an
 * event's seat, count or points, an open pip, a train) is kept as the service sent it. */
function lean(value, keep) {
  if (Array.isArray(value)) return value.map((item) => lean(item, keep));
  if (value === null || typeof value !== "object") return value;
  const out = {};
  for (const [key, item] of Object.entries(value)) {
    const unset = item === 0 || item === false || item === ""
      || (typeof item === "string" && item.endsWith("_UNSPECIFIED"))
      || (Array.isArray(item) && !item.length);
    if (unset && !keep.has(key)) continue;
    out[key] = lean(item, keep);
  }
  return out;
}

const MOVE_KEEP = new Set(["open_pip", "train"]);
const EVENT_KEEP = new Set(["seat", "open_pip", "count", "points", "train"]);

/** A person's record of the match so far (its JSON form): the seat `eye`'s (a person's;
 * the one whose view is shown when not given), or null before a match. */
function matchRecord(eye) {
  if (!game) return null;
  const seat = eye === undefined || eye === null ? game.seat : Number(eye);
  if (!game.people.includes(seat)) return null;
  const record = { format: 1, ruleset: game.ruleset, players: game.players };
  if (game.sentOptions) record.options = game.sentOptions;
  record.game_id = game.gameId;
  record.seed_commitment = game.commitment;
  if (game.seed !== undefined) record.seed = game.seed;
  record.viewpoint = "SEAT";
  record.seat = seat;
  record.deal = lean(game.dealSeen[seat] || game.deal, EVENT_KEEP);
  record.moves = game.moves.map((recorded) => {
    // a take-back: the match goes back `undo` moves (the person's last and the bots' after it)
    if (recorded.undo) return { undo: recorded.undo };
    const events = (recorded.seen || {})[seat];
    const out = { move: lean(seen(recorded, seat, events), MOVE_KEEP) };
    if (events && events.length) out.events = lean(events, EVENT_KEEP);
    if (recorded.match_points) out.match_points = recorded.match_points;
    return out;
  });
  return record;
}

/**
 * A move as the person saw it: while the match is on, another seat's move whose own
 * event reached the person hidden (a tile laid face down) keeps no tile, since the person
 * never saw it. The page knows it (it applied the bot's move); once the match is over and
 * the seed is out, the page, the bots' table, turns those tiles up, so that the finished
 * match's record replays to its end.
 */
function seen(recorded, seat, events) {
  const move = recorded.move;
  if (game.seed !== undefined || move.seat === seat || !events) return move;
  const hidden = events.some((event) => event.hidden && event.seat === move.seat
    && event.kind === move.kind);
  if (!hidden) return move;
  const { tile, target, open_pip: openPip, ...shown } = move;
  return shown;
}

window.dominoRecord = (seat) => matchRecord(seat);

const recordFileName = (record) =>
  `${record.ruleset}-${record.game_id}.record.json`.replace(/[^A-Za-z0-9_.-]/g, "_");

function downloadRecord() {
  const record = matchRecord();
  if (!record) return;
  const blob = new Blob([`${JSON.stringify(record, null, 2)}\n`], { type: "application/json" });
  const url = URL.createObjectURL(blob);
  const link = h("a", { href: url, download: recordFileName(record), hidden: true });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60000);
}

function renderRecordNote() {
  const made = game.moves.filter((recorded) => !recorded.undo).length;
  const undone = game.moves.length - made;
  const takeBacks = undone ? ` (${plural(undone, "take-back")} included)` : "";
  ui.recordNote.textContent = game.seed !== undefined
    ? `Your seat's record of all ${plural(made, "move")}${takeBacks}, with the revealed seed: anyone can replay it and check every move.`
    : `Your seat's record of the ${plural(made, "move")} so far${takeBacks}. The seed joins it when the match is over; until then it cannot be replayed.`;
}

// ------------------------------------------------------------------ what is drawn
//
// The words and the drawing below read the scene: the match being played (`game`), or,
// while the record viewer draws one of its steps, that step (`drawScene`). A scene has
// `info` (the ruleset's catalogue entry), `ruleset`, `options` (the ruleset's own, as
// JSON writes them), `players`, `seat` (whose eyes: undefined for a spectator), `view`,
// `status`, `toAct`, and optionally `box` (the element the table is drawn in) and
// `seatName(seat)`.

let shown = null;
const scene = () => shown || game;

/** Draw `what` (a scene) with `draw()`, which runs at once; the match's scene after. */
function drawScene(what, draw) {
  const before = shown;
  shown = what;
  try {
    return draw();
  } finally {
    shown = before;
  }
}

// ------------------------------------------------------------------ words

const who = (seat) => (seat === scene().seat ? "you" : `seat ${seat}`);
const Who = (seat) => capital(who(seat));

/** A verb after a seat: "you play", "seat 2 plays". */
function act(seat, verb) {
  if (seat === scene().seat) return `You ${verb}`;
  const irregular = { have: "has", are: "is" };
  const third = irregular[verb] || (/(s|sh|ch|x)$/.test(verb) ? `${verb}es` : `${verb}s`);
  return `Seat ${seat} ${third}`;
}

/** Whether `seats` are one side of a partnership (both partners). */
function oneSide(seats) {
  const side = sideOf(seats[0]);
  return seats.length > 1 && side.length === seats.length && seats.every((s) => side.includes(s));
}

function winnersWords(seats, what) {
  if (!seats || !seats.length) return `Nobody ${what === "hand" ? "scores" : "wins"}.`;
  if (seats.length === 1) return seats[0] === scene().seat ? `You win the ${what}.` : `Seat ${seats[0]} wins the ${what}.`;
  if (oneSide(seats)) return `${capital(sideName(seats, true))} wins the ${what}${sideLead(seats, what)}.`;
  return `${capital(listWords(seats.map(who)))} share the ${what}.`;
}

const END_WORDS = {
  DOMINOED: "a player laid their last tile",
  TARGET_REACHED: "a side reached the target score, which ends the match at once, in the middle of the hand",
  BLOCKED: "the line is blocked: no tile in any hand can be laid",
  IDLE_ROUNDS: "two rounds in a row went by with no tile laid",
  WOODPILE_EXHAUSTED: "the woodpile is used up",
  ALL_TILES_PLACED: "every tile has been played or discarded",
};

/** One move's events in words; a run of hidden draws by one seat is one sentence. */
function describe(events) {
  const texts = [];
  for (let i = 0; i < events.length; i++) {
    const e = events[i];
    let run = 1;
    while (
      e.kind === "DRAW" && !hasTile(e.tile) && i + run < events.length
      && events[i + run].kind === "DRAW" && !hasTile(events[i + run].tile) && events[i + run].seat === e.seat
    ) run += 1;
    if (run > 1) {
      texts.push(`${act(e.seat, "draw")} ${run} tiles.`);
      i += run - 1;
    } else texts.push(eventText(e, events));
  }
  return texts;
}

/** The open ends a move or an event may name, in words. */
const END_NAMES = { LEFT: "left", RIGHT: "right", UP: "up", DOWN: "down" };

/** The seats of `seat`'s side: itself, or both partners (seats 0 and 2, 1 and 3) where the
 * match's `partnership` option is on with four players. */
function sideOf(seat) {
  const { players } = scene();
  if (players === 4 && optionValue("partnership") === "true") return [seat % 2, seat % 2 + 2];
  return [seat];
}

/** Whether the match is played in sides of more than one seat (a partnership). */
function inSides() {
  return sides().some((side) => side.length > 1);
}

/** The seat that shares `seat`'s side, where it has one. */
function partnerOf(seat) {
  return sideOf(seat).find((s) => s !== seat);
}

/** A side of partners by name: "your side (you and your partner, seat 2)", "the other side
 * (seats 1 and 3)"; a spectator's: "the side of seats 0 and 2". `full`: with its seats. */
function sideName(side, full = false) {
  const you = scene().seat;
  if (you === undefined || you === null) return `the side of seats ${listWords(side.map(String))}`;
  if (side.includes(you)) {
    return full ? `your side (you and your partner, seat ${partnerOf(you)})` : "your side";
  }
  return full ? `the other side (seats ${listWords(side.map(String))})` : "the other side";
}

/** Why a side won the match, in points: " with 104 points to 62". */
function sideLead(side, what) {
  const points = scene().view && scene().view.match_points;
  if (what !== "match" || !points) return "";
  const theirs = points[side[0]] ?? 0;
  const others = sides().filter((s) => s[0] !== side[0]).map((s) => points[s[0]] ?? 0);
  return others.length ? ` with ${plural(theirs, "point")} to ${listWords(others.map(String))}` : "";
}

/** A side in words: "you", "seat 2", "you and seat 2", "seats 1 and 3". */
function sideWords(seats) {
  if (seats.length === 1) return who(seats[0]);
  const others = seats.filter((s) => s !== scene().seat);
  if (others.length < seats.length) return `you and ${listWords(others.map((s) => `seat ${s}`))}`;
  return `seats ${listWords(seats.map(String))}`;
}

/** Why a count scores the points it does, where that is not the count itself: " (3 fives
 * and 5 threes)", a point for each five and each three in it; " (15 ÷ 5)", a count scored
 * divided by five. */
function countWhy(count, points) {
  if (points === count || !count) return "";
  const fives = count % 5 === 0 ? count / 5 : 0;
  const threes = count % 3 === 0 ? count / 3 : 0;
  if (optionValue("play_scoring") === "FIVES_AND_THREES" && fives + threes === points) {
    return ` (${listWords([fives && plural(fives, "five"), threes && plural(threes, "three")].filter(Boolean))})`;
  }
  if (points * 5 === count) return ` (${count} ÷ 5)`;
  return "";
}

/** Whether a count is one that scores (a multiple of 5, or of 3 where threes score too). */
function scoringCount(count) {
  if (!count) return false;
  return count % 5 === 0 || (optionValue("play_scoring") === "FIVES_AND_THREES" && count % 3 === 0);
}

/** A score made as a play is made: "Count 15: you score 15", "Count 15: seat 2 scores 8 (3
 * fives and 5 threes)", and for whom in a partnership. */
function pegWords(e) {
  const side = sideOf(e.seat);
  const partners = side.length > 1 ? ` for ${side.includes(scene().seat) ? "your side" : sideWords(side)}` : "";
  const verb = e.seat === scene().seat ? "score" : "scores";
  return `Count ${e.count}: ${who(e.seat)} ${verb} ${e.points ?? 0}${partners}${countWhy(e.count, e.points ?? 0)}.`;
}

function eventText(e, events = []) {
  const own = LAYOUTS[layout()]?.words?.(e);
  if (own) return own;
  const seat = e.seat;
  const t = hasTile(e.tile) ? `[${tileName(e.tile)}]` : null;
  const end = END_NAMES[e.end] ? ` on the ${END_NAMES[e.end]} end` : "";
  switch (e.kind) {
    case "DEAL":
      return `The tiles are shuffled and dealt: ${plural(e.count, "tile")} each.`;
    case "REDEAL":
      return "Nobody was dealt a double: the tiles are dealt again.";
    case "LEADER":
      return `${act(seat, "lead")} this hand.`;
    case "PLAY": {
      if (layout() === "CROSS") return crossPlayWords(e, events, t, end);
      const line = layout() === "LINE";
      const open = e.open_pip !== undefined && !line ? `; ${e.open_pip} is open` : "";
      const start = line && !end ? " to start the line" : "";
      return `${act(seat, "play")} ${t}${end}${start}${open}.`;
    }
    case "AUTO_PLAY":
      return `${act(seat, "draw")} ${t}, which matches, and it is played at once${e.open_pip !== undefined ? `; ${e.open_pip} is open` : ""}.`;
    case "DRAW":
      return t ? `${act(seat, "draw")} ${t}.` : `${act(seat, "draw")} a tile.`;
    case "BONUS_TURN":
      return `${act(seat, "play")} again: a double earns a bonus turn.`;
    case "PASS":
      return `${act(seat, "pass")}.`;
    case "TURN_PASSED":
      return `${act(seat, "have")} nothing more to do; the turn passes.`;
    case "DISCARD":
      return t ? `${act(seat, "discard")} ${t} face down.` : `${act(seat, "discard")} a tile face down.`;
    case "CAPTURE": {
      const target = hasTile(e.target) ? `[${tileName(e.target)}]` : "a tile";
      return (e.tiles || []).length > 2
        ? `${act(seat, "catch")} the pile of ${target} with ${t}.`
        : `${act(seat, "catch")} ${target} with ${t}.`;
    }
    case "PILE":
      return `${act(seat, "pile")} three ${t} together in the lake: only the fourth can take them.`;
    case "PAIR_LAID":
      return `${act(seat, "lay")} a pair of ${t || "[6-6]"} straight into the catch.`;
    case "REVEAL":
      return `${act(seat, "draw")} ${t} from the woodpile.`;
    case "TO_LAKE":
      return `${t} matches nothing and joins the lake.`;
    case "DICE": {
      const total = (e.dice || []).reduce((sum, n) => sum + n, 0);
      return `${act(seat, "throw")} ${(e.dice || []).join(", ")} (total ${total}).`;
    }
    case "PEG":
      if (e.count !== undefined) return pegWords(e);
      return `${act(seat, "peg")} ${plural(e.points || 0, "point")}.`;
    case "HAND_OVER":
      return `The hand is over. ${winnersWords(e.seats, "hand")}`;
    case "MATCH_OVER":
      return `The match is over. ${winnersWords(e.seats, "match")}`;
    case "NEXT_HAND":
      return `Hand ${e.count} begins.`;
    case "CHOICE":
      return `${act(seat, "choose")} what the drawn ${t} catches.`;
    default:
      return `${String(e.kind || "event").toLowerCase().replace(/_/g, " ")}${seat !== undefined ? ` (seat ${seat})` : ""}.`;
  }
}

// ------------------------------------------------------------------ the ruleset's drawing
//
// Everything that differs between rulesets comes from the catalogue (ListRulesets): the
// ruleset's `drawing` says how its table is laid out, which fields of its own part of the
// view (the view's field named like the ruleset id) hold what, how tiles are painted and
// how some moves are called. Nothing here names a ruleset.

/** How the playground draws the ruleset of the match. */
const drawing = () => scene().info.drawing || {};
const layout = () => drawing().layout || "LAYOUT_UNSPECIFIED";
/** The ruleset's own part of a view (its table message), or an empty object. */
const tableOf = (view) => view[scene().ruleset] || {};

/** An option's value in the match, as JSON writes it (its default when not given). */
function optionValue(name) {
  const value = scene().options[name];
  if (value !== undefined) return String(value);
  const option = scene().info.options.find((o) => o.name === name);
  return option ? option.default : undefined;
}

/** The open end or half a tile is laid on, where the ruleset has one. */
function openPip() {
  const field = drawing().open_field;
  return field ? tableOf(scene().view)[field] : undefined;
}

function isPile(tile) {
  return (tableOf(scene().view).piles || []).some((pile) => sameTile(pile, tile));
}

/** The ruleset's own label for a kind of move, if it has one. */
function kindLabel(kind) {
  const found = (drawing().move_labels || []).find((m) => m.kind === kind);
  return found ? found.label : undefined;
}

/** A move in words, as its button's accessible name. */
function moveLabel(move) {
  const named = LAYOUTS[layout()]?.moveLabel?.(move);
  if (named) return named;
  const t = move.tile ? tileName(move.tile) : "";
  const open = openPip();
  switch (move.kind) {
    case "PLAY":
      if (layout() === "LINE") {
        if (move.end === "LEFT") return `play ${t} on the left end`;
        if (move.end === "RIGHT") return `play ${t} on the right end`;
        return `play ${t} to start the line`;
      }
      if (layout() === "CROSS") {
        if (END_NAMES[move.end]) return `play ${t} on the ${END_NAMES[move.end]} end`;
        return `lead ${t}`;
      }
      if (move.open_pip !== undefined) return `lead ${t}, leaving ${move.open_pip} open`;
      if (open === undefined) return `lead ${t}`;
      return `play ${t} on the open ${open}, leaving ${move.tile.high === open ? move.tile.low : move.tile.high} open`;
    case "DISCARD":
      return `discard ${t} face down`;
    case "CAPTURE":
      return isPile(move.target) && sameTile(move.target, move.tile)
        ? `catch the pile of ${tileName(move.target)} with ${t}`
        : `catch ${tileName(move.target)} with ${t}`;
    case "CAPTURE_DRAWN":
      return isPile(move.target) && sameTile(move.target, move.tile)
        ? `catch the pile of ${tileName(move.target)} with the drawn ${t}`
        : `catch ${tileName(move.target)} with the drawn ${t}`;
    case "PILE":
      return `pile ${t} with the two ${t} in the lake`;
    case "DRAW":
      return kindLabel("DRAW") || "draw a tile";
    case "PASS":
      return "pass";
    case "NEXT_HAND":
      return "deal the next hand";
    default:
      return move.kind.toLowerCase();
  }
}

// ------------------------------------------------------------------ rendering

/** How tiles are painted: false (black pips), true (Chinese: ones and fours red) or "all"
 * (Chinese, and every six red), as the ruleset's drawing and the match's options say. */
function red() {
  let faces = drawing().faces || "PLAIN";
  for (const when of drawing().faces_when || []) {
    if (optionValue(when.option) === when.value) {
      faces = when.faces;
      break;
    }
  }
  return faces === "CHINESE_RED_SIXES" ? "all" : faces === "CHINESE";
}

/** A phone's width: every tile the person acts with or on is drawn 32 px wide or more
 * (a half of 33 px: its face and outline fill 98 % of it). */
const narrow = () => window.innerWidth < 640;
/** The side of a tile's half in the hand and on the table. */
const handSize = () => (narrow() ? 33 : 36);
const tableSize = () => (narrow() ? 33 : 34);
/** The side of a tile's half on a button or in the prompt (lying across). */
const buttonTile = () => (narrow() ? 33 : 20);
/** The tallest a line is drawn whole above the hand; a longer one shows its ends. */
const lineBudget = () => (narrow() ? 170 : 270);
const reducedMotion = () => window.matchMedia("(prefers-reduced-motion: reduce)").matches;
/** Whether the scene drawn is the match being played (not a step of a replay). */
const live = () => shown === null;
/** How much the table gives up for the hand and the moves to fit the window: 0 nothing,
 * 1 a line shows only its ends, 2 the moves since the person's are told in one line, and
 * where a layout goes further (its `squeezes`), 3 what the layout says. */
let squeeze = 0;

function render() {
  if (!game || !game.view) return;
  showPass(game.veiled);
  if (game.veiled) {
    renderPass();
    return;
  }
  const view = game.view;
  const waiting = !game.busy && (game.status === "HAND_OVER" || (game.status === "IN_PROGRESS" && game.toAct === game.seat));
  const over = game.status === "MATCH_OVER";
  ui.game.dataset.version = String(game.version);
  ui.game.dataset.waiting = over ? "over" : waiting ? "you" : "";
  // a ruleset's variant by its own name, where the match's options are one of its profiles
  const profile = matchingProfile(game.info, game.options || {});
  ui.gameTitle.textContent = `${profile ? profile.name : game.info.name} · hand ${view.hand_number}`;
  ui.rulesLink.href = rulesUrl(game.info);
  ui.rulesLink.textContent = "Rules";
  ui.rulesLink.setAttribute("aria-label", `The rules of ${game.info.name} (opens in a new tab)`);
  renderCommitment();
  renderRecordNote();
  renderStatus(waiting);
  renderSeats();
  renderLastMove();
  renderTable();
  renderHand(waiting);
  renderHint();
  renderResult();
  renderLog();
  fitTheWindow();
  if (over) ui.abandonConfirm.hidden = true;
  ui.abandon.hidden = over || !ui.abandonConfirm.hidden;
  animateArrival();
  // the focus goes to the first legal move when the turn comes back (or to Rematch when
  // the match ends), unless the person is busy elsewhere on the page
  const comesBack = (waiting || over) && !game.wasWaiting;
  game.wasWaiting = waiting || over;
  const focused = document.activeElement;
  // (a control in a folded part of the page, as Start once the match is dealt, is not)
  const usable = focused && focused !== document.body && focused.isConnected
    && (typeof focused.checkVisibility === "function" ? focused.checkVisibility() : focused.getClientRects().length > 0);
  const here = !usable || ui.game.contains(focused);
  if ((waiting || over) && here && (comesBack || !usable)) {
    const first = over
      ? $("rematch")
      : ui.game.querySelector("#prompt [data-move], #hand [data-move], #actions [data-move]");
    if (first && first !== focused) first.focus();
  }
}

/** Show the pass screen (`on`) or the table: nothing of the table stays in the page behind
 * the pass screen, neither a hand nor the log nor a face-down discard. */
function showPass(on) {
  ui.pass.hidden = !on;
  for (const part of [ui.handArea, ui.logBox, ui.recordTools, ui.table]) part.hidden = on;
  if (!on) {
    ui.pass.replaceChildren();
    return;
  }
  for (const node of [ui.seats, ui.sides, ui.lastMove, ui.table, ui.tableMore, ui.guide, ui.hand, ui.prompt,
    ui.actions, ui.hint, ui.result, ui.log]) {
    node.replaceChildren();
  }
  shownLog = null;
  for (const node of [ui.sides, ui.lastMove, ui.prompt, ui.hint, ui.result]) node.hidden = true;
}

/** The pass screen: whom to hand the device to, and their button to show their hand. */
function renderPass() {
  const to = passSeat();
  const ready = !game.busy && to !== null;
  ui.game.dataset.version = String(game.version);
  ui.game.dataset.waiting = ready ? "pass" : "";
  const profile = matchingProfile(game.info, game.options || {});
  ui.gameTitle.textContent = `${profile ? profile.name : game.info.name} · hand ${game.view.hand_number}`;
  ui.rulesLink.href = rulesUrl(game.info);
  renderCommitment();
  if (!ready) {
    const bot = game.status === "IN_PROGRESS" && !isPerson(game.toAct) ? game.toAct : null;
    setStatus(game.status, bot === null ? "The hands are hidden" : `Seat ${bot} (${levelName(game.levels[bot])} bot) is thinking…`);
    ui.pass.replaceChildren(
      h("h3", { id: "pass-title", text: "The hands are hidden" }),
      h("p", { text: "The bots are playing. When a person’s turn comes, the page says whom to give the device to." }),
    );
    return;
  }
  const partner = inSides() ? partnerOf(to) : undefined;
  const who = partner !== undefined ? `seat ${to}, partner of seat ${partner}` : `seat ${to}`;
  const turn = game.status === "IN_PROGRESS"
    ? `It is the turn of ${who}.`
    : `The hand is over: ${who} sees how it ended and deals the next one.`;
  setStatus(game.status, `Pass the device to seat ${to}`);
  const why = game.resumed && game.seat === to
    ? "The match is back where it was. So that nobody sees a hand that is not theirs, every hand stays hidden until the player whose turn it is says it is them."
    : "Every hand is hidden so that nobody sees another player’s tiles. Give the device to the player of that seat; they press the button when nobody else can see the screen.";
  const button = h("button", { type: "button", id: "pass-show", class: "big primary", onclick: showHand, text: `I am seat ${to}, show my hand` });
  ui.pass.replaceChildren(
    h("h3", { id: "pass-title", text: `Pass the device to seat ${to}` }),
    h("p", { class: "pass-who", text: turn }),
    h("p", { text: why }),
    h("p", {}, button),
  );
  const focused = document.activeElement;
  if (!focused || focused === document.body || ui.game.contains(focused) || !focused.isConnected) button.focus();
}

/** Where the hand or its moves end below the window (the page at its top), draw the
 * table smaller until they fit, as far as it goes; then, where the hand still wraps to a
 * second row below the window (ten tiles on a phone), its tiles smaller, to one row. */
function fitTheWindow() {
  const bottom = () => Math.max(ui.hand.getBoundingClientRect().bottom, ui.actions.getBoundingClientRect().bottom) + window.scrollY;
  const most = (LAYOUTS[layout()] || {}).squeezes || 2;
  squeeze = 0;
  sizeTheHand(handSize());
  while (squeeze < most && bottom() > window.innerHeight) {
    squeeze += 1;
    renderLastMove();
    renderTable();
  }
  if (bottom() > window.innerHeight) sizeTheHand(oneRowSize());
}

/** The tiles of the hand drawn at `size` (their buttons kept: the person may be pressing
 * one). */
function sizeTheHand(size) {
  for (const svg of ui.hand.querySelectorAll("svg.tile-svg")) {
    svg.setAttribute("width", String(size));
    svg.setAttribute("height", String(2 * size));
  }
}

/** The largest tile (no larger than the hand's own, nor smaller than SMALLEST_HAND_TILE)
 * with which the hand lies in one row. */
const SMALLEST_HAND_TILE = 22;
function oneRowSize() {
  const tiles = [...ui.hand.children];
  const size = handSize();
  if (tiles.length < 2 || tiles.at(-1).getBoundingClientRect().top === tiles[0].getBoundingClientRect().top) return size;
  // a tile's padding and border (a button's and an idle tile's may differ)
  const around = Math.max(...tiles.map((t) => t.getBoundingClientRect().width - size));
  const gap = parseFloat(getComputedStyle(ui.hand).columnGap) || 0;
  const fits = Math.floor((ui.hand.clientWidth + gap) / tiles.length - gap - around);
  return Math.max(SMALLEST_HAND_TILE, Math.min(size, fits));
}

/** The tiles laid last slide onto the table (from the hand, for the person's own), unless
 * the person asks for reduced motion. */
function animateArrival() {
  if (game.animated === game.version) return;
  game.animated = game.version;
  const fly = game.flyFrom;
  game.flyFrom = null;
  if (reducedMotion()) return;
  for (const node of ui.table.querySelectorAll("[data-last]")) {
    if (typeof node.animate !== "function") continue;
    const to = node.getBoundingClientRect();
    if (fly && fly.version === game.version) {
      const dx = fly.rect.left + fly.rect.width / 2 - (to.left + to.width / 2);
      const dy = fly.rect.top + fly.rect.height / 2 - (to.top + to.height / 2);
      node.animate([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "translate(0px, 0px)" }],
        { duration: 280, easing: "ease-out" });
    } else {
      node.animate([{ opacity: 0, transform: "translate(0px, -12px)" }, { opacity: 1, transform: "translate(0px, 0px)" }],
        { duration: 220, easing: "ease-out" });
    }
  }
}

/** "you win", "seat 2 wins", "you and seat 1 share the hand". */
function outcome(seats, what) {
  if (!seats || !seats.length) return what === "hand" ? "nobody scores" : "nobody wins";
  if (seats.length === 1) return seats[0] === game.seat ? "you win" : `seat ${seats[0]} wins`;
  if (oneSide(seats)) return `${sideName(seats, true)} wins the ${what}`;
  const others = seats.filter((seat) => seat !== game.seat);
  const shared = what === "hand" ? "the hand" : "the win";
  return others.length < seats.length
    ? `you and ${listWords(others.map((seat) => `seat ${seat}`))} share ${shared}`
    : `seats ${listWords(seats.map(String))} share ${shared}`;
}

/** A seat's name at the table: "You", or its number and who plays it (a bot's level, or a
 * person). */
function seatTitle(seat) {
  const partner = inSides() && partnerOf(game.seat) === seat ? ", your partner" : "";
  if (seat === game.seat) return "You";
  return `Seat ${seat}${partner} (${isPerson(seat) ? "a person" : `${levelName(game.levels[seat])} bot`})`;
}

function renderStatus(waiting) {
  let sentence;
  if (game.status === "MATCH_OVER") {
    sentence = `Match over — ${outcome(game.score ? game.score.winners : [], "match")}`;
    const last = game.score && game.score.hands.at(-1);
    if (last && last.end === "TARGET_REACHED") sentence += `: ${targetWords(game.score.winners, last.hand)}`;
  } else if (game.status === "HAND_OVER") {
    const last = game.score && game.score.hands.at(-1);
    sentence = `Hand ${game.view.hand_number} over — ${outcome(last ? last.winners : [], "hand")}`;
    if (waiting) sentence += ". Deal the next hand when you are ready";
  } else if (game.toAct === game.seat) {
    sentence = waiting ? (passAndPlay() ? `Your turn, seat ${game.seat}` : "Your turn") : "Playing your move…";
  } else {
    sentence = `${seatTitle(game.toAct)} is thinking…`;
  }
  setStatus(game.status, sentence);
}

function renderCommitment() {
  ui.commitment.replaceChildren(
    h("span", { text: "Commitment to the deal (the SHA-256 of a seed revealed when the match ends): " }),
    h("code", { class: "hex", text: game.commitment }),
  );
}

function renderSeats() {
  ui.seats.replaceChildren(...seatItems());
  renderSides();
}

/** In a partnership, each side's match points, by name: "Your side (you and your partner,
 * seat 2): 35 · The other side (seats 1 and 3): 20 · first to 100". */
function renderSides() {
  ui.sides.hidden = !inSides();
  if (ui.sides.hidden) {
    ui.sides.replaceChildren();
    return;
  }
  const points = game.view.match_points;
  const target = Number(optionValue("target_score"));
  ui.sides.replaceChildren(
    h("span", { class: "visually-hidden", text: "Scores by side: " }),
    ...sides().flatMap((side, i) => [
      i ? " · " : "",
      h("span", { class: `side-score side-${i}`, "data-side": i },
        h("strong", { text: `${capital(sideName(side, true))}: ` }), plural(points[side[0]] ?? 0, "point")),
    ]),
    Number.isInteger(target) && target > 0 ? ` · first to ${target}` : "",
  );
}

/** The scene's seats: each one's name (and bot level), tiles, match points and the
 * ruleset's facts. */
function seatItems() {
  const { view, players, status, toAct, seatName } = scene();
  const table = tableOf(view);
  const items = [];
  for (let seat = 0; seat < players; seat++) {
    const you = seat === scene().seat;
    const acting = status === "IN_PROGRESS" && toAct === seat;
    const facts = [plural(view.hand_sizes[seat] ?? 0, "tile"), `${view.match_points[seat] ?? 0} pts`];
    for (const fact of drawing().seat_facts || []) facts.push(`${fact.label} ${table[fact.field]?.[seat] ?? 0}`);
    const badges = [];
    if (table.leader === seat) badges.push(h("span", { class: "badge", text: "leads" }));
    if (acting) {
      const text = seatName ? "to play" : you ? "your turn" : scene().levels && scene().levels[seat] === PERSON ? "to play" : "thinking…";
      badges.push(h("span", { class: "badge acting", text }));
    }
    let name;
    if (seatName) {
      name = [h("span", { class: "seat-name", text: seatName(seat) })];
    } else if (you) {
      name = [h("span", { class: "seat-name", text: "You" }), h("span", { class: "seat-level", text: `seat ${seat}` })];
    } else if (scene().levels && scene().levels[seat] === PERSON) {
      name = [h("span", { class: "seat-name", text: `Seat ${seat}` }), h("span", { class: "seat-level", text: "a person" })];
    } else {
      const level = scene().levels ? scene().levels[seat] : scene().level;
      name = [
        h("span", { class: "seat-name", text: `Seat ${seat}` }),
        h("span", { class: "seat-level", title: levelAbout(scene().info, level), text: `${levelName(level)} bot` }),
      ];
    }
    let side = "";
    if (inSides()) {
      const group = sides().findIndex((s) => s.includes(seat));
      side = ` side-${group}`;
      const mine = scene().seat;
      const tag = mine === undefined || mine === null
        ? `partner of seat ${partnerOf(seat)}`
        : you ? "your side" : partnerOf(mine) === seat ? "your partner" : "other side";
      name.push(h("span", { class: "side-tag", text: tag }));
    }
    items.push(
      h("li", { class: `seat${you ? " you" : ""}${acting ? " acting" : ""}${side}`, "data-seat": seat, "data-side": side ? side.trim().slice(5) : null },
        ...name,
        ...badges,
        h("span", { class: "seat-facts", text: facts.join(" · ") })),
    );
  }
  return items;
}

/** The log's entries the person whose view is shown may read: those written for their eyes. */
const ownLog = () => game.log.filter((entry) => entry.eye === undefined || entry.eye === game.seat);

/** The moves since the person's own (at most three), the latest last: what the others did. */
function sinceYourMove() {
  const entries = [];
  const log = ownLog();
  for (let i = log.length - 1; i >= 0 && entries.length < 3; i--) {
    const entry = log[i];
    if (entry.seat === game.seat) {
      if (!entries.length) entries.push(entry); // the person's own move is the last one
      break;
    }
    entries.unshift(entry);
    if (entry.undo) break;
  }
  return entries;
}

function renderLastMove() {
  const entries = squeeze >= 2 ? sinceYourMove().slice(-1) : sinceYourMove();
  ui.lastMove.hidden = !entries.length;
  if (!entries.length) {
    ui.lastMove.replaceChildren();
    return;
  }
  ui.lastMove.replaceChildren(
    h("ol", { "aria-label": "The last moves" },
      ...entries.map((entry, i) => h("li", { class: i === entries.length - 1 ? "latest" : "", text: entry.texts.join(" ") }))),
  );
}

function tableWidth() {
  return Math.max(240, Math.min((scene().box || ui.table).clientWidth || 320, 1200) - 16);
}

/** The side of a tile's half in a line: bigger on a wide table, never under 33 px. */
function lineSize(width) {
  return width < 600 ? 33 : Math.max(33, Math.min(40, Math.floor(width / 24)));
}

function renderTable() {
  const parts = tableParts();
  ui.table.replaceChildren(...parts.main);
  ui.tableMore.replaceChildren(...parts.more);
  ui.tableMore.hidden = !parts.more.length;
}

/** The scene's table, drawn as the ruleset's layout says: `main`, what the person acts on
 * (drawn above their hand), and `more`, the rest (below it). */
function tableParts() {
  const view = scene().view;
  const kind = LAYOUTS[layout()];
  return kind ? kind.table(view, tableOf(view)) : { main: plainTable(view), more: [] };
}

/** A ruleset with no table of its own: what every view has. */
function plainTable(view) {
  return [h("p", { class: "facts", text: `Stock: ${plural(view.stock, "tile")}` })];
}

/** The tiles the scene's last move laid on the table (its PLAY events). */
function laidTiles(view) {
  return (view.events || []).filter((e) => (e.kind === "PLAY" || e.kind === "AUTO_PLAY") && hasTile(e.tile)).map((e) => e.tile);
}

/** The indices in `chain` ({first, second}) of the tiles in `tiles`. */
function indicesOf(chain, tiles) {
  const found = [];
  chain.forEach((link, i) => {
    if (tiles.some((t) => (t.high === link.first && t.low === link.second) || (t.high === link.second && t.low === link.first))) found.push(i);
  });
  return found;
}

/** A chain of tiles ({first, second}) drawn whole when it fits its height above the hand,
 * else as its first `head` and last `tail` tiles with the number between (the whole chain
 * then in `more`, below the hand). `marks`, `last` and `ends` as snakeSvg takes them. */
function chainParts(chain, { marks, last, ends, head, tail, label, whole }) {
  const width = tableWidth();
  const size = lineSize(width);
  const drawn = snakeSvg(chain, { width, size, red: red(), marks, last, ends, label });
  const fits = Number(drawn.getAttribute("height")) <= lineBudget() && squeeze === 0;
  if (!live() || chain.length <= head + tail || fits) {
    return { main: [h("div", { class: "line-box" }, drawn)], more: [] };
  }
  const part = (from, to) => {
    const index = (i) => i - from;
    const pick = (map) => Object.fromEntries(Object.entries(map)
      .filter(([i]) => Number(i) >= from && Number(i) < to).map(([i, v]) => [index(Number(i)), v]));
    return snakeSvg(chain.slice(from, to), {
      width, size, red: red(), row: true, marks: pick(marks), ends: pick(ends),
      last: last.filter((i) => i >= from && i < to).map(index),
    });
  };
  const between = chain.length - head - tail;
  return {
    main: [
      h("div", { class: "line-ends", role: "img", "aria-label": label },
        h("div", { class: "line-head" }, part(0, head)),
        h("span", { class: "line-gap", "aria-hidden": "true", text: `… ${plural(between, "tile")} …` }),
        h("div", { class: "line-tail" }, part(chain.length - tail, chain.length))),
    ],
    more: [
      h("h3", { text: whole }),
      h("div", { class: "line-box" },
        snakeSvg(chain, { width, size, red: red(), marks, last, label: `${whole}: ${label}` })),
    ],
  };
}

/** ARM: one arm from a lead double, with one open end. */
function armTable(view, table) {
  const main = [];
  const facts = [`Boneyard: ${plural(view.stock, "tile")}`];
  if (table.open_end !== undefined) facts.unshift(`Open end: ${table.open_end}`);
  if (table.bonus_turn && scene().status === "IN_PROGRESS") facts.push(`${Who(scene().toAct)}: bonus turn`);
  main.push(h("h3", { class: "table-title", text: "The arm" }), h("p", { class: "facts", text: facts.join(" · ") }));
  if (!table.line.length) {
    main.push(h("p", { class: "muted", text: "No tile laid yet: the player holding the highest double leads it." }));
    return { main, more: [] };
  }
  // [OAJ-4] one arm from the lead double: each tile's matching half touches the tile before
  const chain = [];
  let open = table.line[0].high;
  for (const tile of table.line) {
    const first = tile.high === open ? tile.high : tile.low;
    const second = first === tile.high ? tile.low : tile.high;
    chain.push({ first, second });
    open = second;
  }
  const end = chain.length - 1;
  const parts = chainParts(chain, {
    marks: { [end]: { second: "open" } },
    last: indicesOf(chain, laidTiles(view)),
    ends: { [end]: "open" },
    head: 1,
    tail: narrow() ? 3 : 6,
    label: `The arm, from the lead double: ${table.line.map(tileName).join(", ")}. The open end is ${table.open_end}.`,
    whole: "The whole arm",
  });
  return { main: [...main, ...parts.main], more: parts.more };
}

/** The place of the n-th tile played (1-based): rows of 8, back and forth ([TD-6]). */
function placeOf(n) {
  const index = n - 1;
  const row = Math.floor(index / 8);
  const column = index % 8;
  return row % 2 === 0 ? column : 7 - column;
}

/** PLACES: numbered places in rows, the top tile of each showing, one open half. */
function placesTable(view, table) {
  const main = [h("h3", { class: "table-title", text: "The eight places" })];
  const facts = [];
  if (table.open_pip !== undefined) facts.push(`Open half: ${table.open_pip}`);
  facts.push(`${plural(table.played, "tile")} played`);
  main.push(h("p", { class: "facts", text: facts.join(" · ") }));
  const last = table.played > 0 ? placeOf(table.played) : -1;
  const justLaid = laidTiles(view).length > 0;
  const places = table.places.map((place, i) => {
    const caption = place.depth > 1 ? `place ${i + 1}, ${place.depth} deep` : `place ${i + 1}`;
    let picture;
    let label;
    if (hasTile(place.top)) {
      const open = i === last ? table.open_pip : undefined;
      const top = place.top;
      const first = open === top.low && open !== top.high ? top.low : top.high;
      const second = first === top.high ? top.low : top.high;
      label = `place ${i + 1}: ${tileName(top)} on top${place.depth > 1 ? `, ${place.depth} tiles deep` : ""}${open !== undefined ? `, the last tile played, ${open} open` : ""}`;
      picture = tileSvg(first, second, {
        size: tableSize(), red: red(), mark: open !== undefined ? { first: "open" } : {}, last: i === last && justLaid,
      });
    } else {
      label = `place ${i + 1}: empty`;
      picture = h("span", { class: "empty-place", "aria-hidden": "true" });
    }
    const open = i === last && table.open_pip !== undefined;
    return h("li", {
      class: `place${i === last ? " last" : ""}`,
      "aria-label": label,
      "data-open-end": open ? "open" : null,
      "data-last": i === last && justLaid ? "" : null,
    }, picture, h("span", { class: "caption", "aria-hidden": "true", text: caption }));
  });
  main.push(h("ol", { class: "places" }, ...places));
  const more = [h("p", { class: "muted small", text: "Only the top tile of each place shows; tiles 9 to 16 cover tiles 8 to 1, and so on." })];
  return { main, more: [...more, ...ownDiscards(table)] };
}

/** A seat's own face-down discards, where the ruleset's table lists them (`discards`). */
function ownDiscards(table) {
  // a spectator's view lists nobody's discards
  if (table.discards === undefined || scene().seat === undefined) return [];
  const discards = table.discards;
  return [
    h("h4", { text: `Your discards (face down; ${plural(discards.length, "tile")}, ${discards.reduce((s, t) => s + pips(t), 0)} pips against you)` }),
    discards.length
      ? h("div", { class: "tiles small" }, ...discards.map((t) => tileSvg(t.high, t.low, { size: 16, red: red(), label: tileName(t) })))
      : h("p", { class: "muted", text: "None yet." }),
  ];
}

/** A tile's worth in a catch: big fish 2 per pip, small fish its red pips ([TU-9]). */
function fishValue(tile) {
  if (pips(tile) >= 8) return { big: true, value: 2 * pips(tile) };
  const allSixes = red() === "all";
  let value = 0;
  for (const half of [tile.high, tile.low]) {
    if (half === 1 || half === 4) value += half;
    else if (half === 6 && (allSixes || tile.high === tile.low)) value += 3;
  }
  return { big: false, value };
}

/** LAKE: face-up tiles caught by hand tiles of the same total. */
function lakeTable(view, table) {
  const main = [h("h3", { class: "table-title", text: "The lake" })];
  main.push(h("p", { class: "facts", text: `Woodpile: ${plural(view.stock, "tile")}` }));
  // the tile the last move added to the lake (the latest of its kind there)
  const joined = (view.events || []).filter((e) => e.kind === "TO_LAKE" && hasTile(e.tile)).map((e) => e.tile);
  const newest = new Set();
  for (const tile of joined) {
    const at = table.lake.findLastIndex((t) => sameTile(t, tile));
    if (at >= 0) newest.add(at);
  }
  const piled = (view.events || []).filter((e) => e.kind === "PILE" && hasTile(e.tile)).map((e) => e.tile);
  const size = tableSize();
  const lake = table.lake.map((t, i) => {
    const picture = tileSvg(t.high, t.low, { size, red: red(), label: `${tileName(t)}${newest.has(i) ? ", just joined the lake" : ""}`, last: newest.has(i) });
    if (newest.has(i)) picture.setAttribute("data-last", "");
    return picture;
  });
  const piles = table.piles.map((t) => {
    const fresh = piled.some((p) => sameTile(p, t));
    return h("span", { class: `pile${fresh ? " last" : ""}`, role: "img", "aria-label": `a pile of three ${tileName(t)}`, "data-last": fresh ? "" : null },
      tileSvg(t.high, t.low, { size, red: red(), last: fresh }), h("span", { class: "badge", text: "×3" }));
  });
  main.push(lake.length || piles.length
    ? h("div", { class: "tiles lake", "data-open-end": "lake" }, ...lake, ...piles)
    : h("p", { class: "muted", "data-open-end": "lake", text: "The lake is empty." }));
  if (hasTile(table.drawn)) {
    main.push(h("p", { class: "drawn" }, h("span", { text: `Drawn by ${who(scene().toAct)}, to catch with:` }),
      tileSvg(table.drawn.high, table.drawn.low, { size, across: true, red: red(), label: tileName(table.drawn) })));
  }
  const caught = new Set((view.events || []).filter((e) => e.kind === "CAPTURE" || e.kind === "PAIR_LAID")
    .flatMap((e) => [e.tile, e.target, ...(e.tiles || [])]).filter(hasTile).map(tileName));
  const more = [h("p", { class: "muted small", text: "A hand tile catches a lake tile with the same pip total; [2-1] and [4-2] also match each other." })];
  more.push(h("h3", { text: "Catches" }));
  more.push(h("p", { class: "muted small", text: "Big fish (8 pips or more) score 2 per pip; small fish score their red pips (1s and 4s are red), the small total rounded up to tens. Under each tile: its points, or its red pips (r)." }));
  const rows = table.catches.map((caughtBy, seat) => {
    let big = 0;
    let small = 0;
    const mover = (view.events || []).find((e) => e.kind === "CAPTURE" || e.kind === "PAIR_LAID");
    const tiles = caughtBy.tiles.map((t) => {
      const fish = fishValue(t);
      if (fish.big) big += fish.value;
      else small += fish.value;
      const fresh = mover && mover.seat === seat && caught.has(tileName(t));
      return h("figure", { class: `fish${fresh ? " last" : ""}` },
        tileSvg(t.high, t.low, { size: 16, red: red(), last: fresh, label: `${tileName(t)}, ${fish.big ? `big fish, ${fish.value}` : `small fish, ${fish.value} red`}` }),
        h("figcaption", { "aria-hidden": "true", text: fish.big ? String(fish.value) : `${fish.value}r` }));
    });
    const rounded = Math.ceil(small / 10) * 10;
    const sum = caughtBy.tiles.length
      ? `big ${big} + small ${small} red → ${rounded} = ${table.catch_counts[seat]}`
      : "nothing caught yet";
    const you = seat === scene().seat;
    return h("li", { class: `catch${you ? " you" : ""}` },
      h("span", { class: "catch-who", text: `${you ? "You" : `Seat ${seat}`}: ${sum}` }),
      h("div", { class: "tiles" }, ...tiles));
  });
  more.push(h("ul", { class: "catches" }, ...rows));
  return { main, more };
}

/** LINE: a line with two open ends (and the dice, where the ruleset throws them). */
function lineTable(view, table) {
  const main = [];
  const dice = table.dice || [];
  if (dice.length) {
    main.push(
      h("div", { class: "dice", role: "group", "aria-label": `the dice of round ${table.round}: ${dice.join(", ")}` },
        ...dice.map((n) => dieSvg(n, narrow() ? 30 : 34)),
        h("span", { class: "facts", text: `Round ${table.round}, thrown by ${who(table.leader)}. Tiles you may lay add up to ${orWords((table.qualifying || []).map(String)) || "nothing"}.` })),
    );
  }
  main.push(h("h3", { class: "table-title", text: "The line" }));
  const facts = [];
  if (table.left_end !== undefined) {
    facts.push(h("span", { class: "key left-end", "aria-hidden": "true" }), ` Left end: ${table.left_end} · `,
      h("span", { class: "key right-end", "aria-hidden": "true" }), ` Right end: ${table.right_end}`);
  }
  const rest = [];
  if (view.stock > 0) rest.push(`Boneyard: ${plural(view.stock, "tile")}`);
  if (table.idle_rounds !== undefined) rest.push(`Rounds with nothing laid: ${table.idle_rounds} of 2`);
  if (rest.length) facts.push(`${facts.length ? " · " : ""}${rest.join(" · ")}`);
  if (facts.length) main.push(h("p", { class: "facts" }, ...facts));
  if (!table.line.length) {
    main.push(h("p", { class: "muted", text: "No tile laid yet: the first tile starts the line, high half to the left." }));
    return { main, more: ownDiscards(table) };
  }
  const chain = table.line.map((laid) => ({ first: laid.left, second: laid.right }));
  const end = chain.length - 1;
  const marks = { 0: { first: "left-end" } };
  marks[end] = { ...(marks[end] || {}), second: "right-end" };
  const parts = chainParts(chain, {
    marks,
    last: indicesOf(chain, laidTiles(view)),
    ends: end === 0 ? { 0: "both" } : { 0: "left", [end]: "right" },
    head: narrow() ? 2 : 5,
    tail: narrow() ? 2 : 5,
    label: `The line, left to right: ${table.line.map((l) => `${l.left}-${l.right}`).join(", ")}. Left end ${table.left_end}, right end ${table.right_end}.`,
    whole: "The whole line",
  });
  return { main: [...main, ...parts.main], more: [...parts.more, ...ownDiscards(table)] };
}

/** The ends of a cross in the order they are told (the table's `<name>_end` holds each
 * one's number). */
const CROSS_ENDS = ["left", "right", "up", "down"];

/** The side of a tile's half in a cross: a line's, at most 36 px. */
const crossSize = (width) => Math.min(lineSize(width), 36);

/** How tall a cross may be drawn above the hand (px): room for the spinner and a few
 * tiles of UP and DOWN; once the window is squeezed, the spinner and each arm's end. */
function crossHeight(u) {
  if (!live()) return Infinity;
  if (squeeze >= 1) return 0;
  return narrow() ? 8 * u : 10 * u;
}

/** The play of a tile in words, with the count it leaves where it scores nothing (a PEG
 * event after it says what it scores). */
function crossPlayWords(e, events, t, end) {
  const table = tableOf(scene().view);
  const words = [end ? `${act(e.seat, "play")} ${t}${end}` : `${act(e.seat, "lead")} ${t}`];
  const line = table.line || [];
  const spinner = table.spinner !== undefined ? line[table.spinner] : undefined;
  if (spinner && sameTile(spinner.tile, e.tile)) words.push(": it is the spinner");
  const plays = events.filter((x) => x.kind === "PLAY").length;
  const pegged = events.some((x) => x.kind === "PEG" && x.count !== undefined);
  words.push(".");
  if (plays === 1 && !pegged && table.count !== undefined) {
    // a count that scores and is not scored: it would take the side past an exact target
    const target = optionValue("target_score");
    const past = scoringCount(table.count) && optionValue("exact_target") === "true" && Number(target) > 0;
    words.push(past
      ? ` Count ${table.count}: not scored, as it would pass the target of ${target} (it must be reached exactly).`
      : ` Count ${table.count}: nothing scored.`);
  }
  return words.join("");
}

/** The tiles a cross is drawn from (tiles.js's crossSvg), each open end and the tiles the
 * last move laid marked. */
function crossShape(view, table) {
  const line = table.line || [];
  const laid = laidTiles(view);
  const isLast = (tile) => laid.some((x) => sameTile(x, tile));
  const at = {}; // the open ends each tile holds, by the tile's name
  const hold = (tile, end) => {
    const key = tileName(tile);
    (at[key] = at[key] || []).push(end);
  };
  const s = table.spinner;
  const up = table.up || [];
  const down = table.down || [];
  if (line.length) {
    hold(line[0].tile, "left");
    hold(line.at(-1).tile, "right");
  }
  if (s !== undefined && table.up_end !== undefined) hold(up.length ? up.at(-1).tile : line[s].tile, "up");
  if (s !== undefined && table.down_end !== undefined) hold(down.length ? down.at(-1).tile : line[s].tile, "down");
  const mark = (tile, inner, outer) => ({ inner, outer, ends: at[tileName(tile)], last: isLast(tile) });
  if (s === undefined) return { row: line.map((l) => mark(l.tile, l.left, l.right)) };
  return {
    spinner: line[s].left,
    spinnerTile: mark(line[s].tile, line[s].left, line[s].right),
    left: line.slice(0, s).reverse().map((l) => mark(l.tile, l.right, l.left)),
    right: line.slice(s + 1).map((l) => mark(l.tile, l.left, l.right)),
    up: up.map((a) => mark(a.tile, a.inner, a.outer)),
    down: down.map((a) => mark(a.tile, a.inner, a.outer)),
  };
}

/** A cross in words, for its picture's accessible name. */
function crossWords(table) {
  const line = table.line || [];
  const s = table.spinner;
  const pair = (a, b) => `${a}-${b}`;
  const parts = [`The line, left to right: ${line.map((l, i) => `${pair(l.left, l.right)}${i === s ? " (the spinner)" : ""}`).join(", ")}.`];
  if (s !== undefined) {
    for (const name of ["up", "down"]) {
      const arm = table[name] || [];
      const open = table[`${name}_end`] !== undefined;
      parts.push(`${capital(name)} from the spinner: ${arm.length ? arm.map((a) => pair(a.inner, a.outer)).join(", ") : open ? "open, nothing laid yet" : "not open yet"}.`);
    }
  }
  const ends = CROSS_ENDS.filter((name) => table[`${name}_end`] !== undefined).map((name) => `${name} ${table[`${name}_end`]}`);
  if (ends.length) parts.push(`Open ends: ${listWords(ends)}.`);
  parts.push(`Count ${table.count ?? 0}.`);
  return parts.join(" ");
}

/** The sides of the scene's match, each a list of seats (a seat alone, or two partners). */
function sides() {
  const all = [];
  for (let seat = 0; seat < scene().players; seat++) {
    const side = sideOf(seat);
    if (side[0] === seat) all.push(side);
  }
  return all;
}

/** Each side's match points and this hand's points: "You 35 (15 this hand) · Seat 1 20 (5)". */
function sideScores(view, table) {
  const target = Number(optionValue("target_score"));
  const handPoints = table.hand_points || [];
  const items = sides().map((side, i) => {
    const name = capital(sideWords(side));
    const total = view.match_points[side[0]] ?? 0;
    const hand = handPoints[side[0]] ?? 0;
    return `${name}: ${total} (${hand}${i === 0 ? " this hand" : ""})`;
  });
  const to = Number.isInteger(target) && target > 0 ? `, first to ${target}` : "";
  return `Score${to} — ${items.join(" · ")}`;
}

/** CROSS: a line through a spinner, with the spinner's UP and DOWN arms; the count of the
 * open ends and the score of each side (what the last play scored is told with the move,
 * in the last moves above the table and in the log). */
function crossTable(view, table) {
  // a squeezed window keeps the heading for screen readers only
  const main = [h("h3", { class: `table-title${squeeze >= 1 && live() ? " visually-hidden" : ""}`, text: "The layout" })];
  const facts = [];
  for (const name of CROSS_ENDS) {
    const pip = table[`${name}_end`];
    if (pip === undefined) continue;
    if (facts.length) facts.push(" · ");
    facts.push(h("span", { class: `key ${name}-end`, "aria-hidden": "true" }), ` ${capital(name)} ${pip}`);
  }
  if (facts.length) facts.push(" · ", h("strong", { text: `Count ${table.count ?? 0}` }));
  if (view.stock > 0) facts.push(`${facts.length ? " · " : ""}Boneyard ${view.stock}`);
  if (facts.length) main.push(h("p", { class: "facts" }, ...facts));
  if (squeeze < 3 || !live()) main.push(h("p", { class: "facts side-scores", text: sideScores(view, table) }));
  const line = table.line || [];
  if (!line.length) {
    main.push(h("p", { class: "muted", text: "No tile laid yet: the first tile starts the line; the first double laid is the spinner, where the game has one." }));
    return { main, more: [] };
  }
  const width = tableWidth();
  const u = crossSize(width);
  const shape = crossShape(view, table);
  const label = crossWords(table);
  const drawn = crossSvg(shape, { size: u, width, height: crossHeight(u), red: red(), label });
  main.push(h("div", { class: "cross-box" }, drawn.svg));
  if (!drawn.hidden) return { main, more: [] };
  // the tiles not drawn above the hand: every arm in full, below it
  const arms = shape.spinner === undefined
    ? [["The line, left to right", shape.row]]
    : [["Left of the spinner, outwards", shape.left], ["Right of the spinner, outwards", shape.right],
      ["Up from the spinner", shape.up], ["Down from the spinner", shape.down]];
  const more = [h("h3", { text: "The whole layout" })];
  for (const [title, arm] of arms) {
    if (!arm.length) continue;
    more.push(h("p", { class: "arm-title small", text: `${title}: ${plural(arm.length, "tile")}` }),
      h("div", { class: "line-box" }, snakeSvg(arm.map((t) => ({ first: t.inner, second: t.outer })), {
        width, size: 20, red: red(), label: `${title}: ${arm.map((t) => `${t.inner}-${t.outer}`).join(", ")}`,
      })));
  }
  return { main, more };
}

function crossGuide(moves, kinds, table) {
  if (kinds.has("PLAY")) {
    if (!(table.line || []).length) return "Lead a tile: it is counted like any play (a [5-5] or a [6-4] makes 10).";
    const ends = CROSS_ENDS.filter((name) => table[`${name}_end`] !== undefined).map((name) => `${name} ${table[`${name}_end`]}`);
    const scores = optionValue("play_scoring") === "FIVES_AND_THREES" ? "of 5 or of 3" : "of 5";
    return `Lay a tile on an end it matches (${ends.join(", ")}). A count that is a multiple ${scores} scores.`;
  }
  if (kinds.has("DRAW")) return "Nothing in your hand fits an open end: draw (tiles are drawn until one fits).";
  return "Nothing in your hand fits an open end, and there is nothing to draw: pass.";
}

const HAND_KINDS = new Set(["PLAY", "DISCARD", "CAPTURE", "PILE"]);

function guideText(moves) {
  const kind = LAYOUTS[layout()];
  const kinds = new Set(moves.map((m) => m.kind));
  return kind ? kind.guide(moves, kinds, tableOf(game.view)) : plainGuide(kinds);
}

function plainGuide(kinds) {
  if (kinds.has("PLAY")) return "Play a tile (the highlighted tiles can be played).";
  if (kinds.has("DRAW")) return "Nothing in your hand can be played: draw.";
  return "Choose your move.";
}

function armGuide(moves, kinds, table) {
  const o = table.open_end;
  if (kinds.has("PLAY")) {
    if (!table.line.length) return "You hold the highest double: lead it.";
    if (table.bonus_turn) return `Bonus turn (you played a double): play another tile with a ${o}.`;
    return `Play a tile with a ${o} (highlighted) on the open end of the arm.`;
  }
  if (kinds.has("DRAW")) return `Nothing in your hand has a ${o}: draw. Tiles are drawn until one matches, and it is played at once.`;
  if (table.bonus_turn) return `Bonus turn, but nothing in your hand has a ${o}: pass.`;
  return `Nothing matches ${o} and the boneyard is empty: pass.`;
}

function placesGuide(moves, kinds, table) {
  const o = table.open_pip;
  if (moves.some((m) => m.open_pip !== undefined)) return "You lead: play any tile and choose which of its halves stays open.";
  if (kinds.has("PLAY")) return `Play a tile with a ${o} (solid outline; its other half becomes the open half), or discard any tile face down (dashed). Discarded pips count against you.`;
  return `Nothing has a ${o}: discard a tile face down (its pips count against you, so light tiles cost less).`;
}

function lakeGuide(moves, kinds) {
  if (kinds.has("CAPTURE_DRAWN")) return "The tile you drew can catch more than one thing: choose what it catches.";
  if (kinds.has("CAPTURE") || kinds.has("PILE")) return "Catch a lake tile with a hand tile of the same pip total ([2-1] and [4-2] also match each other), or pile three alike. Then a tile is drawn from the woodpile for you.";
  return "Nothing in your hand matches the lake: pass. A tile is then drawn from the woodpile for you.";
}

function lineGuide(moves, kinds, table) {
  const thrown = (table.dice || []).length > 0;
  const totals = orWords((table.qualifying || []).map(String));
  const discard = kinds.has("DISCARD") ? ", or discard any tile face down (its pips count against you)" : "";
  if (kinds.has("PLAY")) {
    const which = thrown ? `a tile whose pips add up to ${totals}` : "a tile";
    if (!table.line.length) return `Start the line with ${which}.`;
    return `Lay ${which} on an end it matches (left ${table.left_end}, right ${table.right_end})${discard}.${thrown ? " You go on laying while you can." : ""}`;
  }
  if (kinds.has("DISCARD")) return "Nothing fits either end: discard a tile face down (its pips count against you, so light tiles cost less).";
  if (kinds.has("DRAW")) return thrown ? "You cannot lay a tile this round: draw one (it cannot be laid until your next turn)." : "You cannot lay a tile: draw one.";
  return "You cannot lay a tile and the boneyard is empty: pass.";
}

/** The layouts the playground draws, by `drawing.layout`: the table and the guide. */
const LAYOUTS = {
  ARM: { table: armTable, guide: armGuide },
  PLACES: { table: placesTable, guide: placesGuide },
  LAKE: { table: lakeTable, guide: lakeGuide },
  LINE: { table: lineTable, guide: lineGuide },
  // a cross squeezed thrice leaves out its line of scores (the seats show theirs)
  CROSS: { table: crossTable, guide: crossGuide, squeezes: 3 },
  ...trainLayouts({ h, scene, act, plural, listWords, capital, red, narrow, tableWidth, live, laidTiles,
    squeeze: () => squeeze, table: () => tableOf(scene().view) }),
};

/** What the moves of a group share, as the JSON of the tile that opens their prompt. */
function shared(moves) {
  const out = { seat: moves[0].seat };
  if (moves.every((m) => m.kind === moves[0].kind)) out.kind = moves[0].kind;
  out.tile = moves[0].tile;
  return out;
}

function moveButton(move, content, extraClass = "") {
  const label = moveLabel(move);
  return h("button", {
    type: "button",
    class: `move ${move.kind.toLowerCase()} ${extraClass}`.trim(),
    "data-move": JSON.stringify(move),
    "aria-label": label,
    onclick: () => choose(move),
  }, content ?? capital(label));
}

function renderHand(waiting) {
  const view = game.view;
  const moves = waiting && game.status === "IN_PROGRESS" ? view.legal_moves : [];
  const groups = new Map();
  for (const move of moves) {
    if (!HAND_KINDS.has(move.kind)) continue;
    const key = tileName(move.tile);
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(move);
  }
  const hinted = game.hint && game.hint.move ? JSON.stringify(game.hint.move) : null;
  const size = handSize();
  const yours = passAndPlay() ? `Your hand (seat ${game.seat})` : "Your hand";
  ui.handTitle.textContent = view.hand.length ? `${yours} · ${plural(view.hand.length, "tile")}` : yours;
  ui.hand.classList.toggle("your-turn", moves.length > 0);
  ui.hand.replaceChildren(...view.hand.map((tile) => {
    const group = groups.get(tileName(tile)) || [];
    const picture = tileSvg(tile.high, tile.low, { size, red: red() });
    const isHinted = hinted !== null && group.some((m) => JSON.stringify(m) === hinted);
    const kindClass = group.some((m) => m.kind !== "DISCARD") ? "playable" : "discard-only";
    if (group.length === 1) {
      const button = moveButton(group[0], picture, `tile-btn ${kindClass}${isHinted ? " hinted" : ""}`);
      button.dataset.tile = tileName(tile);
      return button;
    }
    if (group.length > 1) {
      const verb = group.every((m) => m.kind === "PLAY") ? "play" : group.every((m) => m.kind === "CAPTURE") ? "catch with" : "use";
      const open = game.prompt && game.prompt.key === tileName(tile);
      const button = h("button", {
        type: "button",
        class: `move tile-btn ${kindClass}${isHinted ? " hinted" : ""}${open ? " choosing" : ""}`,
        "data-move": JSON.stringify(shared(group)),
        "data-tile": tileName(tile),
        "aria-haspopup": "dialog",
        "aria-expanded": open ? "true" : "false",
        "aria-label": `${verb} ${tileName(tile)}: ${group.length} choices`,
      }, picture);
      button.addEventListener("click", () => openPrompt(tileName(tile), group, button));
      return button;
    }
    return h("span", { class: "tile idle", role: "img", "aria-label": tileName(tile), "data-tile": tileName(tile) }, picture);
  }));
  if (!view.hand.length) ui.hand.replaceChildren(h("p", { class: "muted", text: "No tiles in your hand." }));

  if (moves.length) ui.guide.textContent = guideText(moves);
  else if (game.status === "HAND_OVER" && waiting) ui.guide.textContent = "The hand is over: every hand is shown below, with the scores. Deal the next hand when you are ready.";
  else ui.guide.textContent = "";
  const actions = [];
  for (const move of moves) {
    if (HAND_KINDS.has(move.kind)) continue;
    if (move.kind === "CAPTURE_DRAWN") {
      const pile = isPile(move.target) && sameTile(move.target, move.tile);
      actions.push(moveButton(move, [
        h("span", { text: pile ? "Catch the pile" : "Catch" }),
        tileSvg(move.target.high, move.target.low, { size: buttonTile(), across: true, red: red() }),
      ], "with-tile"));
    } else {
      actions.push(moveButton(move, null, "big"));
    }
  }
  if (waiting && game.status === "HAND_OVER" && game.nextHand) actions.push(moveButton(game.nextHand, "Deal the next hand", "big primary"));
  if (moves.length) actions.push(h("button", { type: "button", class: "secondary", onclick: askHint, text: "Hint" }));
  if (moves.length && canUndo()) {
    actions.push(h("button", {
      type: "button", id: "undo", class: "secondary", onclick: undo,
      "aria-label": "Undo your last move", text: "↶ Undo",
    }));
  } else if (moves.length && undoBlocked()) {
    // with two or more people: off, and why, where the last person's move is another's
    actions.push(
      h("button", { type: "button", id: "undo", class: "secondary", disabled: true, "aria-describedby": "undo-why", text: "↶ Undo" }),
      h("small", { id: "undo-why", class: "muted undo-why", text: undoBlocked() }),
    );
  }
  if (game.status === "MATCH_OVER") {
    actions.push(
      h("button", { type: "button", id: "rematch", class: "big primary", onclick: rematch, text: "Rematch" }),
      h("button", { type: "button", id: "new-match", class: "secondary", onclick: newMatch, text: "New match" }),
    );
  }
  ui.actions.replaceChildren(...actions);
  // where the hand offers no move, what there is to do comes before it
  const fromHand = moves.some((move) => HAND_KINDS.has(move.kind));
  if (fromHand && ui.actions.nextElementSibling !== ui.hint) ui.prompt.after(ui.actions);
  else if (!fromHand && ui.actions.nextElementSibling !== ui.hand) ui.hand.before(ui.actions);
  renderPrompt(moves);
}

function openPrompt(key, moves, opener) {
  game.prompt = { key, opener };
  render();
  const first = ui.prompt.querySelector("[data-move]");
  if (first) first.focus();
}

function closePrompt() {
  const key = game && game.prompt && game.prompt.key;
  if (!game) return;
  game.prompt = null;
  render();
  if (key) {
    const again = [...ui.hand.querySelectorAll("[aria-haspopup]")].find((b) => b.getAttribute("aria-label").includes(` ${key}:`));
    if (again) again.focus();
  }
}

function renderPrompt(moves) {
  const prompt = game.prompt;
  const group = prompt ? moves.filter((m) => HAND_KINDS.has(m.kind) && tileName(m.tile) === prompt.key) : [];
  if (!prompt || !group.length) {
    if (prompt && !group.length) game.prompt = null;
    ui.prompt.hidden = true;
    ui.prompt.replaceChildren();
    return;
  }
  const tile = group[0].tile;
  let question = `What do you do with ${prompt.key}?`;
  if (group.every((m) => m.kind === "PLAY" && m.end !== "END_UNSPECIFIED" && m.end !== undefined)) question = `Which end do you play ${prompt.key} on?`;
  else if (group.every((m) => m.kind === "PLAY" && m.open_pip !== undefined)) question = `You lead ${prompt.key}: which half stays open?`;
  else if (group.every((m) => m.kind === "CAPTURE")) question = `Which lake tile does ${prompt.key} catch?`;
  const choices = group.map((move) => {
    let content = capital(moveLabel(move));
    if (move.kind === "PLAY" && END_NAMES[move.end]) {
      const name = END_NAMES[move.end];
      const pip = tableOf(game.view)[`${name}_end`];
      content = `${capital(name)} end${pip !== undefined ? ` (${pip})` : ""}`;
    }
    if (move.kind === "PLAY" && move.open_pip !== undefined) content = `Leave ${move.open_pip} open`;
    if (move.kind === "CAPTURE") {
      content = [tileSvg(move.target.high, move.target.low, { size: buttonTile(), across: true, red: red() }), h("span", { text: capital(moveLabel(move)) })];
    }
    return moveButton(move, content, move.kind === "CAPTURE" ? "with-tile" : "");
  });
  ui.prompt.replaceChildren(
    h("p", { id: "prompt-title", class: "prompt-title" },
      tileSvg(tile.high, tile.low, { size: buttonTile(), across: true, red: red() }), h("span", { text: question })),
    h("div", { class: "choices" }, ...choices,
      h("button", { type: "button", class: "secondary", onclick: closePrompt, text: "Cancel" })),
  );
  ui.prompt.hidden = false;
}

ui.prompt.addEventListener("keydown", (event) => {
  if (event.key === "Escape") closePrompt();
});

function renderHint() {
  const hint = game && game.hint;
  if (!hint) {
    ui.hint.hidden = true;
    ui.hint.replaceChildren();
    return;
  }
  ui.hint.hidden = false;
  if (hint.loading) {
    ui.hint.replaceChildren(h("p", { text: "The strong bot is thinking about your move…" }));
    return;
  }
  // the service lists the estimates best first (its ranking weighs points too, not only
  // the share of wins shown)
  const searched = (hint.estimates || []).filter((e) => e.playouts > 0);
  ui.hint.replaceChildren(
    h("p", {}, h("strong", { text: "Hint: " }), h("span", { text: `${capital(moveLabel(hint.move))}.` })),
    searched.length > 1
      ? h("ol", { class: "estimates" }, ...searched.slice(0, 4).map((e) =>
        h("li", { text: `${capital(moveLabel(e.move))}: wins about ${Math.round(e.value * 100)}% of ${e.playouts} trial games` })))
      : h("p", { class: "muted", text: "There was nothing to weigh: that move is the only sensible one." }),
  );
}

function signed(n) {
  return n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "0";
}

const seatHead = (seat) => (seat === game.seat ? `You (${seat})` : `Seat ${seat}`);

/** A match ended the moment a side reached its target: "you reached the target score of 200
 * in the middle of hand 3". */
function targetWords(winners, hand) {
  const target = Number(optionValue("target_score"));
  const score = Number.isInteger(target) && target > 0 ? ` of ${target}` : "";
  const whom = winners && winners.length ? sideWords(winners) : "a side";
  return `${whom} reached the target score${score} in the middle of hand ${hand}`;
}

/** How the last hand was decided: the service's sentence, or one made of its end and
 * winners where the service gives none. */
function reasonWords(hand) {
  if (hand.reason) return hand.reason.replace(/\s*\[[A-Z][A-Z0-9]*-\d+[a-z]?\]/g, "");
  const ended = END_WORDS[hand.end] ? `It ended because ${END_WORDS[hand.end]}. ` : "";
  return `${ended}${winnersWords(hand.winners, "hand")}`;
}

/** Every seat's tiles as the hand ended (`shown_hands` of the view; where the service
 * sends none, the person's own tiles only). */
function shownHands(hand) {
  const shownByService = game.view.shown_hands || [];
  const count = drawing().count_label || "count";
  const items = [];
  for (let seat = 0; seat < game.players; seat++) {
    const known = shownByService.length ? (shownByService[seat] || {}).tiles || [] : seat === game.seat ? game.view.hand : null;
    const counted = hand.counts[seat] !== undefined ? ` · ${hand.counts[seat]} ${count}` : "";
    items.push(h("li", { class: `shown-hand${seat === game.seat ? " you" : ""}`, "data-seat": seat },
      h("span", { class: "catch-who", text: `${seat === game.seat ? "You" : seatTitle(seat)}${counted}` }),
      known === null
        ? h("span", { class: "muted", text: "not shown" })
        : known.length
          ? h("div", { class: "tiles", role: "list", "aria-label": `${seat === game.seat ? "Your" : `Seat ${seat}'s`} tiles` },
            ...known.map((t) => h("span", { role: "listitem" }, tileSvg(t.high, t.low, { size: 20, red: red(), label: tileName(t) }))))
          : h("span", { class: "muted", text: "no tiles" })));
  }
  return items;
}

function renderResult() {
  const score = game && game.score;
  if (!score || game.status === "IN_PROGRESS") {
    ui.result.hidden = true;
    ui.result.replaceChildren();
    return;
  }
  const last = score.hands.at(-1);
  const parts = [];
  const seats = score.seats;
  const hasNet = seats.some((s) => s.net !== undefined);
  const over = game.status === "MATCH_OVER";
  if (over) {
    parts.push(h("h3", { id: "result-title", text: "The match is over" }));
    parts.push(h("p", { class: "winners big", text: winnersWords(score.winners, "match") }));
  }
  if (last) {
    const hasSettlement = last.settlement && last.settlement.length > 0;
    if (last.end === "TARGET_REACHED") {
      parts.push(h("p", { class: "target", text: `${capital(targetWords(score.winners, last.hand))}: the match ends there, with no bonus for the hand.` }));
    }
    parts.push(h(over ? "h4" : "h3", { id: over ? null : "result-title", text: last.end === "TARGET_REACHED" ? `Hand ${last.hand}, cut short` : `Hand ${last.hand} is over` }));
    parts.push(h("p", { class: "reason", id: "hand-reason", text: reasonWords(last) }));
    parts.push(h("h4", { text: "Every hand, shown" }), h("ul", { class: "shown-hands" }, ...shownHands(last)));
    const runningNet = hasNet && !over;
    const head = ["Seat", drawing().count_label || "count", "hand points", "match total"];
    if (hasSettlement) head.push("settled this hand");
    if (runningNet) head.push("settlement so far");
    parts.push(
      h("div", { class: "table-scroll", tabindex: 0, role: "region", "aria-label": `Hand ${last.hand}, seat by seat` },
        h("table", { class: "score" },
          h("caption", { text: `Hand ${last.hand}` }),
          h("thead", {}, h("tr", {}, ...head.map((text) => h("th", { scope: "col", text })))),
          h("tbody", {}, ...seats.map((s) => h("tr", { class: s.seat === game.seat ? "you" : "" },
            h("th", { scope: "row", text: seatHead(s.seat) }),
            h("td", { text: String(last.counts[s.seat] ?? "") }),
            h("td", { text: String(last.points[s.seat] ?? "") }),
            h("td", { text: String(s.match_points) }),
            hasSettlement ? h("td", { text: signed(last.settlement[s.seat]) }) : null,
            runningNet ? h("td", { text: signed(s.net ?? 0) }) : null))))),
    );
  }
  // the running table: every hand's points, and the totals
  const lowWins = game.info.low_wins;
  parts.push(
    h("div", { class: "table-scroll", tabindex: 0, role: "region", "aria-label": "Scores hand by hand" },
      h("table", { class: "score history" },
        h("caption", { text: `Scores hand by hand (${lowWins ? "fewest" : "most"} points win)` }),
        h("thead", {}, h("tr", {}, h("th", { scope: "col", text: "Hand" }),
          ...seats.map((s) => h("th", { scope: "col", class: s.seat === game.seat ? "you" : "", text: s.seat === game.seat ? "You" : `Seat ${s.seat}` })))),
        h("tbody", {}, ...score.hands.map((hand) => h("tr", {},
          h("th", { scope: "row", text: String(hand.hand) }),
          ...seats.map((s) => h("td", { text: String(hand.points[s.seat] ?? "") }))))),
        h("tfoot", {},
          h("tr", {}, h("th", { scope: "row", text: "Total" }), ...seats.map((s) => h("td", { text: String(s.match_points) }))),
          hasNet
            ? h("tr", {}, h("th", { scope: "row", text: over ? "Settlement" : "Settlement so far" }),
              ...seats.map((s) => h("td", { text: signed(s.net ?? 0) })))
            : null))),
  );
  if (inSides()) {
    parts.splice(over ? 2 : 0, 0, h("ul", { class: "side-results", "aria-label": "Match points by side" },
      ...sides().map((side, i) => h("li", { class: `side-${i}`, "data-side": i },
        h("strong", { text: `${capital(sideName(side, true))}: ` }),
        `${plural(score.seats.find((s) => s.seat === side[0])?.match_points ?? 0, "point")}`,
        last && oneSide(last.winners || []) && last.winners.includes(side[0]) ? ` (won hand ${last.hand})` : ""))));
  }
  if (over) parts.push(seedCheckPart());
  ui.result.replaceChildren(...parts);
  ui.result.hidden = false;
}

function seedCheckPart() {
  const check = game.seedCheck;
  const box = h("div", { id: "seed-check", class: "seed-check" });
  if (!check) {
    box.append(h("p", { text: "Checking the revealed seed against the commitment…" }));
    return box;
  }
  box.dataset.verified = check.ok ? "true" : "false";
  box.append(
    h("h4", { text: "Were the deals fixed in advance?" }),
    h("p", {}, h("span", { text: "Seed revealed: " }), h("code", { class: "hex", text: check.seed })),
    h("p", {}, h("span", { text: "Its SHA-256, computed in this page: " }), h("code", { class: "hex", text: check.digest })),
    h("p", {}, h("span", { text: "Commitment shown at the start: " }), h("code", { class: "hex", text: game.commitment })),
    h("p", { class: check.ok ? "ok" : "bad" },
      check.ok
        ? "✓ They match: the seed, and so every deal and every throw of the dice, was fixed before the first move. Anyone can re-deal the match from it (README, “Checkable deals”)."
        : "✗ They do not match: this match's deals cannot be trusted."),
  );
  return box;
}

/** What the log shows: the match's generation and how many of its entries. */
let shownLog = null;

/** The turns so far, oldest first, under the number of their hand; new turns are added at
 * the end (the log is a live region: a reader hears each new one). */
function renderLog() {
  const log = ownLog();
  if (!shownLog || shownLog.gen !== game.gen || shownLog.count > log.length) {
    // a new match, or one resumed: its whole log at once, not read out
    ui.log.setAttribute("aria-live", "off");
    ui.log.replaceChildren();
    shownLog = { gen: game.gen, count: 0, hand: null };
    setTimeout(() => ui.log.setAttribute("aria-live", "polite"), 0);
  }
  for (let i = shownLog.count; i < log.length; i++) {
    const entry = log[i];
    if (entry.hand !== shownLog.hand) {
      shownLog.hand = entry.hand;
      ui.log.append(h("p", { class: "log-hand", text: `Hand ${entry.hand}` }));
    }
    ui.log.append(h("p", { class: `log-turn${entry.undo ? " undo" : ""}${entry.seat === game.seat ? " yours" : ""}`, text: entry.texts.join(" ") }));
  }
  shownLog.count = log.length;
  while (ui.log.childElementCount > 400) ui.log.firstElementChild.remove();
  ui.log.scrollTop = ui.log.scrollHeight;
}


// ------------------------------------------------------------------ the record viewer
//
// A record (this page's download, or anyone's) is sent to Replay without a seat: the
// service deals the match again from its seed, checks every move, and answers each
// step's spectator view and, the seed being known, every seat's hand. The viewer steps
// through them with the drawing code above.

/** The record being viewed, or null. `opened` ends the work of an older file;
 * `replayFailed` says the error shown is the viewer's (a service that did not answer). */
let viewer = null;
let opened = 0;
let replayFailed = false;

const REASON_WORDS = {
  BAD_SETUP: "the ruleset, players or options are not ones the service deals",
  SEED_MISMATCH: "the seed is not the one the commitment was made to",
  FIRST_STATE_MISMATCH: "the first state is not the start of this match",
  GAME_ID_MISMATCH: "the game id is not that of this ruleset, players, options and seed",
  MALFORMED_MOVE: "the move is not a well-formed move of this table",
  NOT_YOUR_TURN: "the move's seat was not the seat to act",
  ILLEGAL_MOVE: "the move was not legal there",
  GAME_OVER: "the match was already over",
  EVENTS_DIFFER: "the move did not produce the events the record says",
  SCORES_DIFFER: "the match points after the move are not those the record says",
  MOVE_HIDDEN: "the record holds another seat's face-down move without its tile, as that seat's own record does",
  BAD_UNDO: "the take-back goes back further than the moves played since, or holds a move",
};

async function openRecordFile() {
  const file = ui.recordFile.files && ui.recordFile.files[0];
  if (!file) return;
  const mine = ++opened;
  if (replayFailed) clearError();
  replayFailed = false;
  viewer = null;
  ui.replay.hidden = false;
  ui.replay.dataset.file = file.name;
  ui.replayTitle.textContent = `Replaying ${file.name}`;
  replayMessage("Reading the record…");
  let record;
  try {
    record = await readRecord(file);
  } catch (error) {
    if (mine === opened) replayMessage(`${file.name} ${error.message}`, "bad", "", true);
    return;
  } finally {
    ui.recordFile.value = ""; // the same file can be opened again
  }
  if (mine !== opened) return;
  replayMessage("The service is dealing the match again from the record and checking every move…");
  let answer;
  try {
    answer = await replayAll(record, mine);
  } catch (error) {
    if (mine !== opened) return;
    if (["BAD_RECORD", "RECORD_TOO_LARGE", "MALFORMED_REQUEST"].includes(error.reason)) {
      // a record taken before the match was over: the service says it lacks the seed
      const early = error.reason === "BAD_RECORD" && record.seed === undefined
        && record.first_state === undefined && /\bseed\b/.test(error.message);
      replayMessage(
        early
          ? "This record cannot be replayed yet: it holds neither the seed nor the first state. It can be replayed once the match is over and its seed is revealed (download the record again then)."
          : "This record cannot be replayed.",
        early ? "" : "bad",
        `The service says: ${error.message} (${error.reason})`,
      );
      return;
    }
    replayMessage("The service did not replay the record.", "bad");
    replayFailed = true;
    showError(error, () => {
      clearError();
      replayAgain(record);
    });
    return;
  }
  if (mine !== opened) return;
  showReplay(record, answer);
}

/** The largest file read as a record (the service's own bound on a record's file). */
const MAX_RECORD_BYTES = 32 * 1024 * 1024;

/** The record in `file`, checked to be one before anything is sent; an Error whose
 * message says what the file is otherwise (after its name). */
async function readRecord(file) {
  if (file.size === 0) throw new Error("is empty: it holds no record.");
  if (file.size > MAX_RECORD_BYTES) {
    throw new Error(`is ${(file.size / 1024 / 1024).toFixed(1)} MiB: a match record is at most 32 MiB.`);
  }
  const text = await file.text();
  if (text.includes("\u0000") || text.includes("\uFFFD")) {
    throw new Error("is binary data, not a match record (a record is JSON text).");
  }
  if (!text.trim()) throw new Error("is empty: it holds no record.");
  let record;
  try {
    record = JSON.parse(text);
  } catch (error) {
    if (text.trimStart().startsWith("domino-rules match record")) {
      throw new Error("is a record's text form: this page opens its JSON form (domino-rules convert FILE --to json).");
    }
    // cut short: the parser wanted more at the very end of the text
    const at = /position (\d+)/.exec(error.message);
    const cut = /end of (JSON|data)|unterminated|unexpected end/i.test(error.message)
      || (at !== null && Number(at[1]) >= text.trimEnd().length);
    throw new Error(cut
      ? "is cut short: its JSON ends before the record does."
      : `is not a JSON match record (${error.message}).`);
  }
  if (record === null || typeof record !== "object" || Array.isArray(record)) {
    const kind = Array.isArray(record) ? "a list" : record === null ? "null" : `a ${typeof record}`;
    throw new Error(`is not a match record: a record is a JSON object, not ${kind}.`);
  }
  if (record.format !== undefined && record.format !== 1) {
    throw new Error(`is a record of format ${String(record.format).slice(0, 20)}: this page reads format 1.`);
  }
  if (!Object.keys(record).length) throw new Error("is an empty record: it names no game and holds no move.");
  return record;
}

/** Replay the record, following `next_step` until every step is in: one answer. */
async function replayAll(record, mine) {
  const answer = await call("/v1/records:replay", { record });
  let next = answer.next_step;
  while (next !== undefined && mine === opened) {
    const more = await call("/v1/records:replay", { record, from_step: next });
    answer.steps.push(...more.steps);
    next = more.next_step;
  }
  delete answer.next_step;
  return answer;
}

async function replayAgain(record) {
  const mine = ++opened;
  replayFailed = false;
  replayMessage("The service is dealing the match again from the record and checking every move…");
  try {
    const answer = await replayAll(record, mine);
    if (mine === opened) showReplay(record, answer);
  } catch (error) {
    if (mine !== opened) return;
    replayMessage("The service did not replay the record.", "bad");
    replayFailed = true;
    showError(error);
  }
}

/** A sentence in place of the viewer (`kind` "bad" for a problem), with a detail; with
 * `another`, a button to open another record instead. */
function replayMessage(text, kind = "", detail = "", another = false) {
  for (const node of [ui.replayVerdict, ui.replayDivergence, ui.replayPosition, ui.replayMove,
    ui.replaySeats, ui.replayTable, ui.replayHands, ui.replayEvents, ui.replayPoints]) {
    node.replaceChildren();
  }
  ui.replay.dataset.verdict = "";
  ui.replay.dataset.step = "";
  ui.replay.dataset.last = "";
  ui.replayNav.hidden = true;
  ui.replayDivergence.hidden = true;
  ui.replay.querySelector(".replay-step").hidden = true;
  ui.replayVerdict.className = `verdict ${kind}`.trim();
  ui.replayVerdict.append(h("span", { text }));
  if (detail) ui.replayVerdict.append(" ", h("span", { class: "detail", text: detail }));
  if (another) {
    ui.replayVerdict.append(" ", h("button", {
      type: "button", id: "replay-another", class: "secondary", text: "Open another record",
      onclick: () => ui.recordFile.click(),
    }));
  }
}

function showReplay(record, answer) {
  const info = catalogue.find((entry) => entry.id === record.ruleset)
    || { id: record.ruleset, name: record.ruleset, options: [], drawing: {} };
  const divergence = answer.verdict === "DIVERGED" ? answer.divergence : null;
  const steps = answer.steps || [];
  // a divergence at move n: the viewer shows moves 0 to n - 1, then move n as recorded
  const last = divergence && divergence.step > 0 ? divergence.step : Math.max(steps.length - 1, 0);
  viewer = {
    record,
    info,
    steps,
    divergence,
    last,
    moves: answer.moves,
    options: (record.options && record.options[record.ruleset]) || {},
    players: Number(record.players) || 0,
    position: 0,
  };
  replayMessage("");
  ui.replayTitle.textContent = `Replay: ${info.name}, ${plural(viewer.players, "player")}, ${plural(answer.moves, "move")}`;
  ui.replay.dataset.verdict = answer.verdict;
  ui.replayVerdict.replaceChildren();
  if (!divergence) {
    ui.replayVerdict.className = "verdict ok";
    ui.replayVerdict.append(
      h("strong", { text: "✓ Valid. " }),
      h("span", { text: `Dealt again from its ${record.seed !== undefined ? "seed" : "first state"}, every move of the record is legal and produced the events and match points the record says.` }),
    );
  } else {
    ui.replayVerdict.className = "verdict bad";
    ui.replayVerdict.append(
      h("strong", { text: "✗ Diverged. " }),
      h("span", { text: divergence.step > 0
        ? `The record holds up to move ${divergence.step - 1}; move ${divergence.step} parts from the match its seed deals.`
        : "The record's header or deal parts from the match its seed deals: no move can be replayed." }),
    );
    ui.replayDivergence.replaceChildren(
      h("h3", { text: divergence.step > 0 ? `Where it diverges: move ${divergence.step}` : "Where it diverges: the deal (step 0)" }),
      h("p", {}, h("strong", { text: "Why: " }),
        h("span", { text: `${capital(REASON_WORDS[divergence.reason] || "the record and the match its seed deals differ there")}.` })),
      divergence.step > 0 && (record.moves[divergence.step - 1] || {}).move
        ? h("p", {}, h("strong", { text: "The record's move: " }),
          h("span", { text: drawScene(replayScene(((steps[divergence.step - 1] || steps.at(-1)) || {}).view || {}), () => moveWords(record.moves[divergence.step - 1].move)) }))
        : null,
      h("details", { class: "for-developers" }, h("summary", { text: "For developers" }),
        h("p", {}, h("strong", { text: "Reason: " }), h("code", { text: divergence.reason })),
        h("p", {}, h("strong", { text: "The service says: " }), h("code", { text: divergence.message }))),
    );
    ui.replayDivergence.dataset.step = String(divergence.step);
    ui.replayDivergence.dataset.reason = divergence.reason;
    ui.replayDivergence.hidden = false;
  }
  if (!steps.length) return;
  ui.replayNav.hidden = false;
  ui.replay.querySelector(".replay-step").hidden = false;
  ui.replayStep.max = String(last);
  ui.replay.dataset.last = String(last);
  goToStep(0);
  ui.replay.focus();
}

/** The scene of a replayed step: a spectator's view of it. */
function replayScene(view) {
  const record = viewer.record;
  return {
    info: viewer.info,
    ruleset: record.ruleset,
    options: viewer.options,
    players: viewer.players,
    seat: undefined,
    view,
    status: view.status,
    toAct: view.to_act,
    box: ui.replayTable,
    seatName: (seat) => (record.viewpoint === "SEAT" && record.seat === seat ? `Seat ${seat} · kept this record` : `Seat ${seat}`),
  };
}

function goToStep(position) {
  if (!viewer) return;
  const target = Math.min(Math.max(Math.trunc(Number(position)) || 0, 0), viewer.last);
  viewer.position = target;
  renderReplayStep();
}

function renderReplayStep() {
  const { position, last, steps, divergence, record } = viewer;
  const diverging = divergence && position === divergence.step && position > 0;
  // the table after the step; at a diverging move, the table it was tried on
  const step = diverging ? steps[position - 1] : steps[position];
  const before = position > 0 ? steps[position - 1] : null;
  ui.replay.dataset.step = String(position);
  ui.replayStep.value = String(position);
  ui.replayFirst.disabled = ui.replayBack.disabled = position === 0;
  ui.replayForward.disabled = ui.replayLast.disabled = position === last;
  const total = viewer.moves;
  ui.replayPosition.textContent = position === 0
    ? `The deal (step 0 of ${total}) · hand ${step.view.hand_number}`
    : `Move ${position} of ${total} · hand ${step.view.hand_number}${diverging ? " · where the record diverges" : ""}`;
  const recorded = position > 0 ? (diverging ? record.moves[position - 1].move : steps[position].move) : null;
  ui.replayMove.replaceChildren();
  ui.replayMove.removeAttribute("data-record-move");
  if (recorded) {
    // the move in words as it stood before it (the open end it was laid on)
    const words = drawScene(replayScene(before.view), () => moveWords(recorded));
    ui.replayMove.dataset.recordMove = JSON.stringify(recorded);
    ui.replayMove.append(
      h("strong", { text: diverging ? "The record's move: " : "Move: " }),
      h("span", { text: words }),
    );
  } else if (position > 0 && (record.moves[position - 1] || {}).undo) {
    const back = record.moves[position - 1].undo;
    ui.replayMove.append(
      h("strong", { text: "Take-back: " }),
      h("span", { text: `the match goes back ${plural(back, "move")}, to before the player's last move.` }),
    );
  } else {
    ui.replayMove.append(h("span", { text: "The deal: no move yet." }));
  }
  drawScene(replayScene(step.view), () => {
    ui.replaySeats.replaceChildren(...seatItems());
    const parts = tableParts();
    ui.replayTable.replaceChildren(...parts.main, ...parts.more);
    ui.replayHands.replaceChildren(...handItems(step.hands || []));
    const events = diverging ? (record.moves[position - 1].events || []) : step.events;
    const texts = describe(events);
    const takeBack = !diverging && position > 0 && (record.moves[position - 1] || {}).undo;
    const none = diverging ? "The record holds no events for this move."
      : takeBack ? "The table is back as it was before the player's move." : "Nothing to show.";
    ui.replayEvents.replaceChildren(...(texts.length
      ? texts.map((text) => h("li", { text }))
      : [h("li", { class: "muted", text: none })]));
    if (diverging && (divergence.events || []).length) {
      ui.replayEvents.append(h("li", { class: "log-hand", text: "What the move produced (as the record's eyes saw it):" }),
        ...describe(divergence.events).map((text) => h("li", { text })));
    }
    const points = diverging ? (divergence.match_points || []) : step.match_points;
    ui.replayPoints.textContent = points.length
      ? `${diverging ? "Match points the move made" : "Match points"}: ${points.map((p, seat) => `seat ${seat} ${p}`).join(" · ")}`
      : "";
  });
  const focused = document.activeElement;
  if (focused && focused.disabled && ui.replayNav.contains(focused)) {
    (position === 0 ? ui.replayForward : ui.replayBack).focus();
  }
}

/** A recorded move in words: its seat and what it did (a record's move may be anything). */
function moveWords(move) {
  let words;
  try {
    words = moveLabel({ ...move, kind: String(move.kind || "MOVE_KIND_UNSPECIFIED") });
  } catch {
    words = JSON.stringify(move);
  }
  return `Seat ${move.seat ?? 0}: ${words}`;
}

/** Every seat's hand (known from the seed), as tiles. */
function handItems(hands) {
  if (!hands.length) return [h("li", { class: "muted", text: "The hands are not known: the record holds no seed." })];
  return hands.map((hand, seat) => {
    const tiles = hand.tiles || [];
    return h("li", { class: "replay-hand", "data-seat": seat },
      h("span", { class: "catch-who", text: `Seat ${seat}: ${plural(tiles.length, "tile")}` }),
      tiles.length
        ? h("div", { class: "tiles", role: "list", "aria-label": `Seat ${seat}'s hand` },
          ...tiles.map((t) => h("span", { role: "listitem" }, tileSvg(t.high, t.low, { size: 16, red: red(), label: tileName(t) }))))
        : h("span", { class: "muted", text: " (empty)" }));
  });
}

function closeReplay() {
  opened += 1;
  viewer = null;
  ui.replay.hidden = true;
  replayMessage("");
  $("records-box").open = true;
  ui.recordFile.focus();
}

ui.replayFirst.addEventListener("click", () => goToStep(0));
ui.replayBack.addEventListener("click", () => viewer && goToStep(viewer.position - 1));
ui.replayForward.addEventListener("click", () => viewer && goToStep(viewer.position + 1));
ui.replayLast.addEventListener("click", () => viewer && goToStep(viewer.last));
ui.replayGoto.addEventListener("submit", (event) => {
  event.preventDefault();
  goToStep(ui.replayStep.value);
});
ui.replayNav.addEventListener("keydown", (event) => {
  if (!viewer || event.target === ui.replayStep) return;
  const to = { ArrowLeft: viewer.position - 1, ArrowRight: viewer.position + 1, Home: 0, End: viewer.last }[event.key];
  if (to === undefined) return;
  event.preventDefault();
  goToStep(to);
});
ui.replayClose.addEventListener("click", closeReplay);
ui.recordFile.addEventListener("change", openRecordFile);
ui.downloadRecord.addEventListener("click", downloadRecord);
ui.abandon.addEventListener("click", () => {
  ui.abandon.hidden = true;
  ui.abandonConfirm.hidden = false;
  ui.abandonNo.focus();
});
ui.abandonNo.addEventListener("click", () => {
  ui.abandonConfirm.hidden = true;
  ui.abandon.hidden = false;
  ui.abandon.focus();
});
ui.abandonYes.addEventListener("click", abandonMatch);

// ------------------------------------------------------------------ start-up

let resizeTimer = null;
window.addEventListener("resize", () => {
  clearTimeout(resizeTimer);
  resizeTimer = setTimeout(() => {
    if (game && game.view) {
      // the table only: the hand's buttons stay the ones the person may be pressing
      squeeze = 0;
      renderLastMove();
      renderTable();
      fitTheWindow();
    }
    if (viewer && !ui.replay.hidden) renderReplayStep();
  }, 150);
});

ui.api.value = params.get("api") || (location.origin.startsWith("http") ? location.origin : "http://127.0.0.1:8080");
if (params.has("delay")) ui.delay.value = params.get("delay");
if (params.has("seed")) ui.seed.value = params.get("seed");
ui.ruleset.addEventListener("change", chooseRuleset);
ui.players.addEventListener("change", fillSeats);
ui.seat.addEventListener("change", seatChanged);
ui.level.addEventListener("change", levelChanged);
ui.moreToggle.addEventListener("click", () => showMoreOptions(ui.moreOptions.hidden));
ui.reload.addEventListener("click", loadCatalogue);
ui.api.addEventListener("change", loadCatalogue);
ui.setup.addEventListener("submit", startMatch);
loadCatalogue();
