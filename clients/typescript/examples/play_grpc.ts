/**
 * Plays a whole match of every ruleset over gRPC, then shows two refusals: the same
 * code as the REST example, through `domino-rules-client/grpc` (which needs
 * `@grpc/grpc-js` and `@grpc/proto-loader` installed).
 *
 *   npm run build && npm run build:examples && npm run play:grpc -- [TARGET] [SEED]
 *
 * TARGET defaults to $DOMINO_RULES_GRPC or 127.0.0.1:50051.
 */

import { DominoRulesGrpcClient } from "domino-rules-client/grpc";

import { playEveryRuleset } from "./play.js";

const target = process.argv[2] ?? process.env.DOMINO_RULES_GRPC ?? "127.0.0.1:50051";
const seed = process.argv[3] ?? "typescript-example";

const client = new DominoRulesGrpcClient(target);
try {
  await playEveryRuleset(client, seed);
} catch (error) {
  console.error(error);
  process.exitCode = 1;
} finally {
  client.close();
}
