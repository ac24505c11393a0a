/**
 * A tiny agent-runtime stand-in for stdio.test.ts, run as a child process:
 * `node --import tsx stdio-chain.ts <component.wasm> <cache dir>`. It runs one pre_tool_use call
 * through a chain with the component and prints the outcome as one JSON line — the only thing that
 * may appear on its stdout, whatever the guest writes to its own.
 */
import { HookRunner } from '../../host/index.js';
import { componentTransport } from '../../host/transports/component/index.js';

const [path, cacheDir] = process.argv.slice(2);
if (path === undefined || cacheDir === undefined) throw new Error('usage: stdio-chain.ts <component.wasm> <cache dir>');
const transport = componentTransport({ path, cache_dir: cacheDir });
await transport.load();
const runner = new HookRunner([{ name: 'noisy', event: 'pre_tool_use', transport }]);
const outcome = await runner.run({ event: 'pre_tool_use', workspace: '/ws', agent_id: 'a', tool_call_id: 'c', tool_name: 'shell', input: { command: 'ls' } });
process.stdout.write(`${JSON.stringify(outcome)}\n`);
await runner.close();
