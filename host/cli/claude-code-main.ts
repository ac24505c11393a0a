#!/usr/bin/env node
/**
 * `basis-hooks claude-code` without the rest of the CLI: the entry Claude Code starts for every tool
 * call (`--print-settings` writes its path). The build bundles it into one file,
 * `dist/cli/claude-code/main.js`, because a process per call pays for every module it loads — Node's
 * ESM loader costs more per file than the code in it. Same flags as `basis-hooks claude-code`.
 */
import { claudeCodeCommand } from './commands/claude-code.js';
import { flush } from './io.js';

process.stdout.on('error', () => {});
const code = await claudeCodeCommand.run(process.argv.slice(2));
try {
  await flush(process.stdout);
} catch {
  // The reader went away: nothing left to deliver.
}
// The answer is out: do not let a lingering handle keep Claude Code waiting.
process.exit(code);
