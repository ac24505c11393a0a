/**
 * `basis-hooks test` shows what a hook wrote while a case ran: a component guest's stdout and stderr
 * (captured by the sandbox) and a subprocess hook's stderr, under the case in the human report and as
 * `stdout` / `stderr` on each result with --json.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureWatGuestsBuilt, watGuest } from '../helpers/guests.js';
import { kit, scratchDir } from './kit.js';

let scratch: Awaited<ReturnType<typeof scratchDir>>;
let config: string;
let cases: string;

beforeAll(async () => {
  await ensureWatGuestsBuilt();
  scratch = await scratchDir();
  config = join(scratch.path, 'hooks.json');
  cases = join(scratch.path, 'cases.jsonl');
  await writeFile(join(scratch.path, 'chatty.sh'), 'cat >/dev/null\necho "checking the call" >&2\necho \'{"decision":"allow"}\'\n');
  await writeFile(
    config,
    JSON.stringify({
      hook_schema: 1,
      hooks: [
        // A WAT guest that writes a line to its stdout and one to its stderr, then allows.
        { name: 'stdio', event: 'pre_tool_use', tools: ['shell'], component: watGuest('stdio') },
        { name: 'chatty', event: 'pre_tool_use', tools: ['deploy'], command: ['sh', join(scratch.path, 'chatty.sh')] },
      ],
    }),
  );
  const call = (tool: string): Record<string, unknown> => ({ event: 'pre_tool_use', workspace: '/repo', agent_id: 'a', tool_call_id: 'c1', tool_name: tool, input: { command: 'ls' } });
  await writeFile(
    cases,
    [
      { name: 'the guest logs and allows', hook: 'stdio', call: call('shell'), expect: { decision: 'allow' } },
      { name: 'the command logs and allows', hook: 'chatty', call: call('deploy'), expect: { decision: 'allow' } },
    ]
      .map((c) => `${JSON.stringify(c)}\n`)
      .join(''),
  );
}, 300_000);

afterAll(async () => {
  await scratch?.dispose();
});

describe('basis-hooks test: what the hook wrote', () => {
  it('shows each stream under its case', async () => {
    const result = await kit(['test', '--config', config, '--cases', cases]);
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout.split('\n');
    const guest = lines.findIndex((l) => l.includes('ok    the guest logs and allows'));
    expect(lines.slice(guest + 1, guest + 3)).toEqual(["        stdout | hello from the guest's stdout", "        stderr | hello from the guest's stderr"]);
    const command = lines.findIndex((l) => l.includes('ok    the command logs and allows'));
    expect(lines[command + 1]).toBe('        stderr | checking the call');
  });

  it('carries them on each result with --json', async () => {
    const result = await kit(['test', '--config', config, '--cases', cases, '--json']);
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as { results: Array<{ name: string; stdout?: string; stderr?: string }> };
    expect(report.results.map(({ name, stdout, stderr }) => ({ name, stdout, stderr }))).toEqual([
      { name: 'the guest logs and allows', stdout: "hello from the guest's stdout\n", stderr: "hello from the guest's stderr\n" },
      { name: 'the command logs and allows', stdout: undefined, stderr: 'checking the call\n' },
    ]);
  });
});
