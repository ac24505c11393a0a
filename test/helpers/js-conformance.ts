/**
 * The conformance suite against the JavaScript conformance guest (guest-examples/js/conformance/),
 * built by the kit with one engine, through the real component transport. One component serves every
 * behaviour: each hook gets its behaviour through an explicit environment grant,
 * `grants: { env: { BASIS_BEHAVIOUR } }`, which the guest reads per call as `context.env` — exercising
 * the env grant and the glue on the way.
 */
import { join } from 'node:path';
import { runTransportSuite } from '../conformance/suite.js';
import { COMPONENT_UNSUPPORTED, componentFixture } from './component-fixture.js';
import { ensureGuestsBuilt, guestBuildDir } from './guests.js';

/** Behaviours a JavaScript hook cannot express, and why. */
export const JS_UNSUPPORTED = {
  ...COMPONENT_UNSUPPORTED,
  malformed:
    'a JavaScript hook answers through the glue, which writes every value as JSON: the host never sees text that is not JSON. A wrong answer shape is refused in the guest, a guest_error (test/guests/js-glue.test.ts)',
};

export function runJsConformance(engine: 'spidermonkey' | 'quickjs'): void {
  const component = join(guestBuildDir('js'), engine, 'conformance.wasm');
  const fixture = componentFixture({
    name: `js (${engine})`,
    dir: { component, variable: 'BASIS_BEHAVIOUR' },
    // The glue turns every throw into err(message), under both engines.
    crashCode: 'guest_error',
    unsupported: JS_UNSUPPORTED,
    // The shared test cache (the default): the component is transpiled once for every file using it.
    prepare: () => ensureGuestsBuilt('js', [component]),
  });
  runTransportSuite(`component (js, ${engine})`, fixture);
}
