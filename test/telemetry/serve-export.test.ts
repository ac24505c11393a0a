/**
 * `basis-hooks serve --otlp URL` (the built CLI), as a platform team runs it: an agent's event arrives
 * over the Unix socket with W3C trace context (`traceparent`, as an agent that traces its hooks sends
 * it), and the chain's span continues that trace at a loopback OTLP/HTTP receiver. The tool input is not
 * in anything the receiver got (no `telemetry_payloads`).
 */
import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI } from '../helpers/mcp.js';
import { OtlpReceiver } from '../helpers/otlp-receiver.js';

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT = '00f067aa0ba902b7';
const SECRET = 'AKIAIOSFODNN7EXAMPLE';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'basis-serve-otlp-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

function post(socket: string, urlPath: string, body: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ socketPath: socket, path: urlPath, method: 'POST', headers: { 'content-type': 'application/json', ...headers } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('serve --otlp', () => {
  it("continues the agent's trace from traceparent: the chain and its hook arrive in that trace, without the tool input", async () => {
    const receiver = await OtlpReceiver.start();
    const file = path.join(dir, 'hooks.json');
    await writeFile(file, JSON.stringify({ hook_schema: 1, hooks: [{ name: 'no-rm', event: 'pre_tool_use', command: ['sh', '-c', `cat >/dev/null; printf '%s\\n' '{"decision":"deny","reason":"no rm"}'`] }] }));
    const socket = path.join(dir, 'run', 'hooks.sock');
    const child = spawn(process.execPath, [CLI, 'serve', '--config', file, '--socket', socket, '--otlp', receiver.url], { stdio: ['ignore', 'ignore', 'pipe'] });
    let log = '';
    child.stderr.on('data', (c: Buffer) => (log += c.toString()));
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setInterval(() => log.includes('listening on') && (clearInterval(timer), resolve()), 50);
        child.once('exit', (code) => (clearInterval(timer), reject(new Error(`serve exited ${String(code)}: ${log}`))));
      });
      const event = JSON.stringify({ session_id: 's', cwd: '/tmp', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: `rm -rf /x # ${SECRET}` }, tool_use_id: 't' });
      const answer = await post(socket, '/v1/hook/claude-code', event, { traceparent: `00-${TRACE}-${PARENT}-01` });
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body)).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: 'no rm' } });
    } finally {
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM'); // a clean stop flushes the exporters
      expect(await exited).toBe(0);
    }
    try {
      const chain = receiver.spans.find((s) => s.name.startsWith('basis_hooks.chain'));
      expect(chain, log).toBeDefined();
      expect(chain).toMatchObject({ traceId: TRACE, parentSpanId: PARENT });
      const hook = receiver.spans.find((s) => s.name.startsWith('basis_hooks.hook'));
      expect(hook).toMatchObject({ traceId: TRACE, parentSpanId: chain?.spanId });
      expect(hook?.attributes).toMatchObject({ 'basis_hooks.hook.name': 'no-rm', 'basis_hooks.decision': 'deny' });
      expect(receiver.points.length).toBeGreaterThan(0);
      expect(receiver.bodies.join('\n')).not.toContain(SECRET);
    } finally {
      await receiver.close();
    }
  });
});
