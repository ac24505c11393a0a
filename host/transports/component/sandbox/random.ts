import { insecure, insecureSeed, random } from '@bytecodealliance/preview2-shim/random';
import type * as WasiInsecure from '../generated/interfaces/wasi-random-insecure.js';
import type * as WasiInsecureSeed from '../generated/interfaces/wasi-random-insecure-seed.js';
import type * as WasiRandom from '../generated/interfaces/wasi-random-random.js';

/*
 * Random is preview2-shim's own (node:crypto, no worker, no host state): it serves as it is. Checked
 * against our generated WIT types so a shim that drifts from the WIT fails to compile.
 */
export const randomRandom: typeof WasiRandom = random;
export const randomInsecure: typeof WasiInsecure = insecure;
export const randomInsecureSeed: typeof WasiInsecureSeed = insecureSeed;
