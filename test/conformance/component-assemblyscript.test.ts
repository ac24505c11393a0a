import { join } from 'node:path';
import { GUESTS, buildDir } from '../../scripts/guests/catalog.js';
import { componentFixture } from '../helpers/component-fixture.js';
import { ensureGuestsBuilt } from '../helpers/guests.js';
import { runTransportSuite } from './suite.js';

const ensureAsGuestsBuilt = (): Promise<void> => ensureGuestsBuilt('assemblyscript', GUESTS.assemblyscript.map((g) => g.out));

// Every conformance vector against the AssemblyScript guests (guest-examples/assemblyscript/src/
// conformance.ts, one component per behaviour) through the real component transport. Between them the
// vectors exercise every layout of the result area the glue writes: modify with and without reason,
// replace with a reason, with is_error true and false, and with neither.
runTransportSuite(
  'component (assemblyscript)',
  componentFixture({ name: 'assemblyscript', dir: join(buildDir('assemblyscript'), 'conformance'), crashCode: 'trap', prepare: ensureAsGuestsBuilt }),
);
