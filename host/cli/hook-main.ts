#!/usr/bin/env node
/**
 * `basis-hooks hook` without the rest of the CLI: the Node client an agent's command hook (or the
 * installed script's fallback) starts per event. Bundled into `dist/cli/hook/main.js` like the Claude
 * Code entry, so a cold start loads one file. Same flags as `basis-hooks hook`.
 */
import { hookCommand } from './commands/hook.js';
import { flush } from './io.js';

process.stdout.on('error', () => {});
const code = await hookCommand.run(process.argv.slice(2));
try {
  await flush(process.stdout);
} catch {
  // The reader went away: nothing left to deliver.
}
// The answer is out: do not let a lingering handle keep the agent waiting.
process.exit(code);
