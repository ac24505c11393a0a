/**
 * Every conformance vector in metered isolation — the guest on the calling thread, its core modules
 * fuel-instrumented — for the hand-written WAT guests, the C guests (built from source, or the
 * committed prebuilt copies on a machine without clang) and the Rust no_std guests. The `hang`
 * vectors are stopped by fuel (→ `timeout`), `crash` is a trap on a fresh instance afterwards, and
 * everything else must be exactly what worker isolation gives (component-wat.test.ts and friends) —
 * through the direct canonical-ABI caller, and (WAT, C) through jco's glue as well.
 */
import { join } from 'node:path';
import { GUESTS, buildDir } from '../../scripts/guests/catalog.js';
import { componentFixture } from '../helpers/component-fixture.js';
import { WAT_CONFORMANCE_DIR, ensureGuestsBuilt, ensureWatGuestsBuilt } from '../helpers/guests.js';
import { runTransportSuite } from './suite.js';

const metered = { isolation: 'metered' } as const;

runTransportSuite(
  'component (wat, metered)',
  componentFixture({ name: 'wat metered', dir: WAT_CONFORMANCE_DIR, crashCode: 'trap', prepare: ensureWatGuestsBuilt, options: metered }),
);

runTransportSuite(
  'component (c, metered)',
  componentFixture({
    name: 'c metered',
    dir: join(buildDir('c'), 'conformance'),
    crashCode: 'trap',
    prepare: () => ensureGuestsBuilt('c', GUESTS.c.map((g) => g.out)),
    options: metered,
  }),
);

runTransportSuite(
  'component (rust nostd, metered)',
  componentFixture({
    name: 'rust nostd metered',
    dir: join(buildDir('rust'), 'nostd', 'conformance'),
    crashCode: 'trap',
    prepare: () => ensureGuestsBuilt('rust', GUESTS.rust.map((g) => g.out)),
    options: metered,
  }),
);

// The same vectors through jco's glue (`direct_call: false`): the fallback for components the direct
// caller does not take must keep every rule too (the runs above go through the direct caller).
runTransportSuite(
  'component (wat, metered, glue)',
  componentFixture({ name: 'wat metered glue', dir: WAT_CONFORMANCE_DIR, crashCode: 'trap', prepare: ensureWatGuestsBuilt, options: { ...metered, direct_call: false } }),
);

runTransportSuite(
  'component (c, metered, glue)',
  componentFixture({
    name: 'c metered glue',
    dir: join(buildDir('c'), 'conformance'),
    crashCode: 'trap',
    prepare: () => ensureGuestsBuilt('c', GUESTS.c.map((g) => g.out)),
    options: { ...metered, direct_call: false },
  }),
);
