/**
 * What test/guests/js.test.ts (SpiderMonkey) and js-quickjs.test.ts (QuickJS) check of the JavaScript
 * and TypeScript guests built with one engine: the example policies against the shared cases file,
 * the components' imports, and the conformance guest's environment grant and console output.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { HookRequest } from '../../host/index.js';
import { ALLOWED_IMPORTS, componentTransport, inspectComponent } from '../../host/transports/component/index.js';
import { TEST_CACHE_DIR, ensureGuestsBuilt, guestBuildDir } from './guests.js';
import { runPolicyCases } from './policy-cases.js';

const POLICIES = ['guard', 'redact'] as const;

/** `wasi:cli/stderr@0.2.12` → `wasi:cli/stderr`. */
const unversioned = (name: string): string => name.replace(/@[^@]*$/, '');

export function jsGuestSuite(engine: 'spidermonkey' | 'quickjs'): void {
  const component = (lang: 'js' | 'ts', policy: string): string => join(guestBuildDir(lang), engine, `${policy}.wasm`);
  const conformance = join(guestBuildDir('js'), engine, 'conformance.wasm');

  // The tests' shared transpile cache: a 12 MB SpiderMonkey component is transpiled and instrumented
  // once for every file that loads it (and kept for the next run), not once per file.
  const cacheDir = TEST_CACHE_DIR;

  beforeAll(async () => {
    // Built on a checkout that has not built them yet (SpiderMonkey takes seconds per component).
    await ensureGuestsBuilt('js', [...POLICIES.map((p) => component('js', p)), conformance]);
    await ensureGuestsBuilt('ts', POLICIES.map((p) => component('ts', p)));
  }, 600_000);

  for (const lang of ['js', 'ts'] as const) {
    runPolicyCases(`${lang} (${engine})`, (hook) => componentTransport({ path: component(lang, hook), cache_dir: cacheDir }));

    describe(`${lang} (${engine}) components`, () => {
      it.each(POLICIES)('%s imports the hook types, stderr (console) and the environment (context.env), all allowed by the sandbox', async (policy) => {
        const info = await inspectComponent(component(lang, policy), { cache_dir: cacheDir });
        expect(info.problem).toBeUndefined();
        expect(info.imports).toEqual(expect.arrayContaining(['basis:hook/types@1.0.0', 'wasi:cli/stderr@0.2.12', 'wasi:cli/environment@0.2.12']));
        for (const name of info.imports) expect(ALLOWED_IMPORTS, name).toContain(unversioned(name));
        expect(info.exports).toContain('basis:hook/handler@1.0.0');
      });
    });
  }

  describe(`js (${engine}) conformance guest: the behaviour comes only from an explicit env grant`, () => {
    const request: HookRequest = { hook_schema: 1, event: 'pre_tool_use', workspace: '/ws', agent_id: 'a', tool_call_id: 'c', tool_name: 'shell', input: { command: 'ls' } };

    it('without the grant the guest sees an empty environment and fails with its own err', async () => {
      const transport = componentTransport({ path: conformance, cache_dir: cacheDir });
      try {
        const result = await transport.invoke(request, { hook: 'no-grant' });
        expect(result.ok).toBe(false);
        if (!result.ok) expect(result.failure.code).toBe('guest_error');
      } finally {
        await transport.close();
      }
    });

    it('reads the granted value at call time (not frozen at build time) and logs through console to the captured stderr', async () => {
      const answers: unknown[] = [];
      const logs: unknown[] = [];
      for (const behaviour of ['deny', 'allow']) {
        const transport = componentTransport({ path: conformance, cache_dir: cacheDir, grants: { env: { BASIS_BEHAVIOUR: behaviour } } });
        try {
          const result = await transport.invoke(request, { hook: behaviour });
          answers.push(result.ok ? result.response.decision : result.failure.code);
          logs.push(result.logs?.stderr);
        } finally {
          await transport.close();
        }
      }
      expect(answers).toEqual(['deny', 'allow']);
      expect(logs).toEqual(['conformance: deny at pre_tool_use\n', 'conformance: allow at pre_tool_use\n']);
    });

    it('a wrong answer shape is refused by the glue in the guest: a guest_error naming the shapes expected', async () => {
      const transport = componentTransport({ path: conformance, cache_dir: cacheDir, grants: { env: { BASIS_BEHAVIOUR: 'malformed' } } });
      try {
        const result = await transport.invoke(request, { hook: 'malformed' });
        expect(result.ok).toBe(false);
        if (result.ok) return;
        expect(result.failure.code).toBe('guest_error');
        expect(result.failure.message).toContain('unknown decision "maybe"');
        expect(result.failure.message).toContain('expected one of');
      } finally {
        await transport.close();
      }
    });
  });
}
