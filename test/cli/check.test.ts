import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { answer, runCli, writeConfig } from './cli.js';
import { tempDir } from '../helpers/temp.js';

describe('basis-hooks check', () => {
  it('exits 0 and prints ok for each hook when every hook can start', async () => {
    const dir = await tempDir();
    const config = await writeConfig(dir, [
      { name: 'guard', event: 'pre_tool_use', command: answer({ decision: 'allow' }) },
      { name: 'shell-form', event: 'post_tool_use', command: 'cat >/dev/null; echo \'{"decision":"allow"}\'' },
    ]);
    const result = await runCli(['check', '--config', config]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout.split('\n').filter(Boolean)).toEqual([expect.stringMatching(/^ok\s+guard\s/), expect.stringMatching(/^ok\s+shell-form\s/)]);
  });

  it('exits 2 and names the code and program of a hook that cannot start', async () => {
    const dir = await tempDir();
    const config = await writeConfig(dir, [
      { name: 'guard', event: 'pre_tool_use', command: answer({ decision: 'allow' }) },
      { name: 'ghost', event: 'pre_tool_use', command: ['basis-hooks-no-such-program-xyz'] },
    ]);
    const result = await runCli(['check', '--config', config]);
    expect(result.code).toBe(2);
    const lines = result.stdout.split('\n').filter(Boolean);
    expect(lines[0]).toMatch(/^ok\s+guard/);
    expect(lines[1]).toMatch(/^FAIL\s+ghost\s.*spawn_failed: .*basis-hooks-no-such-program-xyz/);
  });

  it('says exactly which files a pin covers and what runs uncovered; a pinned hook with no file of its own fails (exit 2)', async () => {
    const dir = await tempDir();
    const config = await writeConfig(dir, [
      { name: 'guard', event: 'pre_tool_use', command: answer({ decision: 'allow' }) },
      { name: 'module', event: 'pre_tool_use', command: ['python3', '-m', 'guard'], sha256: '0'.repeat(64) },
    ]);
    const result = await runCli(['check', '--config', config]);
    expect(result.code).toBe(2);
    const lines = result.stdout.split('\n').filter(Boolean);
    expect(lines[0]).toMatch(new RegExp(`^ok\\s+guard\\s.*sha256 [0-9a-f]{64}, covers ${path.join(dir, 'hooks/answer.mjs')}; not covered: \\S*node \\(the interpreter\\)$`));
    expect(lines[1]).toMatch(/^FAIL\s+module\s.*load_failed: .*no file of its own/);
    expect(result.stdout).toContain('pinned, but not pinnable');
  });

  it('--json prints the report as one object', async () => {
    const dir = await tempDir();
    const config = await writeConfig(dir, [
      { name: 'guard', event: 'pre_tool_use', command: answer({ decision: 'allow' }) },
      { name: 'ghost', event: 'pre_tool_use', command: ['basis-hooks-no-such-program-xyz'] },
    ]);
    const result = await runCli(['check', '--config', config, '--json']);
    expect(result.code).toBe(2);
    expect(JSON.parse(result.stdout)).toEqual({
      ok: false,
      hooks: [
        // node's script is what a pin covers; a program not on PATH has nothing to pin.
        {
          name: 'guard',
          kind: 'command',
          ok: true,
          files: [path.join(dir, 'hooks/answer.mjs')],
          uncovered: [expect.stringMatching(/node \(the interpreter\)$/) as unknown],
          sha256: expect.stringMatching(/^[0-9a-f]{64}$/) as unknown,
          pinned: false,
        },
        {
          name: 'ghost',
          kind: 'command',
          ok: false,
          code: 'spawn_failed',
          message: expect.stringContaining('basis-hooks-no-such-program-xyz') as unknown,
          unpinnable: expect.stringContaining('not an executable file on PATH') as unknown,
          pinned: false,
        },
      ],
    });
  });

  it('exits 2 for an invalid config, with nothing on stdout', async () => {
    const dir = await tempDir();
    const config = await writeConfig(dir, [{ name: 'a', event: 'pre_tool_use' }]);
    const result = await runCli(['check', '--config', config]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('hooks[0]: exactly one of "command", "component", "cedar" or "cel" is required (found none)');
  });

  it('fails for a misspelled script or program, naming it and the config (exit 2); ok once fixed', async () => {
    const dir = await tempDir();
    const config = await writeConfig(dir, [
      { name: 'guard', event: 'pre_tool_use', command: ['node', 'hooks/answr.mjs', '{}'] },
      { name: 'shell', event: 'pre_tool_use', command: 'ndoe hooks/answer.mjs {}' },
    ]);
    const result = await runCli(['check', '--config', config]);
    expect(result.code).toBe(2);
    expect(result.stdout).toContain('"hooks/answr.mjs"');
    expect(result.stdout).toContain(path.join(dir, 'hooks/answr.mjs'));
    expect(result.stdout).toContain('"hooks/answer.mjs"'); // what was probably meant
    expect(result.stdout).toContain('"ndoe"');
    expect(result.stdout).toContain(`${config}: 2 of 2 hook(s) cannot start`);

    const fixed = await writeConfig(dir, [
      { name: 'guard', event: 'pre_tool_use', command: ['node', 'hooks/answer.mjs', '{}'] },
      { name: 'shell', event: 'pre_tool_use', command: 'node "$BASIS_HOOKS_CONFIG_DIR/hooks/answer.mjs" {}' },
    ]);
    const ok = await runCli(['check', '--config', fixed]);
    expect(ok.code).toBe(0);
    expect(ok.stdout.split('\n').filter(Boolean)).toEqual([expect.stringMatching(/^ok\s+guard\s/), expect.stringMatching(/^ok\s+shell\s/)]);
  });

  it('prints warnings under the hook and still exits 0 for what cannot be checked ahead', async () => {
    const dir = await tempDir();
    const config = await writeConfig(dir, [{ name: 'relative', event: 'pre_tool_use', command: 'node hooks/answer.mjs {}' }]);
    const result = await runCli(['check', '--config', config]);
    expect(result.code).toBe(0);
    const lines = result.stdout.split('\n').filter(Boolean);
    expect(lines[0]).toMatch(/^ok\s+relative/);
    expect(lines[1]).toMatch(/^warn\s+relative/);
    expect(lines[1]).toContain('$BASIS_HOOKS_CONFIG_DIR/hooks/answer.mjs');
  });
});
