// Copies the service's contract into the package (proto/): domino_rules/v1/*.proto and
// every file they import that the repository's proto/ holds (google/api/...). The
// well-known google/protobuf files come with @grpc/proto-loader.
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const source = join(here, "..", "..", "..", "proto");
const target = join(here, "..", "proto");
const root = "domino_rules/v1";

if (!existsSync(join(source, root))) {
  console.error(`copy-proto: ${join(source, root)} not found (run this in the repository)`);
  process.exit(1);
}
rmSync(target, { recursive: true, force: true });
const pending = readdirSync(join(source, root))
  .filter((name) => name.endsWith(".proto"))
  .map((name) => `${root}/${name}`);
const copied = new Set();
while (pending.length > 0) {
  const file = pending.pop();
  if (copied.has(file)) continue;
  const from = join(source, file);
  if (!existsSync(from)) {
    if (file.startsWith("google/protobuf/")) continue;
    console.error(`copy-proto: ${file} is imported but not in proto/`);
    process.exit(1);
  }
  mkdirSync(dirname(join(target, file)), { recursive: true });
  copyFileSync(from, join(target, file));
  copied.add(file);
  for (const match of readFileSync(from, "utf8").matchAll(/^\s*import\s+(?:public\s+|weak\s+)?"([^"]+)"\s*;/gm)) {
    pending.push(match[1]);
  }
}
console.error(`copy-proto: ${[...copied].sort().join(", ")}`);
