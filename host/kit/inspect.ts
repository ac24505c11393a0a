import type { FailureCode } from '../contract/failure.js';
import { isHookError } from '../errors/hook-error.js';
import type { BinaryKind } from '../engine/compile/binary.js';
import { ALLOWED_IMPORTS, checkWorld, HANDLER_INTERFACE } from '../transports/component/world.js';

/** One import of a component and the sandbox's verdict on it. */
export interface ImportVerdict {
  /** Fully qualified, with version (`wasi:cli/stderr@0.2.3`). */
  readonly name: string;
  readonly allowed: boolean;
  /** Why it is refused, when it is. */
  readonly reason?: string;
}

/** What {@link inspectHook} reports about a `.wasm` file. */
export interface HookInspection {
  readonly path: string;
  readonly kind: BinaryKind;
  readonly size: number;
  readonly sha256: string;
  /** The handler export this host would call (`basis:hook/handler@1.0.0`) and its version, when there is one. */
  readonly world: { readonly handler: string; readonly version: string } | null;
  readonly imports: readonly ImportVerdict[];
  readonly exports: readonly string[];
  /** Whether the host can load it: checked by really loading it (transpile, compile, instantiate). */
  readonly loads: boolean;
  /** Why it does not load (the loader's `load_failed`), when it does not. */
  readonly load_failed?: { readonly code: FailureCode; readonly message: string };
  /** Where a successful load spent its time, in ms. */
  readonly load_ms?: { readonly transpile: number; readonly compile: number; readonly instantiate: number };
}

function splitVersion(name: string): { base: string; version: string } {
  const at = name.lastIndexOf('@');
  return at < 0 ? { base: name, version: '' } : { base: name.slice(0, at), version: name.slice(at + 1) };
}

/**
 * The sandbox's verdict on one import, from the loader's own check ({@link checkWorld}) run on that
 * import alone, so `inspect` can never disagree with a load.
 */
export function importVerdict(name: string): ImportVerdict {
  const check = checkWorld({ imports: [name], exports: [`${HANDLER_INTERFACE}@1.0.0`] });
  if (check.ok) return { name, allowed: true };
  const { base } = splitVersion(name);
  const reason = ALLOWED_IMPORTS.includes(base) ? 'a version this host does not provide' : 'not provided by the sandbox';
  return { name, allowed: false, reason };
}

/**
 * Look at a hook component and try it: kind, size, sha256, world (handler and version), every import
 * with the sandbox's verdict, exports, and whether it loads — by loading it as the host would (and
 * closing it again), so "loads" is a fact, not a prediction. Rejects only when the file cannot be read.
 *
 * @example
 * const report = await inspectHook('build/guard.wasm');
 * if (!report.loads) console.error(report.load_failed?.message);
 */
export async function inspectHook(path: string): Promise<HookInspection> {
  // Imported here: the component transport brings the WebAssembly toolchain with it.
  const { componentTransport, inspectComponent } = await import('../transports/component/index.js');
  const inspected = await inspectComponent(path);
  const handlers = inspected.exports.filter((e) => splitVersion(e).base === HANDLER_INTERFACE);
  const handler = inspected.handler ?? handlers[0];
  const base = {
    path: inspected.path,
    kind: inspected.kind,
    size: inspected.size,
    sha256: inspected.sha256,
    world: handler === undefined ? null : { handler, version: splitVersion(handler).version },
    imports: inspected.imports.map(importVerdict),
    exports: inspected.exports,
  };
  const transport = componentTransport({ path });
  try {
    const info = await transport.load();
    const { transpile, compile, instantiate } = info.timings_ms;
    return { ...base, loads: true, load_ms: { transpile, compile, instantiate } };
  } catch (error) {
    const code: FailureCode = isHookError(error) ? error.code : 'load_failed';
    return { ...base, loads: false, load_failed: { code, message: error instanceof Error ? error.message : String(error) } };
  } finally {
    await transport.close();
  }
}
