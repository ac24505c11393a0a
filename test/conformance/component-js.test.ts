/**
 * Every conformance vector against the JavaScript conformance guest built with componentize-js
 * (SpiderMonkey), through the real component transport. SpiderMonkey components are ~12 MB, so there
 * is one component for all behaviours (guest-examples/js/conformance/by-env.js): each hook gets its
 * behaviour through an explicit environment grant, `grants: { env: { BASIS_BEHAVIOUR } }`, which the
 * guest reads per call through `wasi:cli/environment` — exercising the env grant on the way.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { componentTransport, type ComponentTransport } from '../../host/transports/component/index.js';
import { COMPONENT_UNSUPPORTED } from '../helpers/component-fixture.js';
import { ensureGuestsBuilt, guestBuildDir } from '../helpers/guests.js';
import type { Behaviour } from './behaviours.js';
import { runTransportSuite, type FixtureLimits, type TransportFixture } from './suite.js';

const CONFORMANCE = join(guestBuildDir('js'), 'spidermonkey', 'conformance.wasm');

/** One transport per behaviour and limits, all on the same component, loaded before use. */
function spiderMonkeyFixture(): TransportFixture {
  const cacheDir = mkdtempSync(join(tmpdir(), 'basis-js-conformance-'));
  const transports = new Map<string, Promise<ComponentTransport>>();

  async function make(behaviour: Behaviour, limits: FixtureLimits): Promise<ComponentTransport> {
    await ensureGuestsBuilt('js', [CONFORMANCE]);
    const transport = componentTransport({
      path: CONFORMANCE,
      timeout_ms: limits.timeout_ms,
      max_output_bytes: limits.max_output_bytes,
      cache_dir: cacheDir,
      grants: { env: { BASIS_BEHAVIOUR: behaviour } },
    });
    await transport.load();
    return transport;
  }

  return {
    crashCode: 'trap',
    unsupported: COMPONENT_UNSUPPORTED,
    create(behaviour, limits) {
      const key = `${behaviour}\0${limits.timeout_ms}\0${limits.max_output_bytes}`;
      let transport = transports.get(key);
      if (transport === undefined) {
        transport = make(behaviour, limits);
        transports.set(key, transport);
      }
      return transport;
    },
    async teardown() {
      const all = await Promise.allSettled(transports.values());
      await Promise.all(all.map((t) => (t.status === 'fulfilled' ? t.value.close() : undefined)));
      rmSync(cacheDir, { recursive: true, force: true });
    },
  };
}

runTransportSuite('component (js, spidermonkey)', spiderMonkeyFixture());
