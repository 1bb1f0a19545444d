/**
 * Plays a whole match of every ruleset over gRPC, loading the contract from the
 * repository's proto/ at run time (no generated code), and sending every chosen legal
 * move back exactly as the server sent it.
 *
 *   npm run build && node dist/examples/play_grpc.js [TARGET] [SEED]
 *
 * TARGET defaults to $DOMINO_RULES_GRPC or 127.0.0.1:50051. Prints one line per
 * ruleset: `<ruleset>: MATCH_OVER after <moves> moves, <hands> hands, winners [...]`.
 */

import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";

import { MAX_MOVES, chooser } from "./common.js";

/** The repository's proto/ (the package is clients/typescript), or $DOMINO_RULES_PROTO. */
function protoDir(): string {
  if (process.env.DOMINO_RULES_PROTO) return process.env.DOMINO_RULES_PROTO;
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, "package.json"))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error("clients/typescript/package.json not found");
    dir = parent;
  }
  return resolve(dir, "../../proto");
}

/**
 * The loader options a JS client needs: field names as the proto writes them
 * (`game_id`, as the REST door prints them), enums as their names ("PLAY"), every field
 * present with its default, the oneof (and `optional`) members named, 64-bit integers
 * as strings. Messages are plain objects, so a legal move can be sent back as it came.
 */
const LOADER_OPTIONS: protoLoader.Options = {
  includeDirs: [protoDir()],
  keepCase: true,
  enums: String,
  defaults: true,
  oneofs: true,
  longs: String,
};

// The shapes this example reads; every other field comes and goes untouched.
interface Move {
  seat: number;
  kind: string;
  [field: string]: unknown;
}
interface Answer {
  state: Buffer;
  version: number;
  status: string;
}
interface LegalMoves {
  moves: Move[];
  status: string;
}
interface Score {
  hands: unknown[];
  winners: number[];
  seed?: string;
}
interface RulesetInfo {
  id: string;
  max_players: number;
}
type Unary = (request: object, callback: (error: grpc.ServiceError | null, answer?: unknown) => void) => void;

function rpc<T>(client: grpc.Client, name: string): (request: object) => Promise<T> {
  const method = (client as unknown as Record<string, Unary>)[name];
  if (method === undefined) throw new Error(`no RPC ${name}`);
  return (request) =>
    new Promise((resolvePromise, reject) => {
      method.call(client, request, (error, answer) => (error ? reject(error) : resolvePromise(answer as T)));
    });
}

async function main(): Promise<void> {
  const target = process.argv[2] ?? process.env.DOMINO_RULES_GRPC ?? "127.0.0.1:50051";
  const seed = process.argv[3] ?? "typescript-example";
  const definition = protoLoader.loadSync("domino_rules/v1/domino_rules.proto", LOADER_OPTIONS);
  const loaded = grpc.loadPackageDefinition(definition) as unknown as {
    domino_rules: { v1: { DominoRules: grpc.ServiceClientConstructor } };
  };
  const client = new loaded.domino_rules.v1.DominoRules(target, grpc.credentials.createInsecure());
  const listRulesets = rpc<{ rulesets: RulesetInfo[] }>(client, "ListRulesets");
  const newGame = rpc<Answer>(client, "NewGame");
  const getLegalMoves = rpc<LegalMoves>(client, "GetLegalMoves");
  const applyMove = rpc<Answer>(client, "ApplyMove");
  const getScore = rpc<Score>(client, "GetScore");

  try {
    for (const info of (await listRulesets({})).rulesets) {
      const ruleset = info.id;
      const pick = chooser(`${seed}/${ruleset}`);
      let game = await newGame({ ruleset, players: Math.min(3, info.max_players), seed: `${seed}-${ruleset}` });
      let moves = 0;
      while (game.status !== "MATCH_OVER") {
        if (++moves > MAX_MOVES) throw new Error(`${ruleset}: no end after ${MAX_MOVES} moves`);
        const legal = await getLegalMoves({ state: game.state });
        // Unchanged: the object the server sent, defaults and oneof names included.
        game = await applyMove({ state: game.state, move: pick(legal.moves), expected_version: game.version });
      }
      const score = await getScore({ state: game.state });
      const commitment = score.seed ? `seed ${JSON.stringify(score.seed)} revealed` : "no seed";
      console.log(
        `${ruleset}: ${game.status} after ${moves} moves, ${score.hands.length} hands, winners [${score.winners.join(", ")}], ${commitment}`,
      );
    }
    try {
      await newGame({ ruleset: "chess", players: 2 });
    } catch (error) {
      const status = error as grpc.ServiceError;
      console.log(`refused: ${grpc.status[status.code]} ${status.details}`);
    }
  } finally {
    client.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
