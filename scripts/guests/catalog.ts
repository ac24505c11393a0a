/**
 * Every guest the repository builds — the example policies in every language, the conformance guests,
 * the misbehaving WAT guests — as the manifests the authoring kit builds (`buildHook` from
 * `basis-hooks/kit`, the code behind `basis-hooks build`). A guest that builds here builds the same
 * way for a user; nothing below compiles anything itself.
 *
 * A guest's manifest paths are relative to its language's directory under `guest-examples/`, and its
 * component lands at `guest-examples/<lang>/<manifest.out>`.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { HookManifest } from '../../host/kit/manifest.js';

/** Repository root, with a trailing slash. */
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The guest groups `npm run build-guests -- <group>` knows, in build order. */
export const GUEST_GROUPS = ['wat', 'js', 'ts', 'rust', 'c', 'assemblyscript'] as const;
export type GuestGroup = (typeof GUEST_GROUPS)[number];

/**
 * The conformance behaviours a component guest implements: every behaviour of the suite
 * (test/conformance/behaviours.ts, which a test checks this against) but `silent`, which a component
 * cannot express (it always returns a result).
 */
export const GUEST_BEHAVIOURS = [
  'allow',
  'deny',
  'modify-wrap',
  'replace-wrap',
  'replace-error',
  'replace-ok',
  'deny-if-wrapped',
  'probe',
  'empty-deny-reason',
  'malformed',
  'hang',
  'crash',
  'oversized',
] as const;

/**
 * What the compiled-language guests (C, Rust, AssemblyScript) build: every behaviour above plus
 * `guest-error`, a guest returning `err(...)`, which pins the err layout of `result<decision, string>`.
 * The order matters to AssemblyScript, whose conformance source numbers the behaviours in this order.
 */
export const COMPILED_GUEST_BEHAVIOURS = [...GUEST_BEHAVIOURS, 'guest-error'] as const;

/** One guest: the manifest the kit builds, and where. */
export interface Guest {
  readonly group: GuestGroup;
  /** Unique, stable: `c/guard`, `rust/std/conformance/allow`; also the prebuilt key after the group. */
  readonly key: string;
  /** The directory the manifest's paths are relative to. */
  readonly dir: string;
  readonly manifest: HookManifest;
  /** Absolute path of the component. */
  readonly out: string;
  /**
   * Files besides the manifest's own that the build reads (modules a JS entry imports, headers, `#[path]`
   * modules), relative to `dir`: part of the up-to-date check.
   */
  readonly inputs: readonly string[];
}

export const GUEST_DIR: Readonly<Record<GuestGroup, string>> = Object.fromEntries(GUEST_GROUPS.map((g) => [g, join(ROOT, 'guest-examples', g)])) as Record<GuestGroup, string>;

/** Build output of a group (`guest-examples/<group>/build`). */
export function buildDir(group: GuestGroup): string {
  return join(GUEST_DIR[group], 'build');
}

/** Committed prebuilt copies, for the groups whose toolchain is not on npm. */
export const PREBUILT_DIR: Readonly<Partial<Record<GuestGroup, string>>> = {
  c: join(GUEST_DIR.c, 'prebuilt'),
  rust: join(GUEST_DIR.rust, 'prebuilt'),
};

const base = { manifest: 1 } as const;

function guest(group: GuestGroup, out: string, manifest: HookManifest, inputs: readonly string[] = []): Guest {
  const relativeOut = `build/${out}.wasm`;
  return { group, key: `${group}/${out}`, dir: GUEST_DIR[group], manifest: { ...manifest, out: relativeOut }, out: join(GUEST_DIR[group], relativeOut), inputs };
}

/** `modify-wrap` → `BEHAVIOUR_MODIFY_WRAP` (the C conformance source's switch). */
export function behaviourDefine(behaviour: string): string {
  return `BEHAVIOUR_${behaviour.toUpperCase().replaceAll('-', '_')}`;
}

const POLICIES = ['guard', 'redact'] as const;
const EVENT = { guard: 'pre_tool_use', redact: 'post_tool_use' } as const;
const JS_ENGINES = ['spidermonkey', 'quickjs'] as const;

function watGuests(): Guest[] {
  const wat = (out: string, source: string, world?: string): Guest =>
    guest('wat', out, {
      ...base,
      name: out.replaceAll('/', '-'),
      event: 'pre_tool_use',
      lang: 'wat',
      source,
      prelude: 'prelude.wat',
      ...(world === undefined ? {} : { world: { wit: 'wit/guests.wit', name: world } }),
    }, world === undefined ? [] : ['wit/guests.wit']);
  return [
    ...GUEST_BEHAVIOURS.map((b) => wat(`conformance/${b}`, `conformance/${b}.wat`)),
    ...['memory-bomb', 'deep-recursion', 'err', 'wrong-event', 'counter'].map((g) => wat(g, `misbehaviour/${g}.wat`)),
    wat('wasi-probe', 'misbehaviour/wasi-probe.wat', 'wasi-probe'),
    wat('stdio', 'misbehaviour/stdio.wat', 'stdio'),
    wat('stdin-exit', 'misbehaviour/stdin-exit.wat', 'stdin-exit'),
    wat('sockets-import', 'misbehaviour/sockets-import.wat', 'sockets'),
    wat('http-import', 'misbehaviour/http-import.wat', 'http'),
    ...POLICIES.map((p) => wat(p, `policies/${p}.wat`)),
  ];
}

