/**
 * Component hooks in a given isolation mode, built through the public API. `metered` is added by a
 * change that may not have landed when the bench runs: whether the host supports a mode is found out
 * at run time, by asking for it.
 */
import { componentTransport, type ComponentOptions, type ComponentTransport } from '../../host/index.js';

/** The isolation modes the bench compares. */
export const ISOLATIONS = ['worker', 'metered'] as const;
export type Isolation = (typeof ISOLATIONS)[number];

/** A loaded component transport, or why the mode is unavailable. */
export type Loaded =
  | { readonly ok: true; readonly transport: ComponentTransport }
  /** `unsupported`: the host does not know the mode; otherwise the mode exists but this guest failed to load in it. */
  | { readonly ok: false; readonly unsupported: boolean; readonly reason: string };

function failed(error: unknown): Loaded {
  const message = error instanceof Error ? error.message : String(error);
  return { ok: false, unsupported: /isolation/i.test(message) && /(support|unknown|invalid|expected)/i.test(message), reason: message };
}

/**
 * Create and load a component transport in `isolation`. Resolves `{ ok: false }` when it cannot be
 * loaded, saying whether the host does not support the mode at all; the caller decides whether that
 * is fatal (it is for `worker`: a bench of a broken hook is meaningless).
 */
export async function loadComponentHook(path: string, isolation: Isolation, cacheDir: string): Promise<Loaded> {
  // The cast: the installed ComponentOptions type may not list `metered` yet; the host decides.
  const options = { path, cache_dir: cacheDir, isolation: isolation as ComponentOptions['isolation'] } as ComponentOptions;
  let transport: ComponentTransport;
  try {
    transport = componentTransport(options);
  } catch (error) {
    return failed(error);
  }
  try {
    await transport.load();
  } catch (error) {
    await transport.close();
    return failed(error);
  }
  return { ok: true, transport };
}
