/**
 * The conformance guest: one component for every behaviour, chosen per call from the environment
 * variable `BASIS_BEHAVIOUR`, which the host passes only as an explicit grant
 * (`grants: { env: { BASIS_BEHAVIOUR: 'deny' } }`) and the glue hands over as `context.env`.
 *
 * Read at call time, not at build time: the build snapshots the engine, so anything read at module
 * top level would be frozen into the component. Each call logs the behaviour it plays to stderr
 * (`console.log`), which the host keeps in the trail.
 */
import { answer } from './behaviours.js';

export function handle(request, context) {
  const behaviour = context.env.BASIS_BEHAVIOUR;
  if (behaviour === undefined) throw 'BASIS_BEHAVIOUR is not set: grant it with grants.env';
  console.log(`conformance: ${behaviour} at ${request.event}`);
  return answer(behaviour, request);
}
