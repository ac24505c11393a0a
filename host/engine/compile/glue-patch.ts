/**
 * What the host changes in jco's generated glue before it runs it, and why. Each change is a textual
 * patch on the glue of the one jco version the cache key names (`jco-transpile@…`); a glue whose text
 * does not have the shape a patch expects is refused (`GluePatchError`, the load fails), never run
 * unpatched. Every patch is one of:
 *
 * 1. **Quiet**: the glue's debug logging (it would print guest data on the host's stdout when the
 *    host's environment has `JCO_DEBUG`) becomes a plain return.
 * 2. **Strict strings**: its `TextDecoder`s are made fatal (not UTF-8 → `malformed_response`, as from
 *    a subprocess, never U+FFFD the guest did not write).
 * 3. **Bounded lifts** (wasi/host-calls.ts): every length the glue takes from the guest — a list or
 *    string argument of a host call, a string of `handle`'s answer, a copy between the component's
 *    inner memories — goes through the sandbox's `lift` first, which refuses it past a cap or charges
 *    its predicted time against the call's deadline. Anything else that reads a length from the guest
 *    (a list nested in a list, a record argument passed by pointer, component-model async) is
 *    refused: the sandbox's world has none of it, so only a component written to attack the glue would.
 * 4. **Bounded, observable handle tables**: a handle table stops growing at `MAX_HANDLE_ENTRIES`
 *    (handles a component makes for its own resources would otherwise fill the host's heap), the
 *    tables are handed to the host (state resets put them back: instance/snapshot.ts), and jco's set of every
 *    handle ever created (written, never read) is no longer kept.
 */
import { GLUE_HOST_KEY, MAX_HANDLE_ENTRIES, type LiftKind } from '../wasi/host-calls.js';

/** The glue is not shaped the way this host's patches expect: it is not run. */
export class GluePatchError extends Error {
  override readonly name = 'GluePatchError' as const;
}

/** The local through which the patched glue reaches the sandbox's glue host. */
const HOST = '$basisHooksGlue';

function refuse(message: string): never {
  throw new GluePatchError(`the transpiled glue cannot be bounded by this host: ${message}`);
}

/** The one jco debug check, made a plain return (other jco versions that spell it differently are left as they are). */
function quiet(text: string): string {
  return text.replace('if (!globalThis?.process?.env?.JCO_DEBUG) { return; }', 'return;');
}

/** Fatal decoders that keep a leading U+FEFF; a decoder this does not recognise is refused rather than run lenient. */
function strictDecoders(text: string): string {
  const patched = text
    .replaceAll('new TextDecoder()', "new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })")
    .replaceAll("new TextDecoder('utf-16')", "new TextDecoder('utf-16', { fatal: true, ignoreBOM: true })");
  const lenient = patched.match(/new TextDecoder\((?![^)]*fatal: true)[^)]*\)/);
  if (lenient !== null) throw new GluePatchError(`the glue makes a string decoder the host cannot make strict: ${lenient[0]}`);
  return patched;
}

const ENTRY = 'export function instantiate(getCoreModule, imports, instantiateCore = WebAssembly.instantiate) {';

/** The glue host, taken from the imports once, at the top of `instantiate` (everything in the glue is inside it). */
function declareHost(text: string): string {
  if (text.split(ENTRY).length !== 2) refuse('its instantiate() is not the one jco writes');
  return text.replace(
    ENTRY,
    `${ENTRY}\n  const ${HOST} = imports[${JSON.stringify(GLUE_HOST_KEY)}];\n  if (${HOST} === undefined) throw new TypeError('the sandbox gave no glue host');`,
  );
}

/** Lengths the glue computes from host values (what the host lowers into the guest): not the guest's. */
const HOST_LENGTH = [/^encodeRes\.len$/, /^(?:val|vec)\d+\.length$/, /^Array\.isArray\((val\d+)\) \? \1\.length : \1\.byteLength$/];
/** A flat argument of a host call: a list or string argument's length. */
const PARAM_LENGTH = /^arg\d+$/;
/** A length read from the result area of an export (`handle`'s answer). */
const ANSWER_LENGTH = /^dataView\(memory\d+\)\.getUint32\(ret \+ \d+, true\)$/;

const TYPED = '(?:Int8|Uint8|Int16|Uint16|Int32|Uint32|Float32|Float64|BigInt64|BigUint64)';

