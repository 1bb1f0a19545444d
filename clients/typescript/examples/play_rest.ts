/**
 * Plays a whole match of every ruleset over REST (`fetch`), then shows two refusals.
 *
 *   npm run build && npm run build:examples && npm run play:rest -- [BASE_URL] [SEED]
 *
 * BASE_URL defaults to $DOMINO_RULES_URL or http://127.0.0.1:8080.
 */

import { DominoRulesClient } from "domino-rules-client";

import { playEveryRuleset } from "./play.js";

const baseUrl = process.argv[2] ?? process.env.DOMINO_RULES_URL ?? "http://127.0.0.1:8080";
const seed = process.argv[3] ?? "typescript-example";

try {
  await playEveryRuleset(new DominoRulesClient(baseUrl), seed);
} catch (error) {
  console.error(error);
  process.exitCode = 1;
}
