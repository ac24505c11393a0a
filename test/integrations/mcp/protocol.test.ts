import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { EVERYTHING, eventually, FILESYSTEM, gatewayArgv, ProcessTransport } from '../../helpers/mcp.js';

/*
 * The gateway at the JSON-RPC level, without an SDK client in between: what ids come back, what a
 * cancel does, what the gateway answers itself.
 */

let root: string;
let emptyConfig: string;
const gateways: ProcessTransport[] = [];

beforeAll(async () => {
  root = await realpath(await mkdtemp(path.join(tmpdir(), 'basis-mcp-rpc-')));
  await mkdir(path.join(root, 'sandbox'));
  emptyConfig = path.join(root, 'empty.json');
  await writeFile(emptyConfig, JSON.stringify({ hook_schema: 1, hooks: [] }));
});
afterEach(async () => {
  await Promise.all(gateways.splice(0).map((g) => g.close()));
});
afterAll(() => rm(root, { recursive: true, force: true }));

/** A gateway and everything it has sent back, with a way to wait for the answer to one id. */
function start(config: string, server: readonly string[], flags: readonly string[] = []): { gateway: ProcessTransport; received: JSONRPCMessage[]; answer: (id: string | number) => Promise<JSONRPCMessage> } {
  const gateway = new ProcessTransport(gatewayArgv(config, server, flags));
  gateways.push(gateway);
  const received: JSONRPCMessage[] = [];
  gateway.onmessage = (message) => void received.push(message);
  const answer = async (id: string | number): Promise<JSONRPCMessage> => {
    const find = (): JSONRPCMessage | undefined => received.find((m) => 'id' in m && m.id === id && !('method' in m));
    if (!(await eventually(() => find() !== undefined, 20_000))) throw new Error(`no answer for id ${JSON.stringify(id)}; stderr: ${gateway.stderr}`);
    return find() as JSONRPCMessage;
  };
  return { gateway, received, answer };
}

async function handshake(gateway: ProcessTransport, answer: (id: string | number) => Promise<JSONRPCMessage>, id: string | number = 'init'): Promise<JSONRPCMessage> {
  await gateway.send({
    jsonrpc: '2.0',
    id,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw-client', version: '0.0.1' } },
  });
  const result = await answer(id);
  await gateway.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  return result;
}

