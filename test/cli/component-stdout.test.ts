/**
 * A sandboxed guest's stdout and stderr never reach the CLI's stdout (which carries only outcome
 * JSON) nor its stderr: they are captured and land in the trail.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { Outcome } from '../../host/index.js';
import { ensureGuestsBuilt, watGuest } from '../helpers/guests.js';
import { tempDir } from '../helpers/temp.js';
import { jsonLines, runCli } from './cli.js';

beforeAll(() => ensureGuestsBuilt('wat', [watGuest('stdio')]), 300_000);

describe('basis-hooks run with a guest that writes to stdout and stderr', () => {
  it('prints exactly the outcome lines; the guest output is in the trail only', async () => {
    const dir = await tempDir();
    const config = path.join(dir, 'hooks.json');
    await writeFile(
      config,
      JSON.stringify({ hook_schema: 1, hooks: [{ name: 'noisy', event: 'pre_tool_use', component: watGuest('stdio') }] }),
    );
    const call = { event: 'pre_tool_use', workspace: dir, agent_id: 'a', tool_call_id: 'c1', tool_name: 'shell', input: { command: 'ls' } };
    const result = await runCli(['run', '--config', config], { stdin: `${JSON.stringify(call)}\n${JSON.stringify({ ...call, tool_call_id: 'c2' })}\n` });
    expect(result.code).toBe(0);
    const lines = jsonLines(result.stdout);
    expect(lines).toHaveLength(2);
    expect(result.stdout.split('\n')).toHaveLength(3); // two JSON lines and the final newline: nothing else
    expect(result.stderr).not.toContain('hello from the guest');
    for (const line of lines) {
      // Every stdout line is an outcome: the trail's strings are JSON-escaped inside it.
      const outcome = Outcome.parse(line);
      const entry = outcome.trail[0];
      expect(entry?.hook).toBe('noisy');
      expect(entry?.stdout).toContain("hello from the guest's stdout");
      expect(entry?.stderr).toContain("hello from the guest's stderr");
    }
  });
});
