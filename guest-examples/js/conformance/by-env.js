/**
 * Conformance guest entry for SpiderMonkey: one component for every behaviour, chosen per call from
 * the `BASIS_BEHAVIOUR` environment variable, which the host passes only as an explicit grant
 * (`grants: { env: { BASIS_BEHAVIOUR: 'deny' } }`). The world (`wit/conformance.wit`) imports
 * `wasi:cli/environment` for that; componentize-js has no `process.env`.
 *
 * Read at call time, not at build time: the build snapshots the engine (Wizer), so anything read at
 * module top level would be frozen into the component.
 */
import { getEnvironment } from 'wasi:cli/environment@0.2.12';
import { answer } from './behaviours.js';

export const handler = {
  handle(request) {
    const entry = getEnvironment().find(([name]) => name === 'BASIS_BEHAVIOUR');
    if (entry === undefined) throw 'BASIS_BEHAVIOUR is not set: grant it with grants.env';
    return answer(entry[1], request);
  },
};
