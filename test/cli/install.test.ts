import { execFile } from 'node:child_process';
import { copyFile, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installCommand } from '../../host/errors/package-missing-error.js';
import { declaredRange, emptyApp, measureInstall, mib, npmInstall, packRepository, type InstallSize } from '../../scripts/install-size.js';
import { EVERYTHING, ProcessTransport } from '../helpers/mcp.js';
import { OtlpReceiver } from '../helpers/otlp-receiver.js';
import { OTLP_PACKAGES } from '../../host/cli/otlp-option.js';
import { ROOT } from './cli.js';

/*
 * `npm install basis-hooks` as a user runs it: the packed tarball installed into an empty app (the npm
 * cache is warm here, the registry reachable for the rest), then the package used from there — the
 * CLI from node_modules/.bin, the library by its name. jco-transpile (component hooks) and the MCP SDK
 * (the gateway) are optional peers: without them the rest works and their features fail naming the
 * command that installs them; installed, those features work.
 */

const MIB = 1024 * 1024;
/** The install-size target (issue 24): basis-hooks alone, into an empty app. */
const TARGET_MIB = 60;
const JCO = '@bytecodealliance/jco-transpile';
const MCP_SDK = '@modelcontextprotocol/sdk';
const CEDAR = '@cedar-policy/cedar-wasm';
const CEDAR_POLICY = '@reason("no force-push")\nforbid (principal, action == Action::"shell", resource) when { context.input.command like "*--force*" };\npermit (principal, action, resource);\n';
const CEL_RULES = [{ when: "input.command.contains('--force')", decision: 'deny', reason: 'no force-push' }];
const GUARD = path.join(ROOT, 'guest-examples/c/prebuilt/guard.wasm');
const FORCE_PUSH = { event: 'pre_tool_use', workspace: '/repo', agent_id: 'a1', tool_call_id: 'c1', tool_name: 'shell', input: { command: 'git push --force origin main' } };
const GUARD_REASON = 'force-push to a protected branch (main/master) is not allowed';

let work: string;
let app: string;
let installLog: string;
let size: InstallSize;

interface Ran {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Run a command in the app, with `stdin`, and an environment overriding ours with `env`. */
function inApp(file: string, args: readonly string[], options: { stdin?: string; env?: NodeJS.ProcessEnv } = {}): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = execFile(file, args, { cwd: app, env: { ...process.env, ...options.env }, maxBuffer: 16 * MIB }, (error, stdout, stderr) => {
      if (error !== null && typeof error.code !== 'number') {
        reject(error);
        return;
      }
      resolve({ code: error === null ? 0 : (error.code as number), stdout, stderr });
    });
    child.stdin?.end(options.stdin ?? '');
  });
}

/** The installed CLI, as `npx basis-hooks` finds it. */
const cli = (args: readonly string[], options: { stdin?: string; env?: NodeJS.ProcessEnv } = {}): Promise<Ran> => inApp(path.join(app, 'node_modules/.bin/basis-hooks'), args, options);

/** Run an ES module written into the app (it imports the package by its name). */
async function script(name: string, source: string): Promise<Ran> {
  await writeFile(path.join(app, name), source);
  return inApp(process.execPath, [name]);
}

/** A config in the app; returns its file name. */
async function config(name: string, hooks: readonly Record<string, unknown>[]): Promise<string> {
  await writeFile(path.join(app, name), JSON.stringify({ hook_schema: 1, hooks }));
  return name;
}

function report(title: string, installed: InstallSize): string {
  const rows = installed.packages.slice(0, 8).map((p) => `  ${mib(p.disk).padStart(9)}  ${p.name}@${p.version}`);
  const rest = installed.packages.slice(8);
  if (rest.length > 0) rows.push(`  ${mib(rest.reduce((total, p) => total + p.disk, 0)).padStart(9)}  ${rest.length} more`);
  return `${title}: ${mib(installed.disk)} on disk (${mib(installed.apparent)} apparent), ${installed.packages.length} packages\n${rows.join('\n')}\n`;
}

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'basis-install-'));
  const tarball = await packRepository(work);
  app = await emptyApp(work);
  const installed = await npmInstall(app, [tarball]);
  installLog = installed.stdout + installed.stderr;
  size = await measureInstall(app);
  process.stderr.write(report('npm install basis-hooks', size));
  await copyFile(GUARD, path.join(app, 'guard.wasm'));
  await writeFile(
    path.join(app, 'deny-rm.mjs'),
    "let s = ''; process.stdin.on('data', (d) => (s += d)).on('end', () => { const r = JSON.parse(s); process.stdout.write(JSON.stringify(JSON.stringify(r.input).includes('rm -rf') ? { decision: 'deny', reason: 'no rm -rf' } : { decision: 'allow' })); });\n",
  );
}, 300_000);