/** How the code after a length's assignment uses it: what is lifted, and the size of one counted unit. */
function liftedAs(text: string, name: string, from: number): { readonly what: 'text' | 'bytes' | 'elements'; readonly unit: number } | undefined {
  const use = new RegExp(`\\b${name}\\b`).exec(text.slice(from));
  if (use === null) return undefined;
  const lineStart = text.lastIndexOf('\n', from + use.index) + 1;
  const lineEnd = text.indexOf('\n', from + use.index);
  const line = text.slice(lineStart, lineEnd < 0 ? undefined : lineEnd).trim();
  const decoded = new RegExp(`^var result\\d+ = \\w+\\.decode\\(new Uint(8|16)Array\\(memory\\d+\\.buffer, ptr\\d+, ${name}\\)\\);$`).exec(line);
  if (decoded !== null) return { what: 'text', unit: decoded[1] === '16' ? 2 : 1 };
  const sliced = new RegExp(`^var result\\d+ = new ${TYPED}Array\\(memory\\d+\\.buffer\\.slice\\(ptr\\d+, ptr\\d+ \\+ ${name} \\* (\\d+)\\)\\);$`).exec(line);
  if (sliced !== null) return { what: 'bytes', unit: Number(sliced[1]) };
  if (line === `for (let i = 0; i < ${name}; i++) {`) return { what: 'elements', unit: 1 };
  return undefined;
}

/** The host call a trampoline's code at `at` belongs to, as the WIT names it (from jco's debug line after it). */
function siteAt(text: string, at: number): string {
  const rest = text.slice(at);
  const logged = /_debugLog\('\[iface="([^"]*)", function="([^"]*)"\]/.exec(rest);
  if (logged !== null) return `${logged[1] ?? ''}#${logged[2] ?? ''}`;
  return /_trampoline\d+\.fnName = '([^']*)';/.exec(rest)?.[1] ?? 'a host call';
}

/** Every guest-sized length of a lift goes through the host's `lift`; any other guest-sized length is refused. */
function boundLifts(text: string): string {
  let out = '';
  let last = 0;
  for (const match of text.matchAll(/var (len\d+) = ([^;\n]+);/g)) {
    const [whole, name = '', source = ''] = match;
    const at = match.index;
    if (HOST_LENGTH.some((form) => form.test(source))) continue;
    const param = PARAM_LENGTH.test(source);
    if (!param && !ANSWER_LENGTH.test(source)) refuse(`it reads a length from the guest as \`${source}\` (${siteAt(text, at)})`);
    const lifted = liftedAs(text, name, at + whole.length);
    if (lifted === undefined) refuse(`it uses the guest's length ${name} (${source}) in a way the host does not know (${siteAt(text, at)})`);
    let kind: LiftKind;
    if (param) kind = lifted.what === 'text' ? 'param-text' : lifted.what === 'bytes' ? 'param-bytes' : 'param-elements';
    else if (lifted.what === 'elements') refuse(`handle's answer holds a list lifted element by element, which the hook world has not`);
    else kind = lifted.what === 'text' ? 'answer-text' : 'answer-bytes';
    const site = param ? siteAt(text, at) : 'answer';
    out += `${text.slice(last, at)}var ${name} = ${HOST}.lift(${source}, '${kind}', ${lifted.unit}, ${JSON.stringify(site)});`;
    last = at + whole.length;
  }
  return out + text.slice(last);
}

