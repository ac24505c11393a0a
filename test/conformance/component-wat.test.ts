import { componentFixture } from '../helpers/component-fixture.js';
import { WAT_CONFORMANCE_DIR, ensureWatGuestsBuilt } from '../helpers/guests.js';
import { runTransportSuite } from './suite.js';

// Every conformance vector against hand-written WAT components (guest-examples/wat/conformance/),
// through the real component transport: worker threads, sandbox, memory cap, the codec's WIT mapping.
runTransportSuite(
  'component (wat)',
  componentFixture({ name: 'wat', dir: WAT_CONFORMANCE_DIR, crashCode: 'trap', prepare: ensureWatGuestsBuilt }),
);
