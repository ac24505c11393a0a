import { join } from 'node:path';
import { RUST_BUILD_DIR, RUST_FLAVOURS, RUST_GUESTS, rustGuestPath } from '../../scripts/guests/rust.js';
import { componentFixture } from '../helpers/component-fixture.js';
import { ensureGuestsBuilt } from '../helpers/guests.js';
import { runTransportSuite } from './suite.js';

const ensureRustGuestsBuilt = (): Promise<void> => ensureGuestsBuilt('rust', RUST_GUESTS.map((g) => rustGuestPath(g.flavour, g.out)));

// Every conformance vector against the Rust guests (guest-examples/rust/conformance/), std and no_std,
// through the real component transport. Between them the vectors exercise every field of the result
// layout the glue writes: modify with and without reason, replace with reason, with is_error true and
// false, and without either.
for (const flavour of RUST_FLAVOURS) {
  runTransportSuite(
    `component (rust ${flavour})`,
    componentFixture({ name: `rust ${flavour}`, dir: join(RUST_BUILD_DIR, flavour, 'conformance'), crashCode: 'trap', prepare: ensureRustGuestsBuilt }),
  );
}
