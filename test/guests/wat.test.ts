/**
 * The hand-written WAT example policies (guest-examples/wat/policies/) through the real component
 * transport, in metered (default) and worker isolation, and proof that they import nothing but the
 * hook's types: the smallest possible guest needs no WASI.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { componentTransport, inspectComponent } from '../../host/transports/component/index.js';
import { TEST_CACHE_DIR as cache_dir, ensureGuestsBuilt, guestBuildDir } from '../helpers/guests.js';
import { runPolicyCases } from '../helpers/policy-cases.js';

const WAT_POLICIES = ['guard', 'redact'] as const;
const policyPath = (policy: string): string => join(guestBuildDir('wat'), `${policy}.wasm`);
const ensureBuilt = (): Promise<void> => ensureGuestsBuilt('wat', WAT_POLICIES.map(policyPath));

runPolicyCases('wat', async (hook) => {
  await ensureBuilt();
  return componentTransport({ path: policyPath(hook), cache_dir });
});
runPolicyCases('wat (worker)', async (hook) => {
  await ensureBuilt();
  return componentTransport({ path: policyPath(hook), cache_dir, isolation: 'worker' });
});

describe('wat policy components', () => {
  for (const policy of WAT_POLICIES) {
    it(`${policy} imports nothing but basis:hook/types@1.0.0`, async () => {
      await ensureBuilt();
      const inspection = await inspectComponent(policyPath(policy), { cache_dir });
      expect(inspection.problem).toBeUndefined();
      expect(inspection.kind).toBe('component');
      expect(inspection.imports).toEqual(['basis:hook/types@1.0.0']);
    });
  }
});
