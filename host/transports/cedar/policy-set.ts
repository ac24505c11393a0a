/**
 * A Cedar hook's files, read and checked once at load: the policy set split into its policies (each
 * with its id, effect, `@reason` and line), the schema and the entities — each validated by Cedar
 * itself, its diagnostics reported with file, line and column. Nothing here runs on a call.
 */
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { PolicyError } from '../../errors/policy-error.js';
import { describeDiagnostic, diagnosticsError, lineColumn } from './diagnostics.js';
import type { CedarEngine, CedarEntity } from './engine.js';
import { jsonErrorOffset } from './json-position.js';
import { readHead, type PolicyHead } from './head.js';
import type { ScopeJson } from './scope.js';

/** The default cap on each file of a Cedar hook (see {@link CedarFiles.max_file_bytes}). */
export const DEFAULT_MAX_FILE_BYTES = 1024 * 1024;

/** Where a Cedar hook's policies come from. */
export interface CedarFiles {
  /** The policy set (Cedar's policy language). */
  readonly policies: string;
  /** Entities (Cedar's JSON entity format: an array): who the agents are, their groups and attributes. */
  readonly entities?: string | undefined;
  /** A schema (Cedar's schema language, or its JSON form in a `.json` file). */
  readonly schema?: string | undefined;
  /**
   * The most each file may hold, in bytes (default 1 MiB): the entities are handed to Cedar on every
   * call, so a huge entities file would slow every call; it is refused at load instead.
   */
  readonly max_file_bytes?: number | undefined;
}

/** One policy of the set. */
export interface CedarPolicy {
  /** Its `@id` annotation, else `policy<N>` (N its position in the file, from 0, as Cedar names them). */
  readonly id: string;
  readonly effect: 'permit' | 'forbid';
  /** Its `@reason` annotation: what the model is told when it denies. */
  readonly reason: string | undefined;
  readonly text: string;
  /** Where it starts in the file. */
  readonly line: number;
  readonly column: number;
  /** Its offset in the file's text. */
  readonly offset: number;
  /** Its principal, action and resource constraints, as Cedar's JSON form has them (see scope.ts). */
  readonly scope: ScopeJson;
}

/** Everything a Cedar hook decides with. */
export interface LoadedPolicySet {
  readonly file: string;
  /** The policy set file's text (diagnostics point into it). */
  readonly text: string;
  readonly policies: ReadonlyMap<string, CedarPolicy>;
  /** Policy id → text, as Cedar takes a set. */
  readonly record: Readonly<Record<string, string>>;
  readonly entities: readonly CedarEntity[];
  readonly schema: unknown;
  /** The actions the schema declares (absent without a schema). */
  readonly actions: ReadonlySet<string> | undefined;
  /** The schema's actions with their groups (absent without a schema). */
  readonly schemaActions: Readonly<Record<string, { readonly memberOf?: readonly { readonly id: string; readonly type?: string }[] }>> | undefined;
  /** The digest a hook's `sha256` pins (see {@link policySetDigest}). */
  readonly sha256: string;
  /** Validation warnings Cedar gave (a policy that can never apply, …), one line each. */
  readonly warnings: readonly string[];
}

/** The bytes of each file of a Cedar hook, as read. */
interface Read {
  readonly policies: Buffer;
  readonly entities: Buffer | undefined;
  readonly schema: Buffer | undefined;
}

/**
 * The digest a Cedar hook's `sha256` pins, as `basis-hooks pin` computes it for any hook's files: the
 * policy set's own sha256 when it is the only file; with entities and/or a schema, the sha256 of the
 * files' digests, one lowercase hex line each, in the order policies, entities, schema.
 */
export function policySetDigest(files: { readonly policies: Buffer; readonly entities?: Buffer | undefined; readonly schema?: Buffer | undefined }): string {
  const digests = [files.policies, files.entities, files.schema].filter((bytes): bytes is Buffer => bytes !== undefined).map((bytes) => createHash('sha256').update(bytes).digest('hex'));
  if (digests.length === 1) return digests[0] as string;
  return createHash('sha256').update(digests.map((digest) => `${digest}\n`).join('')).digest('hex');
}

function bytesText(bytes: number): string {
  const mib = bytes / 1024 / 1024;
  if (Number.isInteger(mib)) return `${mib} MiB`;
  return mib >= 1 ? `${mib.toFixed(1)} MiB` : `${Math.ceil(bytes / 1024)} KiB`;
}

