// SHA-256 of a text's UTF-8 bytes, as lowercase hex: the check of the seed a match
// revealed against the commitment it made at the start.
//
// `crypto.subtle` exists only in a secure context (https, or http://127.0.0.1 and
// localhost); a page opened elsewhere over plain http uses the implementation below
// (FIPS 180-4), so the check can always be made in the page.

const ror = (x, n) => (x >>> n) | (x << (32 - n));

function firstPrimes(count) {
  const primes = [];
  for (let n = 2; primes.length < count; n++) {
    if (primes.every((p) => n % p !== 0)) primes.push(n);
  }
  return primes;
}

// The fractional parts of the primes' square and cube roots, 32 bits each.
const PRIMES = firstPrimes(64);
const frac32 = (x) => Math.floor((x - Math.floor(x)) * 2 ** 32) >>> 0;
const INITIAL = PRIMES.slice(0, 8).map((p) => frac32(Math.sqrt(p)));
const ROUND = PRIMES.map((p) => frac32(Math.cbrt(p)));

/** SHA-256 in plain JavaScript: `bytes` a Uint8Array, the digest as hex. */
export function sha256Plain(bytes) {
  const length = bytes.length;
  const total = Math.ceil((length + 9) / 64) * 64;
  const message = new Uint8Array(total);
  message.set(bytes);
  message[length] = 0x80;
  const view = new DataView(message.buffer);
  const bits = length * 8;
  view.setUint32(total - 8, Math.floor(bits / 2 ** 32));
  view.setUint32(total - 4, bits >>> 0);
  const hash = INITIAL.slice();
  const w = new Uint32Array(64);
  for (let offset = 0; offset < total; offset += 64) {
    for (let i = 0; i < 16; i++) w[i] = view.getUint32(offset + 4 * i);
    for (let i = 16; i < 64; i++) {
      const s0 = ror(w[i - 15], 7) ^ ror(w[i - 15], 18) ^ (w[i - 15] >>> 3);
      const s1 = ror(w[i - 2], 17) ^ ror(w[i - 2], 19) ^ (w[i - 2] >>> 10);
      w[i] = (w[i - 16] + s0 + w[i - 7] + s1) >>> 0;
    }
    let [a, b, c, d, e, f, g, h] = hash;
    for (let i = 0; i < 64; i++) {
      const t1 = (h + (ror(e, 6) ^ ror(e, 11) ^ ror(e, 25)) + ((e & f) ^ (~e & g)) + ROUND[i] + w[i]) >>> 0;
      const t2 = ((ror(a, 2) ^ ror(a, 13) ^ ror(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) >>> 0;
      [h, g, f, e, d, c, b, a] = [g, f, e, (d + t1) >>> 0, c, b, a, (t1 + t2) >>> 0];
    }
    [a, b, c, d, e, f, g, h].forEach((value, i) => {
      hash[i] = (hash[i] + value) >>> 0;
    });
  }
  return hash.map((word) => word.toString(16).padStart(8, "0")).join("");
}

/** SHA-256 of `text` (UTF-8) as hex, with `crypto.subtle` where the page may use it. */
export async function sha256Hex(text, { plain = false } = {}) {
  const bytes = new TextEncoder().encode(text);
  if (!plain && globalThis.crypto && globalThis.crypto.subtle) {
    const digest = new Uint8Array(await globalThis.crypto.subtle.digest("SHA-256", bytes));
    return Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("");
  }
  return sha256Plain(bytes);
}
