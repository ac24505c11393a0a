#!/usr/bin/env node
// npm run test:agents: install the agent CLIs of this package on first use (~1.6 GB, so not part of
// `npm ci`), build basis-hooks, then run e2e/run.mjs against the real CLIs.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.dirname(here);
const step = (cmd, args, cwd) => {
  const r = spawnSync(cmd, args, { cwd, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
};
if (!existsSync(path.join(here, 'node_modules', '@anthropic-ai', 'claude-code-linux-x64', 'claude'))) {
  console.log('test:agents: installing the agent CLIs (first use, ~1.6 GB)');
  // `npm install --no-save`, not `npm ci`: the lock pins every package this platform installs, but
  // not the other platforms' optional binaries (@cline/cli-darwin-arm64, @teddyzhu/clipboard-win32-…),
  // which the registry this lock was made against does not serve, and npm 11's `ci` refuses a lock
  // without them ("Missing: … from lock file"). `install` installs exactly the locked versions and,
  // with --no-save, rewrites neither package.json nor the lock.
  step('npm', ['install', '--no-save', '--no-audit', '--no-fund'], here);
}
step('npm', ['run', 'build'], root);
step('npm', ['run', 'build-guests'], root);
step(process.execPath, [path.join(here, 'e2e', 'run.mjs'), ...process.argv.slice(2)], root);