async function readCapped(file: string, max: number, what: string): Promise<Buffer> {
  let size: number;
  try {
    size = (await stat(file)).size;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new PolicyError(`${file}: cannot read the ${what} (${code === 'ENOENT' ? 'file not found' : (code ?? String(error))})`, { problem: 'unreadable', location: { file }, cause: error });
  }
  if (size > max) {
    throw new PolicyError(`${file}: the ${what} is ${bytesText(size)}, over the ${bytesText(max)} limit (max_file_bytes)${what === 'entities file' ? ': every call hands Cedar the whole entity set' : ''}`, { problem: 'too_large', location: { file } });
  }
  return readFile(file);
}

/** Read a Cedar hook's files (each capped), and the digest its pin is checked against. */
export async function readCedarFiles(files: CedarFiles): Promise<Read & { readonly sha256: string }> {
  const max = files.max_file_bytes ?? DEFAULT_MAX_FILE_BYTES;
  const policies = await readCapped(files.policies, max, 'policy set');
  const entities = files.entities === undefined ? undefined : await readCapped(files.entities, max, 'entities file');
  const schema = files.schema === undefined ? undefined : await readCapped(files.schema, max, 'schema');
  return { policies, entities, schema, sha256: policySetDigest({ policies, entities, schema }) };
}

function utf8(file: string, bytes: Buffer, what: string): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes).replace(/^\uFEFF/, '');
  } catch (error) {
    throw new PolicyError(`${file}: the ${what} is not UTF-8 text`, { problem: 'syntax', location: { file }, cause: error });
  }
}

/** A JSON file's value, or its syntax error with line and column. */
function parseJson(file: string, text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    // Node 20 names the unexpected token but seldom where it is: the scan finds it.
    const message = (error instanceof Error ? error.message : String(error)).replace(/,? ".*" is not valid JSON$/s, '').replace(/\s*in JSON at position \d+.*$/s, '');
    const offset = jsonErrorOffset(text) ?? text.length;
    const { line, column } = lineColumn(text, offset);
    throw new PolicyError(`${file}:${line}:${column}: the ${what} is not valid JSON (${message})`, { problem: 'syntax', location: { file, line, column }, cause: error });
  }
}

/** Where each policy of `parts` starts in `text` (parts are exact slices of it; identical ones take successive places). */
function offsets(text: string, parts: readonly string[]): number[] {
  const taken = new Set<number>();
  return parts.map((part) => {
    for (let at = text.indexOf(part); at !== -1; at = text.indexOf(part, at + 1)) {
      if (!taken.has(at)) {
        taken.add(at);
        return at;
      }
    }
    return 0;
  });
}

function splitPolicies(engine: CedarEngine, file: string, text: string): CedarPolicy[] {
  const split = engine.policySetTextToParts(text);
  if (split.type === 'failure') throw diagnosticsError('syntax', file, 'the policy set does not parse', split.errors.map((d) => describeDiagnostic(file, text, d)));
  if (split.policy_templates.length > 0) {
    throw new PolicyError(`${file}: the policy set has ${split.policy_templates.length} template(s) (a policy with ?principal or ?resource): templates are not supported in a hook, write each policy out`, { problem: 'syntax', location: { file } });
  }
  const starts = offsets(text, split.policies);
  const ordered = split.policies.map((part, index) => ({ part, offset: starts[index] ?? 0 })).sort((a, b) => a.offset - b.offset);
  const seen = new Map<string, CedarPolicy>();
  return ordered.map(({ part, offset }, index) => {
    const { line, column } = lineColumn(text, offset);
    // Read in JavaScript when the head is a plain form; the engine is asked otherwise (head.ts).
    const json = readHead(part) ?? fromEngine(engine, file, text, part, offset);
    const annotations = json.annotations;
    const given = annotations['id'];
    const id = typeof given === 'string' && given !== '' ? given : `policy${index}`;
    const earlier = seen.get(id);
    if (earlier !== undefined) {
      throw new PolicyError(`${file}:${line}:${column}: policy id ${JSON.stringify(id)} is already the id of the policy at line ${earlier.line}: ids name policies in every decision, so they must be unique`, { problem: 'duplicate_id', location: { file, line, column } });
    }
    const policy: CedarPolicy = { id, effect: json.effect, reason: annotations['reason'] ?? undefined, text: part, line, column, offset, scope: json.scope };
    seen.set(id, policy);
    return policy;
  });
}

/** A policy's head as the engine reads it (for the forms head.ts leaves to it). */
function fromEngine(engine: CedarEngine, file: string, text: string, part: string, offset: number): PolicyHead {
  const json = engine.policyToJson(part);
  if (json.type === 'failure') throw diagnosticsError('syntax', file, 'a policy does not parse', json.errors.map((d) => describeDiagnostic(file, text, d, offset)));
  const { principal, action, resource } = json.json;
  return { effect: json.json.effect === 'forbid' ? 'forbid' : 'permit', annotations: json.json.annotations ?? {}, scope: { principal, action, resource } };
}

