// Removes what the build makes: dist/ and the copied proto/.
import { rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
for (const dir of ["dist", "proto", "build"]) rmSync(join(root, dir), { recursive: true, force: true });
