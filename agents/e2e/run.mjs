#!/usr/bin/env node
// npm run test:agents: for each of the six agent CLIs that run here, install ONE policy — the committed
// examples/one-policy: no recursive rm before a call, secrets redacted after it — with
// `basis-hooks install --agent X` into the real CLI's project, serve it with `basis-hooks serve`, and
// drive the CLI with a scripted model that asks for a recursive rm, then `echo <an AWS key>`:
//   - the rm is blocked with the policy's reason (the victim directory survives),
//   - the echo runs, and where the agent can replace a result the model reads the key redacted,
//   - both with the policy as components (hooks.json) and as the same modules in command hooks
//     (hooks.command.json),
//   - with the server stopped the client runs the chain itself, from the project's own install of
//     basis-hooks (node_modules/basis-hooks, no --command, no npx): the rm is still blocked,
//   - with the server stopped and no working fallback every call is blocked (nothing unchecked).
// Gemini CLI runs without GEMINI_CLI_TRUST_WORKSPACE: only the trustedFolders.json entry install
// writes makes it load the project's hooks (untrusted, a headless Gemini refuses to run at all).
// Usage: node e2e/run.mjs [cli ...]   (default: all six). Prints one line per check; exit 1 on a failure.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const ROOT = path.dirname(HERE);
const CLI = path.join(ROOT, 'dist', 'cli', 'main.js');
const KEY = 'AKIAIOSFODNN7EXAMPLE';
const REASON = 'recursive rm is not allowed';
const CODEX_BIN = path.join(HERE, 'node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex');
const EXAMPLE = path.join(ROOT, 'examples', 'one-policy');
/** The one policy, as components and as the same modules in command hooks. */
const POLICIES = { component: path.join(EXAMPLE, 'hooks.json'), command: path.join(EXAMPLE, 'hooks.command.json') };
for (const built of [path.join(EXAMPLE, 'build', 'no-rm-rf.wasm'), path.join(ROOT, 'guest-examples', 'js', 'build', 'quickjs', 'redact.wasm')]) {
  if (!existsSync(built)) throw new Error(`${built} is not built: npm run build-guests -- js`);
}

/** What each agent can do with the post hook's redaction (see docs/agents/<agent>.md). */
const AGENTS = {
  claude: { agent: 'claude-code', redaction: 'replaced' },
  gemini: { agent: 'gemini', redaction: 'as_error' },
  codex: { agent: 'codex', redaction: 'replaced' },
  copilot: { agent: 'copilot', redaction: 'replaced' },
  qwen: { agent: 'qwen', redaction: 'not_supported' },
  cline: { agent: 'cline', redaction: 'cancels_task' },
};

const wanted = process.argv.slice(2).length > 0 ? process.argv.slice(2) : Object.keys(AGENTS);
const work = mkdtempSync(path.join(tmpdir(), 'basis-agents-'));

const scenario = path.join(work, 'scenario.json');
writeFileSync(scenario, JSON.stringify({ steps: [{ shell: 'rm -r ./victim', description: 'delete victim' }, { shell: `echo ${KEY}`, description: 'print a key' }, { text: 'All done.' }] }));

