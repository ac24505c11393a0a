#!/usr/bin/env node
/**
 * The `basis-hooks` command line: it only registers commands; each lives in `commands/<name>.ts` and
 * calls the public API. The library never imports this file.
 */
import { readFileSync } from 'node:fs';
import { EXIT_OK, EXIT_USAGE, usageHint, type Command } from './command.js';
import { auditCommand } from './commands/audit.js';
import { buildCommand } from './commands/build.js';
import { checkCommand } from './commands/check.js';
import { claudeCodeCommand } from './commands/claude-code.js';
import { explainCommand } from './commands/explain.js';
import { initCommand } from './commands/init.js';
import { inspectCommand } from './commands/inspect.js';
import { pinCommand } from './commands/pin.js';
import { mcpCommand } from './commands/mcp.js';
import { runCommand } from './commands/run.js';
import { testCommand } from './commands/test.js';
import { hookCommand } from './commands/hook.js';
import { installCommand, uninstallCommand } from './commands/install.js';
import { serveCommand } from './commands/serve.js';
import { flush } from './io.js';
import { guardStdout } from './stdout-guard.js';

const COMMANDS: readonly Command[] = [runCommand, checkCommand, explainCommand, initCommand, buildCommand, testCommand, inspectCommand, pinCommand, auditCommand, mcpCommand, claudeCodeCommand, serveCommand, hookCommand, installCommand, uninstallCommand];

const USAGE = `Usage: basis-hooks <command> [options]

Run hooks that see every tool call of an agent runtime and allow, deny, modify or replace it.

Commands:
${COMMANDS.map((c) => `  ${c.name.padEnd(12)}${c.summary}`).join('\n')}

Options:
  -h, --help      show this help (or "basis-hooks <command> --help")
  -v, --version   print the version

Exit status: 0 on success, 2 for a usage error or an invalid config.
`;

/** How long handles may outlive the work before the process is ended anyway (see below). */
const EXIT_GRACE_MS = 2000;

function version(): string {
  // dist/cli/main.js and host/cli/main.ts both sit two levels below the package root.
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: unknown };
  return typeof pkg.version === 'string' ? pkg.version : 'unknown';
}

async function main(argv: readonly string[]): Promise<number> {
  const [first, ...rest] = argv;
  if (first === undefined) {
    process.stderr.write(USAGE);
    return EXIT_USAGE;
  }
  if (first === '-h' || first === '--help' || first === 'help') {
    process.stdout.write(USAGE);
    return EXIT_OK;
  }
  if (first === '-v' || first === '--version') {
    process.stdout.write(`${version()}\n`);
    return EXIT_OK;
  }
  const command = COMMANDS.find((c) => c.name === first);
  if (command === undefined) {
    const what = first.startsWith('-') ? `unknown option ${JSON.stringify(first)}` : `unknown command ${JSON.stringify(first)}`;
    process.stderr.write(`basis-hooks: ${what}\n${usageHint()}\n`);
    return EXIT_USAGE;
  }
  return command.run(rest);
}

// A reader that goes away (`| head -1`) makes stdout emit EPIPE; `write` then refuses, the command
// stops at its next write (closing its hooks), and the process ends quietly with 0 below: the reader
// had all it wanted, as with any well-behaved filter in a pipeline.
let stdoutClosed = false;
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') stdoutClosed = true;
});
guardStdout();

let code: number;
try {
  code = await main(process.argv.slice(2));
} catch (error) {
  if ((error as NodeJS.ErrnoException).code === 'EPIPE' && (stdoutClosed || process.stdout.destroyed)) {
    code = EXIT_OK;
  } else {
    process.stderr.write(`basis-hooks: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    code = 1;
  }
}
// Never process.exit() with output pending: set the code, let the pipes drain and the loop empty.
process.exitCode = code;
try {
  await flush(process.stdout);
} catch {
  // The reader went away (EPIPE): nothing left to deliver.
}
// Everything is flushed. If a transport left a handle open after close(), say so and end anyway
// rather than hang the caller (unref'd: it never keeps a clean process alive).
setTimeout(() => {
  process.stderr.write('basis-hooks: warning: handles were still open after the runner closed; exiting\n');
  process.exit();
}, EXIT_GRACE_MS).unref();
