import { componentFixture } from '../helpers/component-fixture.js';
import { WAT_CONFORMANCE_DIR, ensureWatGuestsBuilt } from '../helpers/guests.js';
import { runTransportSuite } from './suite.js';

// Every conformance vector against hand-written WAT components (guest-examples/wat/conformance/),
// through the real component transport in worker isolation: worker threads, sandbox, memory cap,
// the codec's WIT mapping. (Metered isolation, the default, runs the same vectors in
// component-metered.test.ts.)
runTransportSuite(
  'component (wat, worker)',
  componentFixture({ name: 'wat', dir: WAT_CONFORMANCE_DIR, crashCode: 'trap', prepare: ensureWatGuestsBuilt, options: { isolation: 'worker' } }),
);
