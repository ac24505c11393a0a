import { createHash } from 'node:crypto';
import { copyFile, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  ConfigError,
  HookError,
  checkConfig,
  createRunner,
  parseConfig,
  pinConfig,
  pinConfigText,
  pinTarget,
  hookDigest,
  isInterpreter,
  type HookRunner,
} from '../../host/index.js';
import fc from 'fast-check';
import { TEST_CACHE_DIR } from '../helpers/guests.js';
import { tempDir } from '../helpers/temp.js';
import { answerBody, ensureOpsGuests, preCall, shHook, watBehaviour } from './helpers.js';

const runners: HookRunner[] = [];
afterEach(async () => {
  await Promise.all(runners.splice(0).map((r) => r.close()));
});

async function sha256(file: string): Promise<string> {
  return createHash('sha256').update(await readFile(file)).digest('hex');
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

const ZEROS = '0'.repeat(64);

beforeAll(ensureOpsGuests, 300_000);

describe('what a pin covers', () => {
  it('a component: its file; an interpreter: the first later argument naming a file; another program: itself', async () => {
    const dir = await tempDir();
    const script = await shHook(dir, 'hooks/guard.sh', answerBody({ decision: 'allow' }));
    const config = parseConfig(
      {
        hook_schema: 1,
        hooks: [
          { name: 'wasm', event: 'pre_tool_use', component: 'hooks/guard.wasm' },
          { name: 'direct', event: 'pre_tool_use', command: ['hooks/guard.sh', '/etc/hostname'] },
          { name: 'interpreted', event: 'pre_tool_use', command: ['sh', '-e', 'hooks/guard.sh', '/etc/hostname'] },
          { name: 'program', event: 'pre_tool_use', command: ['true', '--not-a-file'] },
          { name: 'shell', event: 'pre_tool_use', command: 'sh hooks/guard.sh' },
          { name: 'relative', event: 'pre_tool_use', command: ['./not-beside-the-config.sh'] },
          { name: 'env', event: 'pre_tool_use', command: ['/usr/bin/env', 'sh', script] },
        ],
      },
      `${dir}/hooks.json`,
    );
    const targets = await Promise.all(config.hooks.map((h) => pinTarget(h)));
    expect(targets.slice(0, 3)).toEqual([
      { files: [path.join(dir, 'hooks/guard.wasm')], uncovered: [] },
      { files: [script], uncovered: [] },
      { files: [script], uncovered: [expect.stringMatching(/\/sh \(the interpreter\)$/) as unknown] },
    ]);
    expect(targets[3]).toMatchObject({ files: [expect.stringMatching(/\/true$/) as unknown] });
    expect(targets[4]).toHaveProperty('none');
    expect(targets[5]).toHaveProperty('none');
    // /usr/bin/env is a launcher: the pin covers the script it ends up running, not env.
    expect(targets[6]).toEqual({ files: [script], uncovered: ['/usr/bin/env (the interpreter)'] });
  });

  it('an interpreter with no file of the hook\'s own (a script relative to the workspace, -m, -e) covers nothing: a pin on it is refused', async () => {
    const dir = await tempDir();
    const hooks = [
      { name: 'workspace-relative', event: 'pre_tool_use', command: ['node', 'hooks/guard'], sha256: ZEROS },
      { name: 'module', event: 'pre_tool_use', command: ['python3', '-m', 'guard'], sha256: ZEROS },
      { name: 'inline', event: 'pre_tool_use', command: ['/usr/bin/env', 'node', '-e', 'process.exit(0)'], sha256: ZEROS },
    ];
    const config = parseConfig({ hook_schema: 1, hooks }, `${dir}/hooks.json`);
    for (const hook of config.hooks) {
      const target = await pinTarget(hook);
      expect(target, hook.name).toHaveProperty('none');
      expect((target as { none: string }).none).toContain('pin_files');
      // Never the interpreter in its place.
      const only = parseConfig({ hook_schema: 1, hooks: [hook] }, `${dir}/hooks.json`);
      const error = await rejection(createRunner(only));
      expect((error as HookError).code, hook.name).toBe('load_failed');
      expect((error as HookError).message).toContain('no file of its own');
    }
    const report = await checkConfig(config);
    expect(report.hooks.map((h) => [h.ok, h.ok ? undefined : h.code, 'unpinnable' in h, h.pinned])).toEqual(hooks.map(() => [false, 'load_failed', true, true]));
    const written = `${dir}/hooks.json`;
    await writeFile(written, JSON.stringify({ hook_schema: 1, hooks: hooks.map(({ sha256: _s, ...h }) => h) }));
    const pinned = await pinConfig(written);
    expect(pinned.pinned).toEqual([]);
    expect(pinned.skipped.map((s) => s.name)).toEqual(hooks.map((h) => h.name));
  });

  it('pin_files: exactly those files, beside the config, in order; the digest of their digests; a change to any of them is a mismatch', async () => {
    const dir = await tempDir();
    await shHook(dir, 'pkg/guard/__main__.py', 'print("{}")');
    await shHook(dir, 'pkg/guard/rules.py', 'RULES = []');
    const files = [path.join(dir, 'pkg/guard/__main__.py'), path.join(dir, 'pkg/guard/rules.py')];
    const digests = await Promise.all(files.map(sha256));
    const combined = createHash('sha256').update(digests.map((d) => `${d}\n`).join('')).digest('hex');
    const hook = { name: 'm', event: 'pre_tool_use', command: ['python3', '-m', 'guard'], pin_files: ['pkg/guard/__main__.py', 'pkg/guard/rules.py'] };
    const config = parseConfig({ hook_schema: 1, hooks: [hook] }, `${dir}/hooks.json`);
    const target = await pinTarget(config.hooks[0]!);
    expect(target).toEqual({ files, uncovered: [expect.stringMatching(/python3 \(the interpreter\)$/) as unknown] });
    expect(await hookDigest(config.hooks[0]!)).toMatchObject({ files, sha256: combined });
    // The order is part of the pin.
    const reversed = parseConfig({ hook_schema: 1, hooks: [{ ...hook, pin_files: [...hook.pin_files].reverse() }] }, `${dir}/hooks.json`);
    expect((await hookDigest(reversed.hooks[0]!)) as { sha256: string }).not.toMatchObject({ sha256: combined });
    // Pinned, then the second file (one the command line never names) changes: refused.
    const pinnedConfig = parseConfig({ hook_schema: 1, hooks: [{ ...hook, sha256: combined }] }, `${dir}/hooks.json`);
    const report = await checkConfig(pinnedConfig);
    expect(report.hooks[0]).toMatchObject({ files, sha256: combined, pinned: true });
    await writeFile(files[1]!, 'RULES = ["changed"]\n');
    const error = await rejection(createRunner(pinnedConfig));
    expect((error as HookError).code).toBe('load_failed');
    expect((error as HookError).message).toContain(files[1]!);
    // A shell string may carry a pin once it lists its files.
    expect(() => parseConfig({ hook_schema: 1, hooks: [{ name: 's', event: 'pre_tool_use', command: 'python3 -m guard', pin_files: ['pkg/guard/rules.py'], sha256: ZEROS }] }, `${dir}/hooks.json`)).not.toThrow();
  });

  it('property: whatever the argv, a pin never covers an interpreter in place of the hook\'s own file', async () => {
    const dir = await tempDir();
    const script = await shHook(dir, 'hooks/guard.py', 'print("{}")');
    const interpreters = ['node', 'python3', 'python3.12', '/usr/bin/env', 'sh', '/bin/bash', 'npx', 'uv', 'deno', 'ruby'];
    const args = fc.constantFrom('-m', '-e', '--flag', 'run', 'x.py', 'hooks/missing.py', '/nonexistent/guard.py', script, '/etc/hostname', 'python3');
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...interpreters), fc.array(args, { maxLength: 5 }), async (program, rest) => {
        const target = await pinTarget({ name: 'h', event: 'pre_tool_use', on_failure: 'deny', command: [program, ...rest] });
        const firstFile = rest.find((a) => a === script || a === '/etc/hostname');
        if (firstFile === undefined) {
          expect(target).toHaveProperty('none');
        } else {
          expect(target).toMatchObject({ files: [firstFile] });
          for (const file of (target as unknown as { files: string[] }).files) expect(isInterpreter(file)).toBe(false);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('a shell command string cannot carry a sha256: the config says so at its path', () => {
    let error: unknown;
    try {
      parseConfig({ hook_schema: 1, hooks: [{ name: 's', event: 'pre_tool_use', command: 'sh x.sh', sha256: ZEROS }] }, 'hooks.json');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).issues.map((i) => i.path)).toEqual(['hooks[0].sha256']);
  });

  it('a sha256 must be 64 hex digits', () => {
    expect(() => parseConfig({ hook_schema: 1, hooks: [{ name: 'a', event: 'pre_tool_use', component: 'a.wasm', sha256: 'abc' }] }, 'hooks.json')).toThrow(ConfigError);
  });
});

describe('pinned hooks', () => {
  it('a component whose file matches its pin loads and runs (the digest may be upper case)', async () => {
    const dir = await tempDir();
    const digest = (await sha256(watBehaviour('deny'))).toUpperCase();
    const config = parseConfig({ hook_schema: 1, hooks: [{ name: 'deny', event: 'pre_tool_use', component: watBehaviour('deny'), sha256: digest }] }, `${dir}/hooks.json`);
    const r = await createRunner(config, { cache_dir: TEST_CACHE_DIR });
    runners.push(r);
    expect((await r.pre(preCall('c1', 'x'))).decision).toBe('deny');
  });

  it('a component whose file differs fails to load (load_failed) before any call, naming both digests', async () => {
    const dir = await tempDir();
    const actual = await sha256(watBehaviour('allow'));
    const config = parseConfig({ hook_schema: 1, hooks: [{ name: 'allow', event: 'pre_tool_use', component: watBehaviour('allow'), sha256: ZEROS }] }, `${dir}/hooks.json`);
    const error = await rejection(createRunner(config, { cache_dir: TEST_CACHE_DIR }));
    expect(error).toBeInstanceOf(HookError);
    expect((error as HookError).code).toBe('load_failed');
    expect((error as HookError).message).toContain(actual);
    expect((error as HookError).message).toContain(ZEROS);
    const report = await checkConfig(config, { cache_dir: TEST_CACHE_DIR });
    expect(report.hooks[0]).toMatchObject({ ok: false, code: 'load_failed', sha256: actual, pinned: true });
  });

  it('a command whose script differs fails to start; one swapped after the start fails every call (load_failed), under its on_failure', async () => {
    const dir = await tempDir();
    const script = await shHook(dir, 'hooks/allow.sh', answerBody({ decision: 'allow' }));
    const good = await sha256(script);
    const bad = parseConfig({ hook_schema: 1, hooks: [{ name: 'a', event: 'pre_tool_use', command: ['sh', 'hooks/allow.sh'], sha256: ZEROS }] }, `${dir}/hooks.json`);
    expect((await checkConfig(bad)).hooks[0]).toMatchObject({ ok: false, code: 'load_failed', sha256: good });
    const refused = await rejection(createRunner(bad));
    expect((refused as HookError).code).toBe('load_failed');
    expect((refused as HookError).message).toContain(good);

    const config = parseConfig(
      {
        hook_schema: 1,
        hooks: [
          { name: 'closed', event: 'pre_tool_use', command: ['sh', 'hooks/allow.sh'], sha256: good },
          { name: 'open', event: 'post_tool_use', on_failure: 'allow', command: ['sh', 'hooks/allow.sh'], sha256: good },
        ],
      },
      `${dir}/hooks.json`,
    );
    expect((await checkConfig(config)).ok).toBe(true);
    const r = await createRunner(config);
    runners.push(r);
    expect((await r.pre(preCall('c1', 'x'))).decision).toBe('allow');
    // Someone rewrites the script after the runner started: it is refused, not run.
    await writeFile(script, `#!/bin/sh\n${answerBody({ decision: 'allow', reason: 'rewritten' })}\n`);
    const denied = await r.pre(preCall('c2', 'x'));
    expect(denied.decision).toBe('deny');
    expect(denied.trail[0]?.failure?.code).toBe('load_failed');
    expect(denied.trail[0]?.failure?.message).toContain(good);
    const skipped = await r.run({ event: 'post_tool_use', workspace: '/repo', agent_id: 'a', tool_call_id: 'c3', tool_name: 'shell', input: 'x', output: 'y', is_error: false });
    expect(skipped).toMatchObject({ decision: 'allow', output: 'y', trail: [{ hook: 'open', failure: { code: 'load_failed' }, policy: 'allow' }] });
  });
});

describe('pinConfig: a minimal edit of the config text', () => {
  const styles: Record<string, (hooks: unknown[]) => string> = {
    'two spaces': (hooks) => `${JSON.stringify({ hook_schema: 1, hooks }, null, 2)}\n`,
    'four spaces': (hooks) => JSON.stringify({ hook_schema: 1, hooks }, null, 4),
    tabs: (hooks) => `${JSON.stringify({ hook_schema: 1, hooks }, null, '\t')}\n`,
    compact: (hooks) => JSON.stringify({ hook_schema: 1, hooks }),
    'CRLF with a BOM': (hooks) => `\uFEFF${JSON.stringify({ hook_schema: 1, hooks }, null, 2).replace(/\n/g, '\r\n')}\r\n`,
    'one hook per line, odd spacing': (hooks) =>
      `{ "hook_schema" : 1 ,\n"hooks":[\n${hooks.map((h) => `   ${JSON.stringify(h).replace(/,/g, ' ,  ').replace(/:/g, ' :')}`).join(',\n')}\n  ]   }\n\n`,
  };

  for (const [style, render] of Object.entries(styles)) {
    it(`keeps everything but the sha256 members byte for byte (${style})`, async () => {
      const dir = await tempDir();
      await copyFile(watBehaviour('allow'), `${dir}/allow.wasm`);
      await shHook(dir, 'hooks/guard.sh', answerBody({ decision: 'allow' }));
      const hooks = [
        { name: 'wasm', event: 'pre_tool_use', component: 'allow.wasm', timeout_ms: 500 },
        { name: 'script', event: 'pre_tool_use', tools: ['shell', 'mcp__*'], command: ['sh', 'hooks/guard.sh'], sha256: ZEROS },
        { name: 'shell', event: 'post_tool_use', command: 'cat >/dev/null; echo \'{"decision":"allow"}\'' },
      ];
      const file = `${dir}/hooks.json`;
      const before = render(hooks);
      await writeFile(file, before);
      const report = await pinConfig(file);
      const after = await readFile(file, 'utf8');
      const wasm = await sha256(`${dir}/allow.wasm`);
      const script = await sha256(`${dir}/hooks/guard.sh`);
      expect(report.pinned.map((p) => [p.name, p.action, p.sha256])).toEqual([
        ['wasm', 'added', wasm],
        ['script', 'updated', script],
      ]);
      expect(report.skipped.map((s) => s.name)).toEqual(['shell']);
      // Removing the added member and restoring the old digest gives back the original text exactly.
      const added = /(\s*,\s*"sha256"\s*:\s*"[0-9a-f]{64}")/.exec(after)?.[1] ?? '';
      expect(after.replace(added, '').replace(script, ZEROS)).toBe(before);
      const parsed = JSON.parse(after.replace(/^\uFEFF/, '')) as { hooks: Array<Record<string, unknown>> };
      expect(Object.keys(parsed.hooks[0] ?? {})).toEqual(['name', 'event', 'component', 'timeout_ms', 'sha256']);
      expect(parsed.hooks[1]?.['sha256']).toBe(script);
      expect(parsed.hooks[2]).not.toHaveProperty('sha256');
      // Pinned, the config loads; pinning again changes nothing.
      expect((await checkConfig(parseConfig(parsed, file), { cache_dir: TEST_CACHE_DIR })).ok).toBe(true);
      expect((await pinConfig(file)).written).toBe(false);
      expect(await readFile(file, 'utf8')).toBe(after);
    });
  }

  it('inserts after the last member the way the object writes its members (one member, on one line or several)', () => {
    const h = 'a'.repeat(64);
    expect(pinConfigText('{"hooks":[{"name":"x"}]}', new Map([[0, h]])).text).toBe(`{"hooks":[{"name":"x","sha256":"${h}"}]}`);
    expect(pinConfigText('{"hooks":[{ "name": "x" }]}', new Map([[0, h]])).text).toBe(`{"hooks":[{ "name": "x", "sha256": "${h}" }]}`);
    expect(pinConfigText('{"hooks":[{\n      "name" : "x"\n    }]}', new Map([[0, h]])).text).toBe(`{"hooks":[{\n      "name" : "x",\n      "sha256" : "${h}"\n    }]}`);
  });

  it('writes nothing when a hook file cannot be read', async () => {
    const dir = await tempDir();
    const file = `${dir}/hooks.json`;
    const text = JSON.stringify({ hook_schema: 1, hooks: [{ name: 'gone', event: 'pre_tool_use', component: 'missing.wasm' }] });
    await writeFile(file, text);
    const error = await rejection(pinConfig(file));
    expect((error as HookError).code).toBe('load_failed');
    expect(await readFile(file, 'utf8')).toBe(text);
  });
});