afterAll(async () => {
  if (work !== undefined) await rm(work, { recursive: true, force: true });
});

describe('npm install basis-hooks into an empty app', () => {
  it(`takes at most ${TARGET_MIB} MB, installs neither jco-transpile (nor binaryen) nor the MCP SDK, and warns of no peer dependency`, () => {
    const names = size.packages.map((p) => p.name);
    expect(names).toContain('basis-hooks');
    for (const optional of [JCO, 'binaryen', MCP_SDK, CEDAR]) expect(names).not.toContain(optional);
    expect(size.disk).toBeLessThanOrEqual(TARGET_MIB * MIB);
    expect(installLog).not.toMatch(/ERESOLVE|peer dep|conflicting peer/i);
  });

  it('runs subprocess hooks (CLI) and interceptors (library) with neither optional package', async () => {
    const cfg = await config('subprocess.json', [{ name: 'deny-rm', event: 'pre_tool_use', command: ['node', 'deny-rm.mjs'] }]);
    const ran = await cli(['run', '--config', cfg], { stdin: JSON.stringify({ ...FORCE_PUSH, input: { command: 'rm -rf /' } }) });
    expect(ran.stderr).toBe('');
    expect(JSON.parse(ran.stdout)).toMatchObject({ decision: 'deny', reason: 'no rm -rf' });
    expect(ran.code).toBe(0);

    const library = await script(
      'interceptor.mjs',
      `import { HookRunner, interceptorTransport } from 'basis-hooks';
const runner = new HookRunner([{ name: 'no-push', event: 'pre_tool_use', transport: interceptorTransport(() => ({ decision: 'deny', reason: 'no push' })) }]);
const outcome = await runner.pre(${JSON.stringify({ ...FORCE_PUSH, event: undefined })});
await runner.close();
console.log(JSON.stringify({ decision: outcome.decision, reason: outcome.reason }));
`,
    );
    expect(library.stderr).toBe('');
    expect(JSON.parse(library.stdout)).toEqual({ decision: 'deny', reason: 'no push' });
  });

  it('a component hook without jco-transpile: load_failed caused by package_missing, naming the install command (CLI and library)', async () => {
    const command = installCommand(JCO);
    expect(command).toBe(`npm install ${JCO}@${await declaredRange(JCO)}`);
    const cfg = await config('component.json', [{ name: 'guard', event: 'pre_tool_use', component: 'guard.wasm' }]);
    const ran = await cli(['run', '--config', cfg], { stdin: JSON.stringify(FORCE_PUSH) });
    expect(ran.code).toBe(2);
    expect(ran.stdout).toBe('');
    expect(ran.stderr).toContain('load_failed');
    expect(ran.stderr).toContain(`Install it with: ${command}`);
    expect((await cli(['init', 'starter'])).code).toBe(0);
    for (const args of [['check', '--config', cfg], ['inspect', 'guard.wasm'], ['build', 'starter']]) {
      const other = await cli(args);
      expect(other.code, args.join(' ')).toBe(2);
      // check reports each hook on stdout; inspect and build say what went wrong on stderr.
      expect(other.stdout + other.stderr, args.join(' ')).toContain(`Install it with: ${command}`);
    }

    const library = await script(
      'component.mjs',
      `import { componentTransport } from 'basis-hooks';
const transport = componentTransport({ path: 'guard.wasm' });
try {
  await transport.load();
  console.log('loaded');
} catch (error) {
  console.log(JSON.stringify({ name: error.name, code: error.code, cause: { name: error.cause?.name, code: error.cause?.code, package: error.cause?.package, install: error.cause?.install } }));
} finally {
  await transport.close();
}
`,
    );
    expect(library.stderr).toBe('');
    expect(JSON.parse(library.stdout)).toEqual({ name: 'HookError', code: 'load_failed', cause: { name: 'PackageMissingError', code: 'package_missing', package: JCO, install: command } });
  });

  it('CEL hooks run out of the box (the engine is a dependency); a Cedar hook without its engine: load_failed caused by package_missing, naming the install command', async () => {
    const cel = await config('cel.json', [{ name: 'rules', event: 'pre_tool_use', cel: CEL_RULES }]);
    const ran = await cli(['run', '--config', cel], { stdin: JSON.stringify(FORCE_PUSH) });
    expect(ran.stderr).toBe('');
    expect(JSON.parse(ran.stdout)).toMatchObject({ decision: 'deny', reason: 'no force-push' });

    const command = installCommand(CEDAR);
    expect(command).toBe(`npm install ${CEDAR}@${await declaredRange(CEDAR)}`);
    await writeFile(path.join(app, 'tools.cedar'), CEDAR_POLICY);
    const cedar = await config('cedar.json', [{ name: 'tools', event: 'pre_tool_use', cedar: 'tools.cedar' }]);
    for (const args of [['run', '--config', cedar], ['check', '--config', cedar]]) {
      const other = await cli(args, { stdin: JSON.stringify(FORCE_PUSH) });
      expect(other.code, args.join(' ')).toBe(2);
      expect(other.stdout + other.stderr, args.join(' ')).toContain(`Install it with: ${command}`);
    }
    const library = await script(
      'cedar.mjs',
      `import { cedarTransport } from 'basis-hooks';
const transport = cedarTransport({ policies: 'tools.cedar' });
try {
  await transport.load();
  console.log('loaded');
} catch (error) {
  console.log(JSON.stringify({ name: error.name, code: error.code, cause: { name: error.cause?.name, code: error.cause?.code, package: error.cause?.package, install: error.cause?.install } }));
}
`,
    );
    expect(library.stderr).toBe('');
    expect(JSON.parse(library.stdout)).toEqual({ name: 'HookError', code: 'load_failed', cause: { name: 'PackageMissingError', code: 'package_missing', package: CEDAR, install: command } });
  });

  it('the MCP gateway without the SDK: exit 2 naming the install command, nothing started; basis-hooks/mcp: Node names the package', async () => {
    const cfg = await config('gateway.json', [{ name: 'deny-rm', event: 'pre_tool_use', command: ['node', 'deny-rm.mjs'] }]);
    const marker = path.join(app, 'server-started');
    const ran = await cli(['mcp', '--config', cfg, '--', process.execPath, '-e', `require('fs').writeFileSync(${JSON.stringify(marker)}, '')`]);
    expect(ran.code).toBe(2);
    expect(ran.stdout).toBe('');
    expect(ran.stderr).toBe(`basis-hooks mcp: package_missing: the npm package ${MCP_SDK} is not installed; basis-hooks needs it for the MCP gateway (basis-hooks mcp, and basis-hooks/mcp). Install it with: ${installCommand(MCP_SDK)}\n`);
    expect(existsSync(marker)).toBe(false);

    const library = await script('mcp.mjs', "import('basis-hooks/mcp').then(() => console.log('loaded'), (error) => console.log(JSON.stringify({ code: error.code, message: error.message })));\n");
    const outcome = JSON.parse(library.stdout) as { code: string; message: string };
    expect(outcome.code).toBe('ERR_MODULE_NOT_FOUND');
    expect(outcome.message).toContain(`Cannot find package '${MCP_SDK}'`);
  });

  describe(`with ${JCO} installed (${installCommand(JCO)})`, () => {
    beforeAll(async () => {
      await npmInstall(app, [`${JCO}@${await declaredRange(JCO)}`]);
      process.stderr.write(report(`npm install basis-hooks ${JCO}`, await measureInstall(app)));
    }, 300_000);

    it('component hooks run from the installed CLI in both isolations, from a cold cache', async () => {
      for (const isolation of ['metered', 'worker']) {
        const cache = await mkdtemp(path.join(work, 'cache-'));
        const cfg = await config(`component-${isolation}.json`, [{ name: 'guard', event: 'pre_tool_use', component: 'guard.wasm', isolation }]);
        const ran = await cli(['run', '--config', cfg], { stdin: JSON.stringify(FORCE_PUSH), env: { BASIS_HOOKS_CACHE_DIR: cache } });
        expect(ran.stderr, isolation).toBe('');
        expect(JSON.parse(ran.stdout), isolation).toMatchObject({ decision: 'deny', reason: GUARD_REASON });
        expect(existsSync(path.join(cache, 'components')), isolation).toBe(true);
      }
    });

    it('binaryen, which jco-transpile depends on, is never run: removed, a cold load still transpiles and runs the hook', async () => {
      const binaryen = path.join(app, 'node_modules/binaryen');
      expect(existsSync(binaryen)).toBe(true);
      const aside = path.join(work, 'binaryen-aside');
      await rename(binaryen, aside);
      try {
        for (const isolation of ['metered', 'worker']) {
          const cache = await mkdtemp(path.join(work, 'cache-'));
          const ran = await cli(['run', '--config', `component-${isolation}.json`], { stdin: JSON.stringify(FORCE_PUSH), env: { BASIS_HOOKS_CACHE_DIR: cache } });
          expect(ran.stderr, isolation).toBe('');
          expect(JSON.parse(ran.stdout), isolation).toMatchObject({ decision: 'deny', reason: GUARD_REASON });
        }
      } finally {
        await rename(aside, binaryen);
      }
    });
  });

  describe(`with ${CEDAR} installed (${installCommand(CEDAR)})`, () => {
    beforeAll(async () => {
      await npmInstall(app, [`${CEDAR}@${await declaredRange(CEDAR)}`]);
      process.stderr.write(report(`npm install basis-hooks ${JCO} ${CEDAR}`, await measureInstall(app)));
    }, 300_000);

    it('the Cedar hook runs from the installed CLI', async () => {
      const ran = await cli(['run', '--config', 'cedar.json'], { stdin: JSON.stringify(FORCE_PUSH) });
      expect(ran.stderr).toBe('');
      expect(JSON.parse(ran.stdout)).toMatchObject({ decision: 'deny', reason: 'no force-push' });
    });
  });

  describe(`with ${MCP_SDK} installed (${installCommand(MCP_SDK)})`, () => {
    beforeAll(async () => {
      await npmInstall(app, [`${MCP_SDK}@${await declaredRange(MCP_SDK)}`]);
      process.stderr.write(report(`npm install basis-hooks ${JCO} ${CEDAR} ${MCP_SDK}`, await measureInstall(app)));
    }, 300_000);

    it('the installed gateway runs the hooks on tools/call between the official SDK client and a server', async () => {
      const cfg = await config('echo.json', [{ name: 'deny-rm', event: 'pre_tool_use', tools: ['echo'], command: ['node', 'deny-rm.mjs'] }]);
      const gateway = new ProcessTransport([path.join(app, 'node_modules/.bin/basis-hooks'), 'mcp', '--config', cfg, '--', ...EVERYTHING], process.env, app);
      const client = new Client({ name: 'install-test', version: '1.0.0' }, { capabilities: {} });
      try {
        await client.connect(gateway);
        const denied = (await client.callTool({ name: 'echo', arguments: { message: 'rm -rf /' } })) as CallToolResult;
        expect(denied.isError).toBe(true);
        expect(JSON.stringify(denied.content)).toContain('no rm -rf');
        const allowed = (await client.callTool({ name: 'echo', arguments: { message: 'hello' } })) as CallToolResult;
        expect(allowed.isError ?? false).toBe(false);
        expect(JSON.stringify(allowed.content)).toContain('hello');
        expect(gateway.garbage).toEqual([]);
      } finally {
        await client.close();
      }
    });
  });

  describe('with the OpenTelemetry SDK installed (what --otlp asks for)', () => {
    const event = JSON.stringify({ session_id: 's', cwd: '/tmp', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'rm -rf /x' }, tool_use_id: 't' });

    it('without it, --otlp names the install command and the event is still blocked (exit 2, fail closed)', async () => {
      const cfg = await config('otlp.json', [{ name: 'deny-rm', event: 'pre_tool_use', command: ['node', './deny-rm.mjs'] }]);
      const ran = await cli(['claude-code', '--config', cfg, '--otlp', 'http://127.0.0.1:9'], { stdin: event });
      expect(ran.stderr).toContain(`npm install ${Object.entries(OTLP_PACKAGES).map(([n, r]) => `${n}@${r}`).join(' ')}`);
      expect(ran.code).toBe(2); // Claude Code's block: a command hook never fails open
    });

    it('installed at the ranges basis-hooks names, a command hook with --otlp exports its chain', async () => {
      await npmInstall(app, Object.entries(OTLP_PACKAGES).map(([n, r]) => `${n}@${r}`));
      process.stderr.write(report('npm install basis-hooks + jco-transpile + MCP SDK + OTLP export', await measureInstall(app)));
      const receiver = await OtlpReceiver.start();
      try {
        const ran = await cli(['claude-code', '--config', 'otlp.json', '--otlp', receiver.url], { stdin: event });
        expect(JSON.parse(ran.stdout)).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: 'no rm -rf' } });
        expect(receiver.spans.some((span) => span.name.startsWith('basis_hooks.chain')), ran.stderr).toBe(true);
      } finally {
        await receiver.close();
      }
    }, 300_000);
  });
});
