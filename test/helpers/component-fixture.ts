/**
 * The conformance fixture for component guests in any language: behaviour `b` is the component
 * `${dir}/${b}.wasm`, run through the real component transport with the suite's limits.
 */
import { join } from 'node:path';
import type { FailureCode } from '../../host/index.js';
import { componentTransport, type ComponentOptions, type ComponentTransport } from '../../host/transports/component/index.js';
import type { Behaviour } from '../conformance/behaviours.js';
import type { FixtureLimits, TransportFixture } from '../conformance/suite.js';
import { TEST_CACHE_DIR } from './guests.js';

/** What a language's component fixture says about its guests. */
export interface ComponentFixtureOptions {
  /** Language or guest set, for messages. */
  readonly name: string;
  /**
   * Directory holding `<behaviour>.wasm` for every supported behaviour — or one component for all of
   * them, which reads its behaviour per call from the environment variable `variable`, granted to
   * each hook (`grants.env`).
   */
  readonly dir: string | { readonly component: string; readonly variable: string };
  /** What the `crash` behaviour comes to (default `trap`). */
  readonly crashCode?: FailureCode;
  /** Behaviours the guests cannot express, with the reason. Default: `silent` (a component always answers). */
  readonly unsupported?: Partial<Record<Behaviour, string>>;
  /** Transpile cache (default: the shared test cache under `.cache/`). */
  readonly cacheDir?: string;
  /** Runs once before the first transport is made (e.g. `ensureGuestsBuilt('c')`). */
  readonly prepare?: () => Promise<void>;
  /** Extra transport options (e.g. `memory_mb` for a large guest). */
  readonly options?: Partial<Omit<ComponentOptions, 'path'>>;
}

/** `silent` needs an empty answer; a component's `handle` always returns `result<decision, string>`. */
export const COMPONENT_UNSUPPORTED: Partial<Record<Behaviour, string>> = {
  silent: 'a component always returns result<decision, string>: there is no empty answer',
};

/**
 * A {@link TransportFixture} for component guests. Transports are shared per behaviour and limits
 * (a hook that timed out or trapped must keep working: the suite exercises that too), loaded before
 * they are handed out so a guest that cannot load fails its vector loudly, and closed in teardown.
 *
 * @example
 * runTransportSuite('component (c)', componentFixture({ name: 'c', dir: join(guestBuildDir('c'), 'conformance'),
 *   prepare: () => ensureGuestsBuilt('c') }));
 */
export function componentFixture(options: ComponentFixtureOptions): TransportFixture {
  const transports = new Map<string, Promise<ComponentTransport>>();
  let prepared: Promise<void> | undefined;

  async function make(behaviour: Behaviour, limits: FixtureLimits): Promise<ComponentTransport> {
    prepared ??= options.prepare?.() ?? Promise.resolve();
    await prepared;
    const { dir } = options;
    const transport = componentTransport({
      ...options.options,
      ...(typeof dir === 'string' ? { path: join(dir, `${behaviour}.wasm`) } : { path: dir.component, grants: { env: { [dir.variable]: behaviour } } }),
      timeout_ms: limits.timeout_ms,
      max_output_bytes: limits.max_output_bytes,
      cache_dir: options.cacheDir ?? TEST_CACHE_DIR,
    });
    await transport.load();
    return transport;
  }

  return {
    crashCode: options.crashCode ?? 'trap',
    unsupported: options.unsupported ?? COMPONENT_UNSUPPORTED,
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
    },
  };
}
