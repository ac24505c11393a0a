import { join } from 'node:path';
import { GUESTS, RUST_FLAVOURS, buildDir } from '../../scripts/guests/catalog.js';
import { componentFixture } from '../helpers/component-fixture.js';
import { ensureGuestsBuilt } from '../helpers/guests.js';
import { runTransportSuite } from './suite.js';

const ensureRustGuestsBuilt = (): Promise<void> => ensureGuestsBuilt('rust', GUESTS.rust.map((g) => g.out));

// Every conformance vector against the Rust guests (guest-examples/rust/conformance/), std and no_std,
// through the real component transport. Between them the vectors exercise every field of the result
// layout the glue writes: modify with and without reason, replace with reason, with is_error true and
// false, and without either.
for (const flavour of RUST_FLAVOURS) {
  runTransportSuite(
    `component (rust ${flavour})`,
    componentFixture({ name: `rust ${flavour}`, dir: join(buildDir('rust'), flavour, 'conformance'), crashCode: 'trap', prepare: ensureRustGuestsBuilt }),
  );
}