function loadSchema(engine: CedarEngine, file: string, text: string): unknown {
  const schema = file.endsWith('.json') ? parseJson(file, text, 'schema') : text;
  const checked = engine.checkParseSchema(schema);
  if (checked.type === 'failure') throw diagnosticsError('syntax', file, 'the schema does not parse', checked.errors.map((d) => describeDiagnostic(file, typeof schema === 'string' ? text : undefined, d)));
  return schema;
}

/** The actions a schema declares outside any namespace (the ones `Action::"<tool_name>"` can name), with their groups. */
function declaredActions(engine: CedarEngine, file: string, schema: unknown): NonNullable<LoadedPolicySet['schemaActions']> {
  const json = engine.schemaToJson(schema);
  if (json.type === 'failure') throw diagnosticsError('syntax', file, 'the schema does not parse', json.errors.map((d) => describeDiagnostic(file, undefined, d)));
  return (json.json['']?.actions ?? {}) as NonNullable<LoadedPolicySet['schemaActions']>;
}

function loadEntities(engine: CedarEngine, file: string, text: string, schema: unknown): CedarEntity[] {
  const value = parseJson(file, text, 'entities');
  if (!Array.isArray(value)) throw new PolicyError(`${file}: the entities must be a JSON array of entities ({"uid": …, "attrs": …, "parents": …})`, { problem: 'syntax', location: { file } });
  const checked = engine.checkParseEntities(schema === undefined ? { entities: value } : { entities: value, schema });
  if (checked.type === 'failure') {
    throw diagnosticsError(schema === undefined ? 'syntax' : 'validation', file, schema === undefined ? 'the entities do not parse' : 'the entities do not conform to the schema', checked.errors.map((d) => describeDiagnostic(file, undefined, d)));
  }
  return value as CedarEntity[];
}

function actionsOf(schemaActions: LoadedPolicySet['schemaActions']): Pick<LoadedPolicySet, 'actions' | 'schemaActions'> {
  return { actions: schemaActions === undefined ? undefined : new Set(Object.keys(schemaActions)), schemaActions };
}

/**
 * Read and check a Cedar hook's files with `engine`: the policy set parses (no templates; `@id`s
 * unique), the schema parses, every policy validates against it (Cedar's strict validation), the
 * entities parse (and conform to the schema). Throws a {@link PolicyError} with Cedar's own
 * diagnostics, each `file:line:column: message (help)`.
 */
export async function loadPolicySet(engine: CedarEngine, files: CedarFiles): Promise<LoadedPolicySet> {
  const read = await readCedarFiles(files);
  const file = files.policies;
  const text = utf8(file, read.policies, 'policy set');
  const policies = splitPolicies(engine, file, text);
  const record = Object.fromEntries(policies.map((p) => [p.id, p.text]));
  const schemaFile = files.schema;
  const schema = schemaFile === undefined || read.schema === undefined ? undefined : loadSchema(engine, schemaFile, utf8(schemaFile, read.schema, 'schema'));
  const warnings: string[] = [];
  if (schema !== undefined) {
    const byId = new Map(policies.map((p) => [p.id, p]));
    const validated = engine.validate({ schema, policies: { staticPolicies: record }, validationSettings: { mode: 'strict' } });
    if (validated.type === 'failure') throw diagnosticsError('validation', file, 'the policies cannot be validated', validated.errors.map((d) => describeDiagnostic(file, text, d)));
    const described = (list: ReadonlyArray<{ readonly policyId: string; readonly error: Parameters<typeof describeDiagnostic>[2] }>) =>
      list.map(({ policyId, error }) => describeDiagnostic(file, text, error, byId.get(policyId)?.offset ?? 0));
    if (validated.validationErrors.length > 0) {
      throw diagnosticsError('validation', file, `${validated.validationErrors.length} problem(s) validating the policies against the schema ${schemaFile ?? ''}`, described(validated.validationErrors));
    }
    warnings.push(...described(validated.validationWarnings).map((d) => d.text));
  }
  const entitiesFile = files.entities;
  const entities = entitiesFile === undefined || read.entities === undefined ? [] : loadEntities(engine, entitiesFile, utf8(entitiesFile, read.entities, 'entities'), schema);
  return {
    file,
    text,
    policies: new Map(policies.map((p) => [p.id, p])),
    record,
    entities,
    schema,
    ...actionsOf(schema === undefined || schemaFile === undefined ? undefined : declaredActions(engine, schemaFile, schema)),
    sha256: read.sha256,
    warnings,
  };
}
