import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkConfig, loadConfig } from '../../host/config/index.js';
import { shellWords } from '../../host/config/shell-words.js';
import { tempDir, writeFiles } from '../helpers/temp.js';

/** Write a config of `hooks` (and a few scripts) into a fresh directory and check it. */
async function check(hooks: readonly Record<string, unknown>[]) {
  const dir = await tempDir();
  await writeFiles(dir, {
    'hooks/guard.mjs': 'console.log("{}");\n',
    'hooks/run.sh': '#!/bin/sh\necho "{}"\n',
    'hooks.json': JSON.stringify({ hook_schema: 1, hooks }),
  });
  const config = await loadConfig(path.join(dir, 'hooks.json'));
  return { dir, report: await checkConfig(config) };
}

const hook = (name: string, command: unknown) => ({ name, event: 'pre_tool_use', command });

describe('check: the program and script files a command names', () => {
  it('a misspelled script in argv fails, naming the file, where it was looked for and the likely one', async () => {
    const { dir, report } = await check([hook('guard', ['node', 'hooks/gaurd.mjs'])]);
    expect(report.ok).toBe(false);
    const [result] = report.hooks;
    expect(result).toMatchObject({ name: 'guard', ok: false, code: 'spawn_failed' });
    const message = result?.ok === false ? result.message : '';
    expect(message).toContain('"hooks/gaurd.mjs"');
    expect(message).toContain(path.join(dir, 'hooks/gaurd.mjs'));
    expect(message).toContain('"hooks/guard.mjs"');
  });

  it('a misspelled program in a shell string fails, naming it and the likely one on PATH', async () => {
    const { report } = await check([hook('guard', 'ndoe hooks/guard.mjs')]);
    const [result] = report.hooks;
    expect(result).toMatchObject({ ok: false, code: 'spawn_failed' });
    const message = result?.ok === false ? result.message : '';
    expect(message).toContain('"ndoe"');
    expect(message).toContain('PATH');
    expect(message).toContain('"node"');
  });

  it('a correct config is ok, scripts found beside the config from any cwd', async () => {
    const { report } = await check([
      hook('argv', ['node', 'hooks/guard.mjs']),
      hook('script', ['./hooks/run.sh']),
      hook('shell', 'exec node "$BASIS_HOOKS_CONFIG_DIR/hooks/guard.mjs" --strict'),
      hook('flags', ['node', '--no-warnings', '-e', 'process.stdout.write("{}")']),
      hook('json-arg', ['sh', 'hooks/run.sh', '{"decision":"allow"}']),
    ]);
    expect(report.hooks.map((h) => [h.name, h.ok, h.warnings])).toEqual([
      ['argv', true, undefined],
      ['script', true, undefined],
      ['shell', true, undefined],
      ['flags', true, undefined],
      ['json-arg', true, undefined],
    ]);
    expect(report.ok).toBe(true);
  });

  it('an absolute script path that does not exist fails, in argv and in a shell string', async () => {
    const { dir, report } = await check([hook('argv', ['sh', '/nonexistent/basis-hooks/x.sh']), hook('shell', `sh "${'$'}BASIS_HOOKS_CONFIG_DIR/hooks/rnu.sh"`)]);
    expect(report.hooks.map((h) => (h.ok ? 'ok' : h.code))).toEqual(['spawn_failed', 'spawn_failed']);
    const shell = report.hooks[1];
    expect(shell?.ok === false && shell.message).toContain(path.join(dir, 'hooks/rnu.sh'));
  });

  it('what cannot be known before a call is a warning, not a failure', async () => {
    const { report } = await check([
      hook('ref', ['git', 'log', 'origin/main']), // a slash, no extension: maybe a path
      hook('relative-shell', 'node hooks/guard.mjs'), // runs in the call's workspace
      hook('pipeline', 'cat | node "$BASIS_HOOKS_CONFIG_DIR/hooks/guard.mjs"'),
      hook('substitution', '$(command -v python3) x.py'),
    ]);
    expect(report.hooks.map((h) => h.ok)).toEqual([true, true, true, true]);
    expect(report.hooks[0]?.warnings?.[0]).toContain('"origin/main"');
    expect(report.hooks[1]?.warnings?.[0]).toContain('$BASIS_HOOKS_CONFIG_DIR/hooks/guard.mjs');
    expect(report.hooks[2]?.warnings).toBeUndefined(); // its first program, cat, was checked
    expect(report.hooks[3]?.warnings?.[0]).toContain('$(');
  });

  it('a pipeline still fails when its first program is missing; an unterminated quote always fails', async () => {
    const { report } = await check([hook('pipe', 'ndoe x.py | cat'), hook('quote', `echo '{"decision":"allow"}`)]);
    expect(report.hooks.map((h) => (h.ok ? 'ok' : h.code))).toEqual(['spawn_failed', 'spawn_failed']);
  });
});

describe('shellWords', () => {
  it('splits words, removes quotes, expands known variables and stops at what only a shell knows', () => {
    expect(shellWords(`node "$D/a b.py" '$x' c\\ d # note`, { D: '/h' })).toEqual({ words: ['node', '/h/a b.py', '$x', 'c d'] });
    expect(shellWords('A=1 exec node ${D}/x.mjs', { D: '/h' })).toEqual({ words: ['A=1', 'exec', 'node', '/h/x.mjs'] });
    expect(shellWords('cat x | jq .', {})).toEqual({ words: ['cat', 'x'], stopped: '|' });
    expect(shellWords('node $UNSET/x.mjs', {})).toEqual({ words: ['node'], stopped: '$UNSET (unset)' });
    expect(shellWords('$(which node) x', {})).toEqual({ words: [], stopped: '$(' });
    expect(shellWords('ls *.py', {})).toEqual({ words: ['ls'], stopped: '*' });
    expect(shellWords('echo "x', {})).toMatchObject({ broken: 'an unterminated double quote' });
  });
});
