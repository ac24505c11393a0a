import { describe, expect, it } from 'vitest';
import { subprocessTransport } from '../../../host/transports/subprocess/index.js';
import { preRequest } from './helpers.js';

describe('subprocess: command forms', () => {
  it('a string command runs through sh -c (pipes and quoting work)', async () => {
    const transport = subprocessTransport({ command: `grep -q '"tool_name":"shell"' && printf '%s\\n' '{"decision":"deny","reason":"shell via sh"}'` });
    expect(transport.kind).toBe('subprocess');
    const result = await transport.invoke(preRequest(), { hook: 'h' });
    expect(result).toMatchObject({ ok: true, response: { decision: 'deny', reason: 'shell via sh' } });
  });

  it('an argv command is spawned without a shell (no expansion of its arguments)', async () => {
    const transport = subprocessTransport({
      command: [process.execPath, '-e', 'process.stdout.write(JSON.stringify({decision:"deny",reason:process.argv[1]}))', '$HOME *'],
    });
    const result = await transport.invoke(preRequest(), { hook: 'h' });
    expect(result).toMatchObject({ ok: true, response: { decision: 'deny', reason: '$HOME *' } });
  });
});
