import type { ComponentWorld } from '../../engine/compile/world.js';

export { parseWorld, type ComponentWorld } from '../../engine/compile/world.js';

/**
 * What a component imports and exports, and whether this host can run it: the handler's schema version
 * (the first thing a hook author sees when it is wrong) and the import allowlist — the sandbox
 * provides these interfaces and nothing else, so a component that imports sockets, HTTP or anything
 * unknown is refused before it is instantiated.
 */


/** The handler interface this host calls, and the major version of it that it supports. */
export const HANDLER_INTERFACE = 'basis:hook/handler';
export const SUPPORTED_HANDLER_MAJOR = 1;

/** The WASI release line the sandbox implements (0.2.x: imports are compatible across patch releases). */
export const SUPPORTED_WASI = '0.2';

/**
 * Interfaces a guest may import (without version). `basis:hook/types` carries only types. WASI: cli
 * (environment, exit, stdio, terminals), io, clocks, random, filesystem — all deny-by-default in
 * the sandbox (empty environment, no preopens, captured stdio). Sockets and HTTP are not here.
 */
export const ALLOWED_IMPORTS: readonly string[] = [
  'basis:hook/types',
  'wasi:cli/environment',
  'wasi:cli/exit',
  'wasi:cli/stdin',
  'wasi:cli/stdout',
  'wasi:cli/stderr',
  'wasi:cli/terminal-input',
  'wasi:cli/terminal-output',
  'wasi:cli/terminal-stdin',
  'wasi:cli/terminal-stdout',
  'wasi:cli/terminal-stderr',
  'wasi:io/error',
  'wasi:io/poll',
  'wasi:io/streams',
  'wasi:clocks/monotonic-clock',
  'wasi:clocks/wall-clock',
  'wasi:random/random',
  'wasi:random/insecure',
  'wasi:random/insecure-seed',
  'wasi:filesystem/types',
  'wasi:filesystem/preopens',
];


function splitVersion(name: string): { base: string; version: string | undefined } {
  const at = name.lastIndexOf('@');
  return at < 0 ? { base: name, version: undefined } : { base: name.slice(0, at), version: name.slice(at + 1) };
}

/** Why a world cannot run here, or the exact export name of its handler. */
export type WorldCheck = { readonly ok: true; readonly handler: string } | { readonly ok: false; readonly message: string };

/**
 * Check the handler export first (a version mismatch is the most useful thing to tell an author),
 * then every import against {@link ALLOWED_IMPORTS}. Refused imports are all named at once.
 */
export function checkWorld(world: ComponentWorld): WorldCheck {
  const handlers = world.exports.filter((e) => splitVersion(e).base === HANDLER_INTERFACE);
  const supported = handlers.find((e) => splitVersion(e).version?.split('.')[0] === String(SUPPORTED_HANDLER_MAJOR));
  if (supported === undefined) {
    if (handlers.length > 0) {
      return {
        ok: false,
        message: `the component exports ${handlers.join(', ')}; this host supports ${HANDLER_INTERFACE}@${SUPPORTED_HANDLER_MAJOR}.x (rebuild it against wit/hook.wit, basis:hook@1.0.0)`,
      };
    }
    const has = world.exports.length === 0 ? 'nothing' : world.exports.join(', ');
    return { ok: false, message: `the component does not export ${HANDLER_INTERFACE}@1.0.0 (it exports ${has})` };
  }

  const refused: string[] = [];
  for (const name of world.imports) {
    const { base, version } = splitVersion(name);
    if (!ALLOWED_IMPORTS.includes(base)) {
      refused.push(`${name} (not provided by the sandbox)`);
    } else if (base.startsWith('wasi:') && !(version !== undefined && (version === SUPPORTED_WASI || version.startsWith(`${SUPPORTED_WASI}.`)))) {
      refused.push(`${name} (this host provides WASI ${SUPPORTED_WASI}.x)`);
    } else if (base === 'basis:hook/types' && version?.split('.')[0] !== String(SUPPORTED_HANDLER_MAJOR)) {
      refused.push(`${name} (this host supports basis:hook@${SUPPORTED_HANDLER_MAJOR}.x)`);
    }
  }
  if (refused.length > 0) {
    return { ok: false, message: `the component imports ${refused.join(', ')}; refused: a hook may import only ${ALLOWED_IMPORTS.join(', ')}` };
  }
  return { ok: true, handler: supported };
}
