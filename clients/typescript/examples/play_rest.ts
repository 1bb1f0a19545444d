/**
 * Plays a whole match of every ruleset over REST, with default options, choosing among
 * the legal moves with a seeded generator and sending the chosen one back unchanged.
 *
 *   npm run build && node dist/examples/play_rest.js [BASE_URL] [SEED]
 *
 * BASE_URL defaults to $DOMINO_RULES_URL or http://127.0.0.1:8080. Prints one line per
 * ruleset: `<ruleset>: MATCH_OVER after <moves> moves, <hands> hands, winners [...]`.
 */

import { DominoRulesClient, DominoRulesError, type RulesetId } from "../src/index.js";
import { MAX_MOVES, chooser } from "./common.js";

async function playMatch(client: DominoRulesClient, ruleset: RulesetId, players: number, seed: string): Promise<string> {
  const pick = chooser(`${seed}/${ruleset}`);
  const game = await client.newGame({ ruleset, players, seed: `${seed}-${ruleset}` });
  let { state, version, status } = game;
  let moves = 0;
  while (status !== "MATCH_OVER") {
    if (++moves > MAX_MOVES) throw new Error(`${ruleset}: no end after ${MAX_MOVES} moves`);
    const legal = await client.legalMoves({ state });
    // A legal move goes back exactly as it came: no field added, none removed.
    const answer = await client.applyMove({ state, move: pick(legal.moves), expected_version: version });
    ({ state, version, status } = answer);
  }
  const score = await client.score({ state });
  // The match is over: any further move is refused, and the error is typed.
  try {
    await client.applyMove({ state, move: { seat: 0, kind: "NEXT_HAND" } });
  } catch (error) {
    if (!(error instanceof DominoRulesError) || error.reason !== "GAME_OVER") throw error;
  }
  const commitment = score.seed === undefined ? "no seed" : `seed ${JSON.stringify(score.seed)} revealed`;
  return `${ruleset}: ${status} after ${moves} moves, ${score.hands.length} hands, winners [${score.winners.join(", ")}], ${commitment}`;
}

async function main(): Promise<void> {
  const baseUrl = process.argv[2] ?? process.env.DOMINO_RULES_URL ?? "http://127.0.0.1:8080";
  const seed = process.argv[3] ?? "typescript-example";
  const client = new DominoRulesClient(baseUrl);
  const { rulesets } = await client.listRulesets();
  for (const info of rulesets) {
    const players = Math.min(3, info.max_players);
    console.log(await playMatch(client, info.id as RulesetId, players, seed));
  }
  try {
    await client.newGame({ ruleset: "one_arm_joe", players: 1 });
  } catch (error) {
    if (!(error instanceof DominoRulesError)) throw error;
    console.log(`refused: ${error.reason} (${error.code}, HTTP ${error.httpStatus})`);
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof DominoRulesError ? `${error.reason} (${error.code}, HTTP ${error.httpStatus}): ${error.message}` : error);
  process.exitCode = 1;
});
