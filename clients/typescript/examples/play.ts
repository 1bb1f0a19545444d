/**
 * What both examples share: play a whole match of a ruleset through any `DominoRules`
 * client (REST or gRPC: the same calls, the same shapes), choosing each move in turn
 * from `getLegalMoves`, from `getView`'s `legal_moves` and from `suggestMove`, and always
 * sending the chosen move back exactly as the service returned it.
 */

import { DominoRulesError, type DominoRules, type Move, type RulesetId, type RulesetInfo } from "domino-rules-client";

/** The most moves a match may take before the example gives up. */
export const MAX_MOVES = 20_000;

/** A small seeded generator (mulberry32): `pick(items)` chooses one item. */
export function chooser(seed: string): <T>(items: readonly T[]) => T {
  let state = 0;
  for (const char of seed) state = (Math.imul(state, 31) + char.charCodeAt(0)) | 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return <T>(items: readonly T[]): T => {
    const item = items[Math.floor(next() * items.length)];
    if (item === undefined) throw new Error("nothing to choose from");
    return item;
  };
}

/** Plays one match to MATCH_OVER; answers one line: `<ruleset>: MATCH_OVER after ...`. */
export async function playMatch(client: DominoRules, info: RulesetInfo, seed: string): Promise<string> {
  // A ruleset the service lists is one it accepts, even one newer than these types.
  const ruleset = info.id as RulesetId;
  const pick = chooser(`${seed}/${ruleset}`);
  const game = await client.newGame({ ruleset, players: Math.min(3, info.max_players), seed: `${seed}-${ruleset}` });
  let { state, version, status } = game;
  let toAct = game.to_act;
  const from = { legal: 0, view: 0, suggest: 0 };
  let moves = 0;
  while (status !== "MATCH_OVER") {
    if (++moves > MAX_MOVES) throw new Error(`${ruleset}: no end after ${MAX_MOVES} moves`);
    let move: Move | undefined;
    if (moves % 3 === 0 && toAct !== undefined) {
      // The seat to act sees its own hand and legal moves.
      move = pick((await client.getView({ state, seat: toAct })).legal_moves);
      from.view++;
    } else if (moves % 3 === 1) {
      // A bot's choice; STRONG (a short search) on the first move, GREEDY after.
      const level = moves === 1 ? "STRONG" : "GREEDY";
      const suggestion = await client.suggestMove({ state, level, seed: `${seed}-${moves}`, ...(level === "STRONG" ? { playouts: 8 } : {}) });
      move = suggestion.move;
      from.suggest++;
    } else {
      move = pick((await client.getLegalMoves({ state })).moves);
      from.legal++;
    }
    if (move === undefined) throw new Error(`${ruleset}: no move offered at version ${version}`);
    // Unchanged: the very object the service returned, every field as it came.
    const answer = await client.applyMove({ state, move, expected_version: version });
    ({ state, version, status } = answer);
    toAct = answer.to_act;
  }
  const score = await client.getScore({ state });
  // The match is over: one more move is refused, with a typed error.
  let refused = "not refused";
  try {
    await client.applyMove({ state, move: { seat: 0, kind: "NEXT_HAND" } });
  } catch (error) {
    if (!(error instanceof DominoRulesError)) throw error;
    refused = `${error.reason} ${error.code}`;
  }
  return (
    `${ruleset}: ${status} after ${moves} moves, ${score.hands.length} hands, winners [${score.winners.join(", ")}], ` +
    `version ${version}, game ${game.game_id}, moves from legal=${from.legal} view=${from.view} suggest=${from.suggest}, ` +
    `then ${refused}`
  );
}

/** Plays a match of every ruleset the service lists, then shows two refusals. */
export async function playEveryRuleset(client: DominoRules, seed: string): Promise<void> {
  const { rulesets } = await client.listRulesets();
  for (const info of rulesets) console.log(await playMatch(client, info, seed));
  const first = rulesets[0];
  if (first === undefined) throw new Error("the service lists no ruleset");
  const ruleset = first.id as RulesetId;
  for (const bad of [
    () => client.newGame({ ruleset, players: 1 }),
    async () => {
      const game = await client.newGame({ ruleset, players: 2, seed });
      const { moves } = await client.getLegalMoves({ state: game.state });
      const move = moves[0];
      if (move === undefined) throw new Error("no legal move");
      return client.applyMove({ state: game.state, move, expected_version: game.version + 1 });
    },
  ]) {
    try {
      await bad();
      throw new Error("not refused");
    } catch (error) {
      if (!(error instanceof DominoRulesError)) throw error;
      const version = error.metadata.version === undefined ? "" : ` at version ${error.metadata.version}`;
      console.log(`refused: ${error.reason} (${error.code}, HTTP ${error.httpStatus ?? "-"})${version}: ${error.message}`);
    }
  }
}
