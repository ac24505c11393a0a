/**
 * The peer the bench measures is a real implementation of the same policy: the Extism guard plugin
 * (scripts/bench/extism/), run by the official Extism JS SDK in-thread and in worker mode, answers
 * every `guard` case of guest-examples/policy-cases.jsonl exactly as the cases say.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseToolInput } from '../../host/codec/input.js';
import { toRequest } from '../../host/codec/request.js';
import { buildExtismGuard, loadExtismGuard, type ExtismGuard } from '../../scripts/bench/extism/plugin.js';
import { loadPolicyCases } from '../helpers/policy-cases.js';

/** The bits of the WebAssembly API this test reads (lib ES2023 declares none of it). */
interface WasmReflect {
  compile(bytes: Uint8Array): Promise<object>;
  Module: {
    imports(module: object): Array<{ module: string; name: string; kind: string }>;
    exports(module: object): Array<{ name: string; kind: string }>;
  };
}

const cases = loadPolicyCases().filter((c) => c.hook === 'guard');
const plugins: ExtismGuard[] = [];
let bytes: Uint8Array;

beforeAll(async () => {
  bytes = await buildExtismGuard();
}, 60_000);

afterAll(async () => {
  await Promise.all(plugins.map((p) => p.close()));
});

describe.each(['in-thread', 'worker'] as const)('Extism guard plugin, %s', (mode) => {
  it('imports only the Extism kernel and exports guard', async () => {
    const api = (globalThis as unknown as { WebAssembly: WasmReflect }).WebAssembly;
    const module = await api.compile(bytes);
    expect(new Set(api.Module.imports(module).map((i) => i.module))).toStrictEqual(new Set(['extism:host/env']));
    expect(api.Module.exports(module).some((e) => e.name === 'guard' && e.kind === 'function')).toBe(true);
  });

  it.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const plugin = await loadExtismGuard(bytes, mode);
    plugins.push(plugin);
    const input = parseToolInput(c.call.input);
    const state = c.call.event === 'pre_tool_use' ? { event: 'pre_tool_use' as const, input } : { event: 'post_tool_use' as const, input, output: c.call.output, is_error: c.call.is_error };
    const answer = await plugin.call(JSON.stringify(toRequest(c.call, state)));
    expect(answer).toStrictEqual(c.expect);
  });
});
