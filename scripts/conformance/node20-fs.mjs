/**
 * `@modelcontextprotocol/conformance` imports `globSync` from `fs`, which Node 20 (this project's
 * floor) lacks; it uses it only to collect `checks.json` files for its tier report, never when it
 * tests a server. Loaded with `node --import ./node20-fs.mjs`, this gives that package (and only it)
 * an `fs` with a small `globSync`, so the suite runs on Node 20 unchanged.
 */
import { register } from 'node:module';

register('./node20-fs-hooks.mjs', import.meta.url);
