/** What both examples share: a seeded chooser, so that every run plays the same matches. */

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

/** The most moves a match may take before the example gives up. */
export const MAX_MOVES = 20_000;
