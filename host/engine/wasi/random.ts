import { insecure, insecureSeed, random } from '@bytecodealliance/preview2-shim/random';
import type * as WasiInsecure from './generated/interfaces/wasi-random-insecure.js';
import type * as WasiInsecureSeed from './generated/interfaces/wasi-random-insecure-seed.js';
import type * as WasiRandom from './generated/interfaces/wasi-random-random.js';

/*
 * Random is preview2-shim's own (node:crypto, no worker, no host state), behind a cap on how many
 * bytes one call may ask for: the shim would allocate whatever length the guest names (up to 2^64) in
 * the host's memory, outside the guest's capped linear memory. Checked against our generated WIT types
 * so a shim that drifts from the WIT fails to compile.
 */

/** Most bytes one `get-random-bytes` call may ask for; a guest wanting more asks again. */
export const MAX_RANDOM_BYTES = 1024 * 1024;

function capped(len: bigint): bigint {
  // A TypeError unwinds through the guest as a trap: WASI has no error case for this call.
  if (len > BigInt(MAX_RANDOM_BYTES)) throw new TypeError(`wasi:random: ${len} bytes asked for at once (at most ${MAX_RANDOM_BYTES})`);
  return len;
}

export const randomRandom: typeof WasiRandom = {
  getRandomBytes: (len) => random.getRandomBytes(capped(len)),
  getRandomU64: () => random.getRandomU64(),
};
export const randomInsecure: typeof WasiInsecure = {
  getInsecureRandomBytes: (len) => insecure.getInsecureRandomBytes(capped(len)),
  getInsecureRandomU64: () => insecure.getInsecureRandomU64(),
};
export const randomInsecureSeed: typeof WasiInsecureSeed = insecureSeed;
