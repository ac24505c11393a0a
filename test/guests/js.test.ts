/**
 * The JavaScript and TypeScript example policies (guest-examples/js, guest-examples/ts), built with
 * componentize-js (SpiderMonkey), run through the real component transport against the shared cases
 * file — the same cases every guest language passes. QuickJS builds: js-quickjs.test.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HookRequest } from '../../host/index.js';
import { componentTransport, inspectComponent } from '../../host/transports/component/index.js';
import { ensureGuestsBuilt, guestBuildDir } from '../helpers/guests.js';
import { runPolicyCases } from '../helpers/policy-cases.js';

const POLICIES = ['guard', 'redact'] as const;
const component = (lang: 'js' | 'ts', policy: string): string => join(guestBuildDir(lang), 'spidermonkey', `${policy}.wasm`);

// One transpile cache for this file: the first case of each hook transpiles, the rest reuse it.
const cacheDir = mkdtempSync(join(tmpdir(), 'basis-js-guests-'));
afterAll(() => rmSync(cacheDir, { recursive: true, force: true }));

beforeAll(async () => {
  // A SpiderMonkey build takes seconds per component: only on a checkout that has not built them.
  await ensureGuestsBuilt('js', POLICIES.map((p) => component('js', p)));
  await ensureGuestsBuilt('ts', POLICIES.map((p) => component('ts', p)));
}, 600_000);

for (const lang of ['js', 'ts'] as const) {
  runPolicyCases(`${lang} (spidermonkey)`, (hook) => componentTransport({ path: component(lang, hook), cache_dir: cacheDir }));

  describe(`${lang} (spidermonkey) components`, () => {
    it.each(POLICIES)('%s is built with every WASI feature disabled: it imports only the WIT types', async (policy) => {
      const info = await inspectComponent(component(lang, policy), { cache_dir: cacheDir });
      expect(info.imports).toEqual(['basis:hook/types@1.0.0']);
      expect(info.exports).toEqual(['basis:hook/handler@1.0.0']);
    });
  });
}

describe('js (spidermonkey) conformance guest: the behaviour comes only from an explicit env grant', () => {
  const conformance = join(guestBuildDir('js'), 'spidermonkey', 'conformance.wasm');
  const request: HookRequest = { hook_schema: 1, event: 'pre_tool_use', workspace: '/ws', agent_id: 'a', tool_call_id: 'c', tool_name: 'shell', input: { command: 'ls' } };

  it('without the grant the guest sees an empty environment and fails with its own err', async () => {
    await ensureGuestsBuilt('js', [conformance]);
    const transport = componentTransport({ path: conformance, cache_dir: cacheDir });
    try {
      const result = await transport.invoke(request, { hook: 'no-grant' });
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.failure.code).toBe('guest_error');
    } finally {
      await transport.close();
    }
  });

  it('reads the granted value at call time, not a value frozen at build time', async () => {
    await ensureGuestsBuilt('js', [conformance]);
    const answers: unknown[] = [];
    for (const behaviour of ['deny', 'allow']) {
      const transport = componentTransport({ path: conformance, cache_dir: cacheDir, grants: { env: { BASIS_BEHAVIOUR: behaviour } } });
      try {
        const result = await transport.invoke(request, { hook: behaviour });
        answers.push(result.ok ? result.response.decision : result.failure.code);
      } finally {
        await transport.close();
      }
    }
    expect(answers).toEqual(['deny', 'allow']);
  });
});
