/**
 * The demo: `npm run demo` (after build) runs a short agent session — examples/demo/calls.jsonl —
 * through the hooks of examples/demo/hooks.json with the real `basis-hooks` CLI, and shows every
 * kind of decision: allow, deny, modify, replace, a deny after the call, and a failing hook under
 * each failure policy. `npm run demo -- --json` prints the outcome JSON lines only (for machines).
 *
 * Hooks are plain entries of the config: adding one (a subprocess in any language, or a WebAssembly
 * component) needs no change here, only a hook entry and the calls that exercise it.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CLI = 'dist/cli/main.js';
const CONFIG = 'examples/demo/hooks.json';
const CALLS = 'examples/demo/calls.jsonl';

const { values } = parseArgs({ options: { json: { type: 'boolean', default: false } } });
const json = values.json === true;

if (!existsSync(`${ROOT}/${CLI}`)) {
  process.stderr.write(`demo: ${CLI} is missing; run "npm run build" first (npm run demo does)\n`);
  process.exit(2);
}

/** Run the CLI from the repository root, its output straight to ours; resolve to its exit code. */
function cli(args: readonly string[]): Promise<number> {
  if (!json) process.stdout.write(`\n$ basis-hooks ${args.join(' ')}\n`);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
    child.on('error', reject);
    child.on('close', (code, signal) => resolve(code ?? (signal === null ? 1 : 128)));
  });
}

if (json) {
  process.exitCode = await cli(['run', '--config', CONFIG, '--calls', CALLS]);
} else {
  process.stdout.write(
    'basis-hooks demo: an agent session run through WebAssembly component hooks (JavaScript, sandboxed)\n' +
      'and subprocess hooks written in sh, Node and Python, in one chain.\n' +
      `Config: ${CONFIG}; calls: ${CALLS}.\n`,
  );
  const checked = await cli(['check', '--config', CONFIG]);
  const ran = await cli(['run', '--config', CONFIG, '--calls', CALLS, '--table']);
  process.stdout.write(
    '\nmodify/replace reasons reach the audit trail only; a deny reason is what the model reads.\n' +
      'deploy-gate crashes and fails closed (on_failure deny); audit-log times out and fails open (on_failure allow).\n',
  );
  process.exitCode = checked !== 0 ? checked : ran;
}