function serve(socket, policy) {
  const child = spawn(process.execPath, [CLI, 'serve', '--config', policy, '--socket', socket], { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  return new Promise((resolve, reject) => {
    child.stderr.on('data', (c) => {
      err += c;
      if (err.includes('listening on')) resolve(child);
    });
    child.on('exit', (code) => reject(new Error(`serve exited ${code}: ${err}`)));
  });
}

async function stop(server) {
  server.kill('SIGTERM');
  await new Promise((r) => server.once('exit', r));
}

/**
 * Run a CLI through its driver with `install` as its hook setup (run in the project, with the run's
 * own HOME). `command`: the fallback's launcher (`--command`); undefined: the project's own install —
 * node_modules/basis-hooks linked to this checkout, as `npm install basis-hooks` leaves it.
 */
function drive(cli, socket, policy, command) {
  const codexBin = cli === 'codex' ? ` --codex-bin ${CODEX_BIN}` : '';
  const link = command === undefined ? `mkdir -p node_modules && ln -s '${ROOT}' node_modules/basis-hooks && ` : '';
  const install = `${link}node ${CLI} install --agent ${AGENTS[cli].agent} --config ${policy} --socket ${socket}${command === undefined ? '' : ` --command '${command}'`}${codexBin}`;
  const env = { ...process.env, BASIS_INSTALL: install, TIMEOUT: '120' };
  // The real trust paths, not the drivers' shortcuts: Codex checks its hook trust, Copilot its folder
  // trust, Gemini its trusted folders.
  if (cli === 'codex') env.CODEX_FLAGS = '--dangerously-bypass-approvals-and-sandbox';
  if (cli === 'copilot') env.RUN_ALLOW_ALL = '';
  if (cli === 'gemini') env.RUN_TRUST_WORKSPACE = '';
  const run = spawnSync('bash', [path.join(HERE, `run-${cli}.sh`), 'unused', scenario], { env, encoding: 'utf8', timeout: 180_000 });
  let summary;
  try {
    summary = JSON.parse(run.stdout);
  } catch {
    summary = { error: `driver exit ${run.status}: ${run.stderr.slice(-1500)}` };
  }
  return summary;
}

const seen = (summary) => JSON.stringify(summary.tool_results_seen_by_model ?? []);
let failed = 0;
const check = (cli, what, ok, detail) => {
  if (!ok) failed++;
  process.stdout.write(`${ok ? 'ok  ' : 'FAIL'}  ${cli.padEnd(8)} ${what}${ok ? '' : `\n      ${detail}`}\n`);
};

for (const cli of wanted) {
  const info = AGENTS[cli];
  if (info === undefined) throw new Error(`unknown cli ${cli}`);
  const socket = path.join(work, `${cli}-run`, 'hooks.sock');
  for (const [form, policy] of Object.entries(POLICIES)) {
    const server = await serve(socket, policy);
    const live = drive(cli, socket, policy, `node ${CLI}`);
    await stop(server);
    const results = seen(live);
    const what = (text) => `${text} (${form}s)`;
    check(cli, what('the recursive rm is blocked (victim kept)'), live.blocked === true, JSON.stringify(live).slice(0, 1500));
    if (info.redaction === 'cancels_task') {
      check(cli, what('the task is cancelled before the rm runs (Cline\'s only block is {"cancel": true})'), live.blocked === true && !results.includes('victim'), results);
    } else {
      check(cli, what(`the model reads the policy's reason${cli === 'gemini' ? ' (Gemini trusted the project by install\'s trustedFolders.json entry alone)' : ''}`), results.includes(REASON), results);
      check(cli, what('the harmless command runs'), results.includes('AKIAIOSFODNN') || results.includes('[REDACTED]'), results);
      if (info.redaction === 'replaced' || info.redaction === 'as_error') {
        check(cli, what(`the post hook's redaction is what the model reads (${info.redaction})`), results.includes('[REDACTED]') && !results.includes(KEY), results);
      }
    }
  }
  // Server stopped: the client runs the chain itself, from the project's own basis-hooks.
  const fallback = drive(cli, socket, POLICIES.component, undefined);
  check(cli, 'server stopped: the in-process fallback (the project\'s own install) still blocks the rm', fallback.blocked === true, JSON.stringify(fallback).slice(0, 1500));
  if (info.redaction !== 'cancels_task') check(cli, 'server stopped: the model reads the policy\'s reason', seen(fallback).includes(REASON), seen(fallback));
  // Server stopped and the fallback cannot start: every call is blocked, none passes unchecked.
  const dead = drive(cli, socket, POLICIES.component, 'false');
  const deadSeen = seen(dead);
  check(cli, 'server stopped, no fallback: the rm is blocked', dead.blocked === true, JSON.stringify(dead).slice(0, 1500));
  // Every tool result the model saw is the block (Codex appends the blocked command to it: #32573).
  const blockedAll = (dead.tool_results_seen_by_model ?? []).length > 0 && (dead.tool_results_seen_by_model ?? []).every((r) => JSON.stringify(r).includes('could not decide'));
  if (info.redaction !== 'cancels_task') check(cli, 'server stopped, no fallback: the echo is blocked too', blockedAll, deadSeen);
}
rmSync(work, { recursive: true, force: true });
process.stdout.write(`\n${failed === 0 ? 'all agent checks passed' : `${failed} agent check(s) failed`}\n`);
process.exit(failed === 0 ? 0 : 1);
