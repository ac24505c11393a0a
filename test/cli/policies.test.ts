/**
 * The CLI with policy hooks, as a user runs it (dist/cli/main.js): `init --lang cedar|cel` then
 * `test <dir>` (nothing to build), `check` naming a bad policy's file, line and column with nothing
 * run, `check --cases`, and `explain` saying for one call each hook's decision and why.
 */
import path from 'node:path';
import { writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { tempDir, writeFiles } from '../helpers/temp.js';
import { runCli } from './cli.js';

const POLICY = '@id("no-force-push")\n@reason("no force-push")\nforbid (principal, action == Action::"shell", resource) when { context.input.command like "*--force*" };\npermit (principal, action, resource);\n';
const FORCE = { event: 'pre_tool_use', workspace: '/repo', agent_id: 'agent-1', tool_call_id: 'c1', tool_name: 'shell', input: { command: 'git push --force' } };

describe('basis-hooks with policy hooks', () => {
  for (const lang of ['cedar', 'cel'] as const) {
    for (const event of ['pre_tool_use', 'post_tool_use'] as const) {
      it(`init --lang ${lang} --event ${event} writes a starter whose cases pass with test <dir>; build says there is nothing to build`, async () => {
        const dir = path.join(await tempDir(), 'guard');
        const init = await runCli(['init', dir, '--lang', lang, '--event', event]);
        expect(init.code, init.stderr).toBe(0);
        expect(init.stdout).toContain('nothing to build');
        const test = await runCli(['test', dir]);
        expect(test.code, test.stdout + test.stderr).toBe(0);
        expect(test.stdout).toMatch(/\d+ passed, 0 failed/);
        const check = await runCli(['check', '--config', path.join(dir, 'hooks.json'), '--cases', path.join(dir, 'cases.jsonl')]);
        expect(check.code, check.stdout).toBe(0);
        const build = await runCli(['build', dir]);
        expect(build.code).toBe(2);
        expect(build.stderr).toContain('there is nothing to build');
      });
    }
  }

  it('check refuses a bad policy before anything runs, naming the file, line and column; a bad CEL rule naming the rule and column', async () => {
    const dir = await tempDir();
    await writeFiles(dir, { 'bad.cedar': 'permit (principal, action, resource);\n\nforbid (principal, action resource);\n' });
    await writeFile(
      path.join(dir, 'hooks.json'),
      JSON.stringify({
        hook_schema: 1,
        hooks: [
          { name: 'cedar', event: 'pre_tool_use', cedar: 'bad.cedar' },
          { name: 'cel', event: 'pre_tool_use', cel: [{ when: 'true', decision: 'allow' }, { when: "tool_name.matches('(a)\\\\1')", decision: 'deny', reason: 'x' }] },
        ],
      }),
    );
    const check = await runCli(['check', '--config', path.join(dir, 'hooks.json')]);
    expect(check.code).toBe(2);
    expect(check.stdout).toMatch(/FAIL {2}cedar .*load_failed: hook "cedar": .*bad\.cedar: the policy set does not parse\n {6}.*bad\.cedar:3:\d+: /);
    expect(check.stdout).toMatch(/FAIL {2}cel .*load_failed: hook "cel": cel\[1\]\.when, column 19: matches: .* cannot run in linear time/);
    const run = await runCli(['run', '--config', path.join(dir, 'hooks.json')], { stdin: JSON.stringify(FORCE) });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
  });

  it('explain: each hook\'s decision and why (the Cedar policy, the CEL rule, the code hook\'s reason, why one did not run)', async () => {
    const dir = await tempDir();
    await writeFiles(dir, { 'tools.cedar': POLICY, 'hooks/audit.sh': 'cat >/dev/null; echo \'{"decision":"allow"}\'\n' });
    const config = path.join(dir, 'hooks.json');
    await writeFile(
      config,
      JSON.stringify({
        hook_schema: 1,
        hooks: [
          { name: 'audit', event: 'pre_tool_use', command: ['sh', 'hooks/audit.sh'] },
          { name: 'rules', event: 'pre_tool_use', cel: [{ when: "input.command.startsWith('sudo')", decision: 'deny', reason: 'no sudo' }] },
          { name: 'tools', event: 'pre_tool_use', cedar: 'tools.cedar' },
          { name: 'later', event: 'pre_tool_use', when: "agent_id == 'x'", cel: [{ when: 'true', decision: 'allow' }] },
          { name: 'redact', event: 'post_tool_use', cel: [{ when: 'is_error', decision: 'deny', reason: 'hidden' }] },
        ],
      }),
    );
    const text = await runCli(['explain', '--config', config], { stdin: JSON.stringify(FORCE) });
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain('basis-hooks explain: c1 at pre_tool_use → deny: no force-push');
    expect(text.stdout).toContain('1. audit (command): allow — allowed (an allow carries no reason)');
    expect(text.stdout).toContain('2. rules (cel): allow — allowed (an allow carries no reason)');
    expect(text.stdout).toContain('no rule matched: allow');
    expect(text.stdout).toContain('3. tools (cedar): deny — no force-push');
    expect(text.stdout).toMatch(/no-force-push \(forbid, determining\) at .*tools\.cedar:1:1 — no force-push/);
    expect(text.stdout).toContain('4. later (cel): not run — the chain was denied by "tools" before its turn');
    expect(text.stdout).toContain('5. redact (cel): not run — runs at post_tool_use');
    const json = await runCli(['explain', '--config', config, '--json'], { stdin: JSON.stringify({ ...FORCE, input: { command: 'ls' } }) });
    const report = JSON.parse(json.stdout) as { outcome: { decision: string }; hooks: Array<{ name: string; status: string }> };
    expect(report.outcome.decision).toBe('allow');
    expect(report.hooks.map((h) => [h.name, h.status])).toEqual([['audit', 'decided'], ['rules', 'decided'], ['tools', 'decided'], ['later', 'when_false'], ['redact', 'other_event']]);
    const bad = await runCli(['explain', '--config', config], { stdin: '{"event":"pre_tool_use"}' });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('invalid call');
  });
});
