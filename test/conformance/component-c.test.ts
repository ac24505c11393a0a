import { join } from 'node:path';
import { GUESTS, PREBUILT_DIR, buildDir } from '../../scripts/guests/catalog.js';
import { componentFixture } from '../helpers/component-fixture.js';
import { ensureGuestsBuilt } from '../helpers/guests.js';
import { runTransportSuite } from './suite.js';

const ensureCGuestsBuilt = (): Promise<void> => ensureGuestsBuilt('c', GUESTS.c.map((g) => g.out));
const C_PREBUILT_DIR = PREBUILT_DIR.c ?? '';

// Every conformance vector against the C guests (guest-examples/c/src/conformance.c, one component per
// behaviour) through the real component transport — once as built from source (in CI: by clang; on a
// machine without clang the builder copies the prebuilt ones) and once as committed in prebuilt/, so a
// rebuild that behaves differently from the committed copies fails. Between them the vectors exercise
// every layout of the result area the glue writes: modify with and without reason, replace with a
// reason, with is_error true and false, and with neither.
runTransportSuite('component (c)', componentFixture({ name: 'c', dir: join(buildDir('c'), 'conformance'), crashCode: 'trap', prepare: ensureCGuestsBuilt }));
runTransportSuite('component (c, prebuilt)', componentFixture({ name: 'c prebuilt', dir: join(C_PREBUILT_DIR, 'conformance'), crashCode: 'trap' }));