/** How jco's glue defines trampolines; each known form is bounded (or constant), any other is refused. */
const TRAMPOLINE = /^[ \t]*(?:const|let|var|function)\s+_?trampoline\d+\b[^\n]*$/gm;
const CONSTANT_TRAMPOLINES = [
  /^const _trampoline\d+ = function\((?:arg\d+(?:, arg\d+)*)?\) \{$/, // an import: its lifts are bounded by boundLifts
  /^let trampoline\d+ = _trampoline\d+\.manuallyAsync \? new WebAssembly\.Suspending\(_suspendingImport\(\d+, _lowerImportBackwardsCompat\.bind\($/,
  /^function trampoline\d+\(handle\) \{$/, // resource.drop / resource.rep
  /^function trampoline\d+\(\) \{$/, // a trap the adapter raises (checked below)
  /^const trampoline\d+ = _symmetricSyncGuestCall(?:Enter|Exit);$/, // a call between inner components
];
const COPY_TRAMPOLINE = /^function trampoline\d+\((from_ptr, len, to_ptr|src, src_len, dst, dst_len)\) \{$/;

/** Refuse trampolines of unknown forms; make the copies between inner memories go through `lift`. */
function boundTrampolines(text: string): string {
  return text.replace(TRAMPOLINE, (line, offset: number) => {
    const code = line.trim();
    if (/^function trampoline\d+\(\) \{$/.test(code) && !/^\s*throw new WebAssemblyRuntimeError\(/.test(text.slice(offset + line.length + 1))) {
      refuse(`a trampoline without arguments does something other than trap: ${code}`);
    }
    if (CONSTANT_TRAMPOLINES.some((form) => form.test(code))) return line;
    const copy = COPY_TRAMPOLINE.exec(code);
    if (copy === null) refuse(`a trampoline of a form the host does not know: ${code}`);
    const body = text.slice(offset + line.length, text.indexOf('\n  }', offset));
    const length = copy[1] === 'from_ptr, len, to_ptr' ? 'len' : 'src_len';
    const unit = /Uint16Array\(memory\d+\.buffer, (?:from_ptr|src),/.test(body) ? 2 : 1;
    const kind: LiftKind = /\.decode\(|fromCharCode|encodeInto/.test(body) ? 'copy-text' : 'copy-bytes';
    return `${line}\n    ${HOST}.lift(${length}, '${kind}', ${unit}, 'copy');`;
  });
}

/** Component-model async (P3) lowering or lifting: its lengths, tasks and streams are not bounded here. */
function refuseAsync(text: string): string {
  const found = /\b(?:isAsync|funcTypeIsAsync): true\b/.exec(text);
  if (found !== null) refuse(`the component uses component-model async (${found[0]}), which the sandbox does not run`);
  return text;
}

/** Cap every handle table, drop jco's write-only set of created handles, and hand the tables to the host. */
function boundHandleTables(text: string): string {
  const tables = [...text.matchAll(/const handleTable(\d+) = \[T_FLAG, 0\];/g)].map((m) => m[1] ?? '');
  if (tables.length === 0) return text;
  for (const n of tables) {
    if (!text.includes(`HANDLE_TABLES[${n}] = handleTable${n};`)) refuse(`handle table ${n} is not in HANDLE_TABLES`);
  }
  if (/handleTable\d+\.push\(/.test(text)) refuse('it grows a handle table outside rscTableCreateOwn/Borrow');
  const reads = text.replaceAll(/handleTable\d+\._createdReps = new Set\(\);/g, '').replaceAll('table._createdReps.add(rep);', '');
  if (reads.includes('_createdReps')) refuse('it reads its set of created handles');
  let patched = text.replaceAll('table._createdReps.add(rep);', '');
  const cap = `if (table.length >= ${2 * MAX_HANDLE_ENTRIES}) ${HOST}.tooManyHandles(table.length >> 1);`;
  for (const create of ['function rscTableCreateOwn(table, rep) {', 'function rscTableCreateBorrow(table, rep, scopeId) {']) {
    const count = patched.split(create).length - 1;
    if (count > 1) refuse(`it defines ${create} more than once`);
    patched = patched.replace(create, `${create}\n    ${cap}`);
  }
  if (!patched.includes(`${2 * MAX_HANDLE_ENTRIES}) ${HOST}.tooManyHandles`)) refuse('it makes handle tables without rscTableCreateOwn');
  const declaration = 'const HANDLE_TABLES= [];';
  if (patched.split(declaration).length !== 2) refuse('it does not declare HANDLE_TABLES once');
  return patched.replace(declaration, `${declaration}\n${HOST}.handleTables(HANDLE_TABLES, T_FLAG);`);
}

/** Apply every patch (see the module comment) to jco's glue: the glue the host runs. Throws {@link GluePatchError}. */
export function patchGlue(glue: Uint8Array): Uint8Array {
  let text = new TextDecoder('utf-8', { fatal: true }).decode(glue);
  text = quiet(text);
  text = strictDecoders(text);
  text = refuseAsync(text);
  text = boundTrampolines(text);
  text = boundLifts(text);
  text = boundHandleTables(text);
  text = declareHost(text);
  return new TextEncoder().encode(text);
}
