/**
 * Every conformance vector against the JavaScript conformance behaviours built with the QuickJS backend
 * (componentize-qjs, stubbed WASI): one ~1.6 MB component per behaviour
 * (guest-examples/js/build/quickjs/conformance/<behaviour>.wasm), through the real component transport.
 * Stubbed WASI means no environment either, which is why the behaviour is fixed per component here
 * rather than granted as BASIS_BEHAVIOUR as in the SpiderMonkey suite.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { componentFixture } from '../helpers/component-fixture.js';
import { ensureGuestsBuilt, guestBuildDir } from '../helpers/guests.js';
import { runTransportSuite } from './suite.js';


const DIR = join(guestBuildDir('js'), 'quickjs', 'conformance');
const cacheDir = mkdtempSync(join(tmpdir(), 'basis-js-quickjs-conformance-'));
const fixture = componentFixture({
  name: 'js (quickjs)',
  dir: DIR,
  crashCode: 'trap',
  cacheDir,
  prepare: () => ensureGuestsBuilt('js', [join(DIR, 'allow.wasm'), join(DIR, 'oversized.wasm')]),
});

runTransportSuite('component (js, quickjs)', {
  ...fixture,
  async teardown() {
    await fixture.teardown?.();
    rmSync(cacheDir, { recursive: true, force: true });
  },
});
