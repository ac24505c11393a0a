/**
 * The JavaScript and TypeScript example policies built with the QuickJS backend
 * (`jco componentize --backend quickjs`: componentize-qjs, stubbed WASI, sync ABI), through the real
 * component transport against the shared cases file.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { componentTransport, inspectComponent } from '../../host/transports/component/index.js';
import { ensureGuestsBuilt, guestBuildDir } from '../helpers/guests.js';
import { runPolicyCases } from '../helpers/policy-cases.js';

const POLICIES = ['guard', 'redact'] as const;
const component = (lang: 'js' | 'ts', policy: string): string => join(guestBuildDir(lang), 'quickjs', `${policy}.wasm`);

const cacheDir = mkdtempSync(join(tmpdir(), 'basis-js-quickjs-'));
afterAll(() => rmSync(cacheDir, { recursive: true, force: true }));

beforeAll(async () => {
  await ensureGuestsBuilt('js', POLICIES.map((p) => component('js', p)));
  await ensureGuestsBuilt('ts', POLICIES.map((p) => component('ts', p)));
}, 600_000);

for (const lang of ['js', 'ts'] as const) {
  runPolicyCases(`${lang} (quickjs)`, (hook) => componentTransport({ path: component(lang, hook), cache_dir: cacheDir }));

  describe(`${lang} (quickjs) components`, () => {
    it.each(POLICIES)('%s imports only the WIT types (WASI stubbed) and exports the handler', async (policy) => {
      const info = await inspectComponent(component(lang, policy), { cache_dir: cacheDir });
      expect(info.imports).toEqual(['basis:hook/types@1.0.0']);
      // componentize-qjs also exports its `init`; the host calls only the handler.
      expect(info.exports).toContain('basis:hook/handler@1.0.0');
      expect(info.problem).toBeUndefined();
    });
  });
}
