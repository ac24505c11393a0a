/**
 * Discovery: can this component's export be called directly, and through which core exports?
 *
 * jco's transpiled glue (instantiation mode) is the source: it says which core instance exports the
 * lifted function, the memory, `cabi_realloc` and the post-return it uses — in a QuickJS guest the
 * function and its memory live in different core instances — and in which order it instantiates the
 * core modules. The planner reads exactly that, checks that the glue lowers and lifts with the
 * layout the binding expects ({@link DirectPlanSpec}) in UTF-8, and that the core modules export what
 * it names. Any other shape (another jco's glue, another encoding, another layout, an async lift) is
 * "not direct-callable": the instance keeps calling through jco's glue.
 */
import * as z from 'zod';
import { Wasm, type WasmModule } from '../wasm-api.js';
import type { DirectPlanSpec } from './binding.js';

/** A core export: the `instance`-th core instance the glue makes (in call order), and the export's name. */
const CoreRefSchema = z.strictObject({
  instance: z.number().int().nonnegative(),
  /** The core module it is an instance of, by the name the glue asks for (`hook.core4.wasm`). */
  module: z.string(),
  name: z.string(),
});
export type CoreRef = z.infer<typeof CoreRefSchema>;

/**
 * The canon options of the lifted function, as core exports, and the glue's instantiation order —
 * plain data, so the host plans once at load time and sends the plan to each worker in its `init`
 * message (validated there like the rest of it).
 */
export const DirectPlanSchema = z.strictObject({
  fn: CoreRefSchema,
  memory: CoreRefSchema,
  realloc: CoreRefSchema,
  /** Absent when the component declares no post-return. */
  postReturn: CoreRefSchema.optional(),
  encoding: z.literal('utf8'),
  /** jco's index of the component that exports the function (its "may leave" flag is `instance<N>`). */
  componentIdx: z.number().int().nonnegative(),
  /** The module names of every `instantiateCore` call, in order. */
  instantiations: z.array(z.string()).readonly(),
});
export type DirectPlan = z.infer<typeof DirectPlanSchema>;

export type PlanResult = { readonly ok: true; readonly plan: DirectPlan } | { readonly ok: false; readonly reason: string };

