import { existsSync } from 'node:fs';
import { chmod } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkConfig, createRunner, loadConfig, parseConfig } from '../../host/config/index.js';
import type { HookCall } from '../../host/contract/call.js';
import { ConfigError } from '../../host/errors/config-error.js';
import { HookError } from '../../host/errors/hook-error.js';
import { tempDir, writeFiles } from '../helpers/temp.js';

/** A pre hook that appends its argument to `input.tags` (and the config dir it was told about). */
const TAG_HOOK = `
import { readFileSync } from 'node:fs';
const request = JSON.parse(readFileSync(0, 'utf8'));
const tags = [...request.input.tags, process.argv[2]];
const dirs = [...(request.input.dirs ?? []), process.env.BASIS_HOOKS_CONFIG_DIR];
process.stdout.write(JSON.stringify({ decision: 'modify', input: { tags, dirs } }));
`;

const call: HookCall = {
  event: 'pre_tool_use',
  workspace: '/nonexistent-workspace',
  agent_id: 'agent-1',
  tool_call_id: 'call-1',
  tool_name: 'shell',
  input: { tags: [] },
};

describe('createRunner', () => {
  it('builds command hooks in declared order, finding scripts next to the config from any cwd', async () => {
    const dir = await tempDir();
    await writeFiles(dir, {
      'hooks/tag.mjs': TAG_HOOK,
      'hooks.json': JSON.stringify({
        hook_schema: 1,
        hooks: [
          { name: 'first', event: 'pre_tool_use', command: ['node', 'hooks/tag.mjs', 'first'] },
          { name: 'second', event: 'pre_tool_use', command: 'node "$BASIS_HOOKS_CONFIG_DIR/hooks/tag.mjs" second' },
          { name: 'post-only', event: 'post_tool_use', command: ['node', 'hooks/tag.mjs', 'never'] },
        ],
      }),
    });
    // The process cwd is not the config dir: resolution must not depend on it.
    expect(process.cwd()).not.toBe(dir);
    const runner = await createRunner(await loadConfig(path.join(dir, 'hooks.json')));
    try {
      expect(runner.hooks.map((h) => h.name)).toEqual(['first', 'second', 'post-only']);
      const outcome = await runner.run(call);
      expect(outcome).toMatchObject({ decision: 'allow', modified: true, input: { tags: ['first', 'second'], dirs: [dir, dir] } });
      expect(outcome.trail.map((t) => [t.hook, t.decision])).toEqual([
        ['first', 'modify'],
        ['second', 'modify'],
      ]);
    } finally {
      await runner.close();
    }
  });

  it('carries each hook\'s failure policy and limits to its transport', async () => {
    const dir = await tempDir();
    await writeFiles(dir, { 'slow.sh': 'cat >/dev/null; sleep 5; echo \'{"decision":"allow"}\'\n' });
    const config = parseConfig(
      {
        hook_schema: 1,
        hooks: [
          { name: 'slow-open', event: 'pre_tool_use', command: ['sh', './slow.sh'], timeout_ms: 200, on_failure: 'allow' },
          { name: 'slow-closed', event: 'pre_tool_use', command: ['sh', './slow.sh'], timeout_ms: 200 },
        ],
      },
      path.join(dir, 'hooks.json'),
    );
    const runner = await createRunner(config);
    try {
      const outcome = await runner.run(call);
      expect(outcome.decision).toBe('deny');
      expect(outcome.trail.map((t) => [t.hook, t.failure?.code, t.policy])).toEqual([
        ['slow-open', 'timeout', 'allow'],
        ['slow-closed', 'timeout', 'deny'],
      ]);
    } finally {
      await runner.close();
    }
  });

  it('builds component hooks from their entries and loads them before returning', async () => {
    // Example guests from guest-examples/ (built by `npm run build-guests`, part of `pretest`).
    const guests = path.resolve('guest-examples/assemblyscript/build');
    const missing = ['guard.wasm', 'redact.wasm'].filter((name) => !existsSync(path.join(guests, name)));
    expect(missing, `run "npm run build-guests" first (missing in ${guests})`).toEqual([]);
    const cache = await tempDir();
    const config = parseConfig(
      {
        hook_schema: 1,
        hooks: [
          { name: 'guard', event: 'pre_tool_use', tools: ['shell'], component: path.join(guests, 'guard.wasm'), timeout_ms: 5000, memory_mb: 16 },
          { name: 'redact', event: 'post_tool_use', component: path.join(guests, 'redact.wasm'), max_output_bytes: 65536, grants: { env: { MODE: 'strict' } } },
        ],
      },
      path.join(cache, 'hooks.json'),
    );
    const runner = await createRunner(config, { cache_dir: cache });
    try {
      const pre = await runner.run({ ...call, input: { command: 'git push --force origin feature' } });
      expect(pre).toMatchObject({ decision: 'allow', modified: true, input: { command: 'git push --force-with-lease origin feature' } });
      const post = await runner.run({ ...call, event: 'post_tool_use', input: {}, output: 'key AKIAIOSFODNN7EXAMPLE', is_error: false });
      expect(post).toMatchObject({ decision: 'allow', replaced: true, output: 'key [REDACTED]' });
      expect(post.trail.map((t) => [t.hook, t.decision])).toEqual([['redact', 'replace']]);
    } finally {
      await runner.close();
    }
  });

  it('rejects with load_failed, naming the hook, when a component cannot be loaded — before any call', async () => {
    const dir = await tempDir();
    await writeFiles(dir, { 'garbage.wasm': 'this is not WebAssembly' });
    for (const component of ['missing.wasm', 'garbage.wasm']) {
      const config = parseConfig(
        {
          hook_schema: 1,
          hooks: [
            { name: 'fine', event: 'pre_tool_use', command: ['true'] },
            { name: 'broken', event: 'post_tool_use', component },
          ],
        },
        path.join(dir, 'hooks.json'),
      );
      const error: unknown = await createRunner(config).then(
        async (runner) => {
          await runner.close();
          return undefined;
        },
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(HookError);
      expect((error as HookError).code).toBe('load_failed');
      expect((error as HookError).hook).toBe('broken');
    }
  });

  it('refuses a config object that is not valid', async () => {
    const bogus = { hook_schema: 1, hooks: [{ name: 'x', event: 'pre_tool' }] } as unknown as Parameters<typeof createRunner>[0];
    await expect(createRunner(bogus)).rejects.toBeInstanceOf(ConfigError);
  });
});

describe('checkConfig', () => {
  it('reports per hook whether it can start, in declared order, with the HookError code', async () => {
    const dir = await tempDir();
    await writeFiles(dir, { 'hooks/ok.sh': 'echo \'{"decision":"allow"}\'\n', 'hooks/not-executable.sh': 'echo\n' });
    await chmod(path.join(dir, 'hooks/not-executable.sh'), 0o644);
    const config = parseConfig(
      {
        hook_schema: 1,
        hooks: [
          { name: 'ok', event: 'pre_tool_use', command: ['hooks/ok.sh'] },
          { name: 'no-such-program', event: 'pre_tool_use', command: ['basis-hooks-no-such-program-xyz'] },
          { name: 'not-executable', event: 'pre_tool_use', command: ['hooks/not-executable.sh'] },
          { name: 'shell', event: 'pre_tool_use', command: 'echo hi' },
          { name: 'component', event: 'post_tool_use', component: 'missing.wasm' },
        ],
      },
      path.join(dir, 'hooks.json'),
    );
    const report = await checkConfig(config);
    expect(report.ok).toBe(false);
    expect(report.hooks.map((h) => [h.name, h.kind, h.ok ? 'ok' : h.code])).toEqual([
      ['ok', 'command', 'ok'],
      ['no-such-program', 'command', 'spawn_failed'],
      ['not-executable', 'command', 'spawn_failed'],
      ['shell', 'command', 'ok'],
      ['component', 'component', 'load_failed'],
    ]);
    const failed = report.hooks[1];
    expect(failed?.ok === false && failed.message).toContain('basis-hooks-no-such-program-xyz');
  });

  it('is ok when every hook can start', async () => {
    const report = await checkConfig(parseConfig({ hook_schema: 1, hooks: [{ name: 'a', event: 'pre_tool_use', command: ['node', '-e', ''] }] }, 'hooks.json'));
    // No argument names a file of the hook's own: node itself is never what a pin covers.
    expect(report).toEqual({
      ok: true,
      hooks: [{ name: 'a', kind: 'command', ok: true, unpinnable: expect.stringContaining('interpreter') as unknown, pinned: false }],
    });
  });
});