function jsGuests(): Guest[] {
  const out: Guest[] = [];
  for (const engine of JS_ENGINES) {
    for (const policy of POLICIES) {
      out.push(guest('js', `${engine}/${policy}`, { ...base, name: policy, event: EVENT[policy], lang: 'js', source: `${policy}.js`, engine }));
    }
    // One component for every behaviour: each hook is granted its behaviour as BASIS_BEHAVIOUR.
    out.push(guest('js', `${engine}/conformance`, { ...base, name: 'conformance', event: 'pre_tool_use', lang: 'js', source: 'conformance/by-env.js', engine }, ['conformance/behaviours.js']));
  }
  // The policy of examples/one-policy (docs/one-policy-every-agent.md), built where its own hook.json
  // says, as `basis-hooks build examples/one-policy` does: the component twin of its command hook.
  const example = join(ROOT, 'examples', 'one-policy');
  out.push({
    group: 'js',
    key: 'js/example/no-rm-rf',
    dir: example,
    manifest: { ...base, name: 'no-rm-rf', event: 'pre_tool_use', lang: 'js', source: 'no-rm-rf.js', engine: 'quickjs', out: 'build/no-rm-rf.wasm' },
    out: join(example, 'build', 'no-rm-rf.wasm'),
    inputs: [],
  });
  out.push(workspacePolicy());
  return out;
}

/**
 * examples/policies/component: the workspace policy the Cedar and CEL examples also implement, as a
 * component (JavaScript on QuickJS), built where its hooks.json expects it.
 */
function workspacePolicy(): Guest {
  const dir = join(ROOT, 'examples/policies/component');
  const manifest: HookManifest = { ...base, name: 'workspace-policy', event: 'pre_tool_use', lang: 'js', source: 'policy.js', engine: 'quickjs', out: 'build/workspace-policy.wasm' };
  return { group: 'js', key: 'js/examples/workspace-policy', dir, manifest, out: join(dir, 'build/workspace-policy.wasm'), inputs: [] };
}

function tsGuests(): Guest[] {
  return JS_ENGINES.flatMap((engine) =>
    POLICIES.map((policy) => guest('ts', `${engine}/${policy}`, { ...base, name: policy, event: EVENT[policy], lang: 'ts', source: `${policy}.ts`, tsconfig: 'tsconfig.json', engine }, ['guard.ts', 'redact.ts'])),
  );
}

const C_GLUE = ['glue/basis_hook.h', 'glue/basis_hook.c'];

function cGuests(): Guest[] {
  const c = (out: string, source: string, defines: readonly string[]): Guest =>
    guest('c', out, { ...base, name: out.replaceAll('/', '-'), event: 'pre_tool_use', lang: 'c', sources: [source, 'glue/basis_hook.c'], include: ['glue'], ...(defines.length === 0 ? {} : { defines: [...defines] }) }, C_GLUE);
  return [...POLICIES.map((p) => c(p, `src/${p}.c`, [])), ...COMPILED_GUEST_BEHAVIOURS.map((b) => c(`conformance/${b}`, 'src/conformance.c', [behaviourDefine(b)]))];
}

export const RUST_FLAVOURS = ['std', 'nostd'] as const;

function rustGuests(): Guest[] {
  const rust = (flavour: (typeof RUST_FLAVOURS)[number], out: string, source: string, inputs: readonly string[], cfg: readonly string[]): Guest =>
    guest('rust', `${flavour}/${out}`, { ...base, name: out.replaceAll('/', '-'), event: 'pre_tool_use', lang: 'rust', source, flavour, ...(cfg.length === 0 ? {} : { cfg: [...cfg] }) }, ['glue/basis_hook.rs', ...inputs]);
  return RUST_FLAVOURS.flatMap((flavour) => [
    ...POLICIES.map((p) => rust(flavour, p, `hooks/${p}.rs`, ['hooks/scan.rs'], [])),
    ...COMPILED_GUEST_BEHAVIOURS.map((b) => rust(flavour, `conformance/${b}`, 'conformance/conformance.rs', [], [`behaviour="${b}"`])),
  ]);
}

function assemblyScriptGuests(): Guest[] {
  const as = (out: string, source: string, use: readonly string[]): Guest =>
    guest('assemblyscript', out, { ...base, name: out.replaceAll('/', '-'), event: 'pre_tool_use', lang: 'assemblyscript', source, ...(use.length === 0 ? {} : { use: [...use] }) }, ['glue/hook.ts']);
  return [...POLICIES.map((p) => as(p, `src/${p}.ts`, [])), ...COMPILED_GUEST_BEHAVIOURS.map((b, index) => as(`conformance/${b}`, 'src/conformance.ts', [`BEHAVIOUR=${index}`]))];
}

/** Every guest, by group. */
export const GUESTS: Readonly<Record<GuestGroup, readonly Guest[]>> = {
  wat: watGuests(),
  js: jsGuests(),
  ts: tsGuests(),
  rust: rustGuests(),
  c: cGuests(),
  assemblyscript: assemblyScriptGuests(),
};

/** A guest by key (`c/guard`); throws for an unknown one. */
export function guestByKey(key: string): Guest {
  for (const group of GUEST_GROUPS) {
    const found = GUESTS[group].find((g) => g.key === key);
    if (found !== undefined) return found;
  }
  throw new Error(`no guest ${key}`);
}

/** Absolute path of a built guest component, by key (`rust/std/guard` → …/rust/build/std/guard.wasm). */
export function guestPath(key: string): string {
  return guestByKey(key).out;
}

/** The key of a guest inside its group's prebuilt directory (`std/guard`). */
export function prebuiltKey(guest: Guest): string {
  return guest.key.slice(guest.group.length + 1);
}