function no(reason: string): PlanResult {
  return { ok: false, reason };
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The body of `function <name>(arg0) {`…`}` (ends at the line closing it at the same indentation). */
function functionBody(glue: string, name: string): string | undefined {
  const head = new RegExp(`^( *)function ${escape(name)}\\(arg0\\) \\{$`, 'm').exec(glue);
  if (head === null) return undefined;
  const indent = head[1] ?? '';
  const start = head.index + head[0].length;
  const end = glue.indexOf(`\n${indent}}\n`, start);
  return end < 0 ? undefined : glue.slice(start, end);
}

/** `<variable> = exportsK.name;` or `<variable> = exportsK['name'];` → [K, name]. */
function assignment(glue: string, variable: string): [number, string] | undefined {
  const re = new RegExp(`^\\s*${escape(variable)} = exports(\\d+)(?:\\.([A-Za-z_$][\\w$]*)|\\['([^'\\\\]+)'\\]);$`, 'gm');
  const found = [...glue.matchAll(re)];
  if (found.length !== 1) return undefined;
  const m = found[0];
  if (m === undefined) return undefined;
  return [Number(m[1]), m[2] ?? m[3] ?? ''];
}

function accesses(body: string, base: 'ptr0' | 'ret', memory: string): string[] | undefined {
  const re = new RegExp(`dataView\\(([\\w$]+)\\)\\.(\\w+)\\(${base} \\+ (\\d+)`, 'g');
  const out = new Set<string>();
  for (const m of body.matchAll(re)) {
    if (m[1] !== memory) return undefined;
    out.add(`${m[2]}@${m[3]}`);
  }
  return [...out].sort();
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  const x = [...new Set(a)].sort();
  const y = [...new Set(b)].sort();
  return x.length === y.length && x.every((v, i) => v === y[i]);
}

/**
 * Find the canon options of `exportKey`'s function `fn` in jco's glue source (`exportKey` is the
 * export's key, e.g. `basis:hook/handler@1.0.0`), checked against `spec`. With `modules`, also check
 * that the named core modules export what the glue takes from them (a function, a memory).
 */
export function planDirectCall(glue: string, exportKey: string, fn: string, spec: DirectPlanSpec, modules?: Readonly<Record<string, WasmModule>>): PlanResult {
  const ret = new RegExp(`'${escape(exportKey)}': ([\\w$]+)`).exec(glue);
  if (ret?.[1] === undefined) return no(`the glue exports no ${exportKey}`);
  const object = new RegExp(`const ${escape(ret[1])} = \\{\\s*${escape(fn)}: ([\\w$]+),\\s*\\};`).exec(glue);
  if (object?.[1] === undefined) return no(`the glue's ${exportKey} is not an object with exactly one function, ${fn}`);
  const body = functionBody(glue, object[1]);
  if (body === undefined) return no(`cannot find the glue's function ${object[1]}`);

  if (/\bisAsync: true\b/.test(body) || /callbackFn(?:Name)?: (?!null)/.test(body)) return no(`${fn} is lifted async`);
  const component = /getOrCreateAsyncState\((\d+)\)\.throwIfTrapped\(\)/.exec(body);
  if (component?.[1] === undefined) return no(`the glue does not check the instance before calling ${fn}`);
  const record = new RegExp(`var ptr0 = ([\\w$]+)\\(0, 0, 4, ${spec.recordSize}\\);`).exec(body);
  if (record?.[1] === undefined) return no(`the glue does not allocate a ${spec.recordSize}-byte argument record`);
  const realloc = record[1];
  const lowered = [...body.matchAll(/_utf8AllocateAndEncode\([\w$]+, ([\w$]+), ([\w$]+)\)/g)];
  if (lowered.length !== spec.strings) return no(`the glue lowers ${lowered.length} UTF-8 strings, not the record's ${spec.strings}`);
  const memory = lowered[0]?.[2];
  if (memory === undefined || lowered.some((m) => m[1] !== realloc || m[2] !== memory)) return no('the argument strings are lowered with different realloc/memory pairs');
  if (/_utf16|latin1|utf16/i.test(body)) return no('the glue uses a string encoding other than UTF-8');
  const decodes = [...body.matchAll(/TEXT_DECODER_UTF8\.decode\(new Uint8Array\(([\w$]+)\.buffer/g)];
  if (decodes.length !== spec.liftedStrings || decodes.some((m) => m[1] !== memory)) return no(`the result strings are not lifted as ${spec.liftedStrings} UTF-8 strings from the same memory`);
  const lowering = accesses(body, 'ptr0', memory);
  if (lowering === undefined || !sameSet(lowering, spec.loweringAccesses)) return no('the argument record has another layout');
  const lifting = accesses(body, 'ret', memory);
  if (lifting === undefined || !sameSet(lifting, spec.liftingAccesses)) return no('the result has another layout');
  const call = /fn: \(\) => ([\w$]+)\(ptr0\),/.exec(body);
  if (call?.[1] === undefined) return no(`cannot find the core call of ${fn}`);
  const post = /cstate\.mayLeave = false;\s*([\w$]+)\(ret\);\s*cstate\.mayLeave = true;/.exec(body);
  if (post === null && /\bpostReturn/.test(body)) return no('the glue calls a post-return in a way not understood');

  const refs = new Map<string, [number, string]>();
  for (const [what, variable] of [['function', call[1]], ['memory', memory], ['realloc', realloc], ['post-return', post?.[1]]] as const) {
    if (variable === undefined) continue;
    const found = assignment(glue, variable);
    if (found === undefined) return no(`the ${what} (${variable}) is not taken from a core instance's exports`);
    refs.set(what, found);
  }

  const moduleNames = new Map<string, string>();
  for (const m of glue.matchAll(/const (module\d+) = getCoreModule\('([^'\\]+)'\);/g)) if (m[1] !== undefined && m[2] !== undefined) moduleNames.set(m[1], m[2]);
  const order: Array<[number, string]> = [];
  for (const m of glue.matchAll(/\(\{ exports: exports(\d+) \} = yield instantiateCore\(yield (module\d+)\b/g)) {
    const name = m[2] === undefined ? undefined : moduleNames.get(m[2]);
    if (name === undefined) return no(`instance exports${m[1]} is of a module the glue does not load by name`);
    order.push([Number(m[1]), name]);
  }
  if ((glue.match(/instantiateCore\(/g) ?? []).length !== order.length + countSignatureMentions(glue)) return no('the glue instantiates core modules in a way not understood');
  const instantiations = order.map(([, name]) => name);

  const ref = (what: string): CoreRef | undefined => {
    const found = refs.get(what);
    if (found === undefined) return undefined;
    const [exportsIdx, name] = found;
    const instance = order.findIndex(([k]) => k === exportsIdx);
    const entry = order[instance];
    if (entry === undefined) return undefined;
    return { instance, module: entry[1], name };
  };
  const fnRef = ref('function');
  const memoryRef = ref('memory');
  const reallocRef = ref('realloc');
  const postRef = post === null ? undefined : ref('post-return');
  if (fnRef === undefined || memoryRef === undefined || reallocRef === undefined || (post !== null && postRef === undefined)) {
    return no('an export the call needs comes from an instance the glue does not make');
  }
  const plan: DirectPlan = {
    fn: fnRef,
    memory: memoryRef,
    realloc: reallocRef,
    ...(postRef === undefined ? {} : { postReturn: postRef }),
    encoding: 'utf8',
    componentIdx: Number(component[1]),
    instantiations,
  };
  if (modules !== undefined) {
    const problem = checkModules(plan, modules);
    if (problem !== undefined) return no(problem);
  }
  return { ok: true, plan };
}

/** `instantiateCore(` also appears in the glue's own signature and its default: not calls. */
function countSignatureMentions(glue: string): number {
  return (glue.match(/instantiateCore\((?!yield )/g) ?? []).length;
}

function checkModules(plan: DirectPlan, modules: Readonly<Record<string, WasmModule>>): string | undefined {
  const want: Array<[CoreRef | undefined, 'function' | 'memory']> = [
    [plan.fn, 'function'],
    [plan.memory, 'memory'],
    [plan.realloc, 'function'],
    [plan.postReturn, 'function'],
  ];
  for (const [ref, kind] of want) {
    if (ref === undefined) continue;
    const module = modules[ref.module];
    if (module === undefined) return `the host has no core module ${ref.module}`;
    const exported = moduleExports(module).find((e) => e.name === ref.name);
    if (exported?.kind !== kind) return `core module ${ref.module} does not export the ${kind} ${ref.name}`;
  }
  return undefined;
}

function moduleExports(module: WasmModule): ReadonlyArray<{ name: string; kind: string }> {
  return (Wasm as unknown as { Module: { exports(m: WasmModule): Array<{ name: string; kind: string }> } }).Module.exports(module);
}