describe('mcp gateway at the JSON-RPC level', () => {
  it('ids come back exactly as sent: strings stay strings, numbers numbers, 0 included', async () => {
    const { gateway, answer } = start(emptyConfig, EVERYTHING);
    const init = await handshake(gateway, answer, 'init-1');
    expect(init).toMatchObject({ jsonrpc: '2.0', id: 'init-1', result: { serverInfo: { name: expect.any(String) } } });
    await gateway.send({ jsonrpc: '2.0', id: 0, method: 'ping' });
    await gateway.send({ jsonrpc: '2.0', id: '0', method: 'tools/list' });
    await gateway.send({ jsonrpc: '2.0', id: 'call-a', method: 'tools/call', params: { name: 'get-sum', arguments: { a: 1, b: 2 } } });
    await gateway.send({ jsonrpc: '2.0', id: 99, method: 'no/such-method' });
    expect(await answer(0)).toEqual({ jsonrpc: '2.0', id: 0, result: {} });
    expect(await answer('0')).toMatchObject({ id: '0', result: { tools: expect.any(Array) } });
    expect(await answer('call-a')).toMatchObject({ id: 'call-a', result: { content: [{ type: 'text', text: 'The sum of 1 and 2 is 3.' }] } });
    expect(await answer(99)).toMatchObject({ id: 99, error: { code: -32601 } }); // the server's own error, passed through
    expect(gateway.garbage).toEqual([]);
  });

  it('a tools/call whose params are not a tools/call is answered by the gateway with -32602 (never forwarded unhooked)', async () => {
    const { gateway, answer } = start(emptyConfig, EVERYTHING);
    await handshake(gateway, answer);
    await gateway.send({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'get-sum', arguments: 'a=1' } } as unknown as JSONRPCMessage);
    expect(await answer(5)).toMatchObject({ id: 5, error: { code: -32602, message: expect.stringMatching(/^invalid tools\/call params/) } });
  });

  it('a call cancelled while its pre hook runs is never answered and never reaches the server', async () => {
    const config = path.join(root, 'slow-pre.json');
    await writeFile(
      config,
      JSON.stringify({ hook_schema: 1, hooks: [{ name: 'slow', event: 'pre_tool_use', tools: ['write_file'], timeout_ms: 30_000, command: `cat >/dev/null; sleep 5; echo '{"decision":"allow"}'` }] }),
    );
    const { gateway, received, answer } = start(config, [...FILESYSTEM, root], ['--trail']);
    await handshake(gateway, answer);
    const target = path.join(root, 'sandbox', 'cancelled.txt');
    await gateway.send({ jsonrpc: '2.0', id: 'w1', method: 'tools/call', params: { name: 'write_file', arguments: { path: target, content: 'x' } } });
    await new Promise((resolve) => setTimeout(resolve, 300));
    await gateway.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'w1', reason: 'changed my mind' } });
    // The chain was stopped (the hook killed: its outcome is on the trail as a timeout)...
    expect(await eventually(() => gateway.stderr.includes('"tool_call_id":"w1"'), 20_000)).toBe(true);
    expect(gateway.stderr).toMatch(/"tool_call_id":"w1".*"code":"timeout"/);
    // ...and a later call is answered while w1 never is.
    await gateway.send({ jsonrpc: '2.0', id: 'after', method: 'tools/call', params: { name: 'list_allowed_directories', arguments: {} } });
    await answer('after');
    expect(received.some((m) => 'id' in m && m.id === 'w1')).toBe(false);
    expect(existsSync(target)).toBe(false);
  });

  it('a task-augmented call runs its pre chain, and its result (tasks/result) goes through the post chain of the call that started it', async () => {
    const config = path.join(root, 'task-post.json');
    const seen = `const r = JSON.parse(require("fs").readFileSync(0, "utf8")); process.stdout.write(JSON.stringify(r.event === "post_tool_use" ? { decision: "replace", output: "post saw " + r.tool_name + " " + JSON.stringify(r.input) + " id " + r.tool_call_id } : { decision: "allow" }))`;
    await writeFile(config, JSON.stringify({ hook_schema: 1, hooks: [{ name: 'pre', event: 'pre_tool_use', command: [process.execPath, '-e', seen] }, { name: 'post', event: 'post_tool_use', command: [process.execPath, '-e', seen] }] }));
    const { gateway, answer } = start(config, EVERYTHING, ['--trail']);
    await handshake(gateway, answer);
    await gateway.send({ jsonrpc: '2.0', id: 't1', method: 'tools/call', params: { name: 'simulate-research-query', arguments: { topic: 'gateways' }, task: { ttl: 60_000 } } });
    const created = (await answer('t1')) as unknown as { result: { task: { taskId: string; status: string } } };
    expect(created.result.task).toMatchObject({ taskId: expect.any(String), status: 'working' });
    await gateway.send({ jsonrpc: '2.0', id: 'r1', method: 'tasks/result', params: { taskId: created.result.task.taskId } });
    const result = (await answer('r1')) as unknown as { result: { content: unknown; isError: boolean } };
    expect(result.result.content).toEqual([{ type: 'text', text: 'post saw simulate-research-query {"topic":"gateways"} id t1' }]);
    expect(gateway.stderr).toMatch(/"tool":"simulate-research-query".*"event":"pre_tool_use"/);
  });

  it('tasks/result for a task not started through this gateway is refused when post hooks exist (never fetched)', async () => {
    const config = path.join(root, 'post-only.json');
    await writeFile(config, JSON.stringify({ hook_schema: 1, hooks: [{ name: 'audit', event: 'post_tool_use', command: `cat >/dev/null; echo '{"decision":"allow"}'` }] }));
    const { gateway, answer } = start(config, EVERYTHING);
    await handshake(gateway, answer);
    await gateway.send({ jsonrpc: '2.0', id: 'r2', method: 'tasks/result', params: { taskId: 'made-up' } });
    expect(await answer('r2')).toMatchObject({ id: 'r2', error: { code: -32602, message: expect.stringContaining('was not started by a tools/call through this connection') } });
  });

  it('--audit FILE appends the audit stream of every tools/call; a file that cannot be opened refuses to start (exit 2)', async () => {
    const file = path.join(root, 'mcp-audit.jsonl');
    const hooked = path.join(root, 'audited.json');
    await writeFile(hooked, JSON.stringify({ hook_schema: 1, hooks: [{ name: 'allow-all', event: 'pre_tool_use', command: ['sh', '-c', 'echo \'{"decision":"allow"}\''] }] }));
    const { gateway, answer } = start(hooked, EVERYTHING, ['--audit', file]);
    await handshake(gateway, answer);
    await gateway.send({ jsonrpc: '2.0', id: 'sum', method: 'tools/call', params: { name: 'get-sum', arguments: { a: 1, b: 2 } } });
    expect(await answer('sum')).toMatchObject({ id: 'sum', result: { content: [{ type: 'text', text: 'The sum of 1 and 2 is 3.' }] } });
    const events = (): Array<{ type: string; tool_name?: string }> =>
      (existsSync(file) ? readFileSync(file, 'utf8') : '').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as { type: string });
    expect(await eventually(() => events().some((e) => e.type === 'chain_decided'), 20_000)).toBe(true);
    expect(events().map((e) => [e.type, e.tool_name])).toEqual([
      ['chain_started', 'get-sum'],
      ['hook_decided', 'get-sum'],
      ['chain_decided', 'get-sum'],
    ]);

    const refused = new ProcessTransport(gatewayArgv(emptyConfig, EVERYTHING, ['--audit', path.join(root, 'no', 'such', 'dir', 'audit.jsonl')]));
    gateways.push(refused);
    expect((await refused.exited).code).toBe(2);
    expect(refused.stderr).toMatch(/^basis-hooks mcp: cannot open --audit .* for appending \(ENOENT\)\n$/);
  });
});
