/**
 * The peer in the same bench: the `guard` policy as an Extism plugin, run by the official Extism JS
 * SDK (`@extism/extism`), in-thread and in worker mode. The plugin is the WAT guard
 * (guest-examples/wat/policies/guard.wat) with the WAT guests' prelude and a small Extism adapter
 * (adapter.wat), assembled and compiled here with jco's WAT parser — no other toolchain.
 */
import { readFile } from 'node:fs/promises';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { join } from 'node:path';
import createPlugin, { type Plugin } from '@extism/extism';
import { parseWat } from '../../../host/kit/build/wasm-tools.js';
import { assembleWat } from '../../../host/kit/build/wat.js';
import { ROOT } from '../guests.js';

/** The Extism plugin's bytes (a core module importing only `extism:host/env`). */
export async function buildExtismGuard(): Promise<Uint8Array> {
  const prelude = await readFile(join(ROOT, 'guest-examples/wat/prelude.wat'), 'utf8');
  const guard = await readFile(join(ROOT, 'guest-examples/wat/policies/guard.wat'), 'utf8');
  const adapter = await readFile(join(ROOT, 'scripts/bench/extism/adapter.wat'), 'utf8');
  return parseWat(assembleWat(prelude, `${guard}\n${adapter}`, { hookVersion: '1.0.0', initialPages: 1 }));
}

/** An Extism plugin running the guard: `call(requestJson)` → the response JSON text. */
export interface ExtismGuard {
  readonly mode: 'in-thread' | 'worker';
  /** One hook call as an Extism user makes it: call, parse the answer, reset the plugin's call memory. */
  call(requestJson: string): Promise<unknown>;
  close(): Promise<void>;
}

/**
 * Run `make` with `node:worker_threads`' Worker starting workers without the parent's execArgv. Under
 * tsx (how the bench runs) a worker inherits tsx's loader, which turns source maps on, and Node 20
 * then fails on the relative `sourceMappingURL` in the SDK's `data:` URL worker. A user running the
 * SDK under plain node has no such flags: this puts the bench in the same position.
 */
async function withPlainWorkers<T>(make: () => Promise<T>): Promise<T> {
  const threads = createRequire(import.meta.url)('node:worker_threads') as { Worker: new (...args: never[]) => unknown };
  const Original = threads.Worker;
  class PlainWorker extends (Original as unknown as new (url: unknown, options?: Record<string, unknown>) => object) {
    constructor(url: unknown, options: Record<string, unknown> = {}) {
      super(url, { ...options, execArgv: [] });
    }
  }
  threads.Worker = PlainWorker as unknown as typeof Original;
  syncBuiltinESMExports();
  try {
    return await make();
  } finally {
    threads.Worker = Original;
    syncBuiltinESMExports();
  }
}

export async function loadExtismGuard(bytes: Uint8Array, mode: 'in-thread' | 'worker'): Promise<ExtismGuard> {
  const make = (): Promise<Plugin> => createPlugin({ wasm: [{ data: bytes }] }, { useWasi: false, runInWorker: mode === 'worker' });
  const plugin = mode === 'worker' ? await withPlainWorkers(make) : await make();
  return {
    mode,
    async call(requestJson) {
      const output = await plugin.call('guard', requestJson);
      if (output === null) throw new Error('the Extism guard returned no output');
      const answer: unknown = JSON.parse(output.text());
      // Without a reset the SDK keeps every call's input and output blocks.
      await plugin.reset();
      return answer;
    },
    close: () => plugin.close(),
  };
}
