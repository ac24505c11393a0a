import * as z from 'zod';
import { describeIssues, formatPath } from '../contract/issues.js';
import { preview } from '../contract/preview.js';
import type { ConfigIssue } from '../errors/config-error.js';
import { toolsProblems } from '../runner/matcher.js';
import { CedarHookConfig, CelHookConfig, CommandHookConfig, ComponentHookConfig, HooksConfig, SUPPORTED_HOOK_SCHEMAS, TRANSPORT_KEYS } from './schema.js';
import { closest } from './suggest.js';

type Kind = (typeof TRANSPORT_KEYS)[number];
type Path = readonly PropertyKey[];

const VARIANTS = {
  command: CommandHookConfig,
  component: ComponentHookConfig,
  cedar: CedarHookConfig,
  cel: CelHookConfig,
} as const satisfies Record<Kind, z.ZodObject>;

/** `"command", "component", "cedar" or "cel"`, for messages. */
const ONE_OF = `${TRANSPORT_KEYS.slice(0, -1).map((k) => `"${k}"`).join(', ')} or "${TRANSPORT_KEYS.at(-1) ?? ''}"`;

/** Keys shared by every hook, validated on their own when the transport cannot be told. */
const HookCommon = z.object(CommandHookConfig.pick({ name: true, event: true, tools: true, on_failure: true }).shape);

/**
 * Describe why a value is not a {@link HooksConfig}, every problem with its JSON path and the key and
 * value it is about.
 *
 * zod reports a hook that matches neither transport as one "Invalid input" for the whole hook. Here
 * each such hook is validated again the way a reader thinks of it: first which transport key it has
 * (exactly one of `command` / `component`), then against that transport's schema, so a key of the
 * other transport reads "unknown key for a command hook" rather than a mismatch of the union.
 *
 * An unknown key says which key was probably meant (`timout_ms` → "did you mean "timeout_ms"?"), or
 * lists the keys allowed there; a bad `tools` entry is worded by the runner's own rule, naming the
 * pattern and the accepted forms.
 */
export function describeConfigIssues(error: z.ZodError, input: unknown): ConfigIssue[] {
  const out: ConfigIssue[] = [];
  const done = new Set<number>();
  const hooks: unknown = isRecord(input) ? input['hooks'] : undefined;
  for (const issue of error.issues) {
    const [first, index] = issue.path;
    // Cross-hook and cross-key rules of the whole config (unique names, pinnable commands), written whole.
    const isDuplicate = issue.code === 'custom' && (issue.path[2] === 'name' || issue.path[2] === 'sha256');
    if (first === 'hooks' && typeof index === 'number' && Array.isArray(hooks) && !isDuplicate) {
      if (!done.has(index)) {
        done.add(index);
        out.push(...describeHook(hooks[index], index, input));
      }
      continue;
    }
    if (isDuplicate) {
      // Written whole by the schema's refinement; the generic "(got …)" suffix would only repeat the name.
      out.push({ path: formatPath(issue.path), message: issue.message });
      continue;
    }
    if (issue.path.length === 1 && first === 'hook_schema') {
      out.push({ path: 'hook_schema', message: describeVersion(isRecord(input) ? input['hook_schema'] : undefined) });
      continue;
    }
    if (issue.code === 'unrecognized_keys') {
      out.push(...unknownKeys(issue.path, issue.keys, keysAt(HooksConfig, issue.path), ''));
      continue;
    }
    out.push(...describeIssues(new z.ZodError([issue]), input));
  }
  return out;
}

function describeVersion(value: unknown): string {
  const supported = `supported: ${SUPPORTED_HOOK_SCHEMAS.join(', ')}`;
  return value === undefined ? `is required (${supported})` : `${preview(value)} is not a supported version (${supported})`;
}

/** One hook, validated as its transport key says. */
function describeHook(hook: unknown, index: number, root: unknown): ConfigIssue[] {
  const at = ['hooks', index] as const;
  if (!isRecord(hook)) {
    const result = CommandHookConfig.safeParse(hook);
    return result.success ? [] : prefixed(result.error, at, root);
  }
  const present = TRANSPORT_KEYS.filter((key) => Object.hasOwn(hook, key));
  const [only] = present;
  if (only === undefined || present.length > 1) {
    const out: ConfigIssue[] = [
      { path: formatPath(at), message: `exactly one of ${ONE_OF} is required (found ${present.length === 0 ? 'none' : present.map((k) => `"${k}"`).join(' and ')})` },
    ];
    const common = HookCommon.safeParse(hook);
    if (!common.success) out.push(...withoutTools(common.error, hook, at, root));
    // A key no hook of any kind has is unknown whichever transport was meant.
    const known = TRANSPORT_KEYS.flatMap((kind) => Object.keys(VARIANTS[kind].shape));
    const unknown = Object.keys(hook).filter((key) => !known.includes(key));
    out.push(...unknownKeys(at, unknown, known, ''));
    return out;
  }
  const schema = VARIANTS[only];
  const result = schema.safeParse(hook);
  if (result.success) return [];
  const out: ConfigIssue[] = [];
  const rest: z.core.$ZodIssue[] = [];
  for (const issue of result.error.issues) {
    if (issue.code !== 'unrecognized_keys' || issue.path[0] === 'tools') {
      rest.push(issue);
      continue;
    }
    if (issue.path.length > 0) {
      out.push(...unknownKeys([...at, ...issue.path], issue.keys, keysAt(schema, issue.path), ''));
      continue;
    }
    for (const key of issue.keys) {
      const other = TRANSPORT_KEYS.find((kind) => kind !== only && Object.hasOwn(VARIANTS[kind].shape, key));
      if (other !== undefined) {
        out.push({ path: formatPath([...at, key]), message: `unknown key for a ${only} hook (it belongs to ${other} hooks)` });
      } else {
        out.push(...unknownKeys(at, [key], Object.keys(schema.shape), ` for a ${only} hook`));
      }
    }
  }
  if (rest.length > 0) out.push(...withoutTools(new z.ZodError(rest), hook, at, root));
  return out;
}

/**
 * The issues of one hook, with whatever zod said about `tools` replaced by the runner's own words
 * for it: zod sees a union of shapes, the runner knows what the pattern was meant to be.
 */
function withoutTools(error: z.ZodError, hook: Record<string, unknown>, at: Path, root: unknown): ConfigIssue[] {
  const others = error.issues.filter((issue) => issue.path[0] !== 'tools');
  const out = others.length === 0 ? [] : prefixed(new z.ZodError(others), at, root);
  if (others.length === error.issues.length) return out;
  const tools = toolsProblems(withoutCelEntries(hook['tools']));
  const described = tools.map(([index, message]) => ({ path: formatPath(index === undefined ? [...at, 'tools'] : [...at, 'tools', index]), message }));
  // A tools issue the runner's rule does not explain (cannot happen while both share toolsProblems):
  // keep zod's word for it rather than drop it.
  const fallback = described.length === 0 ? prefixed(new z.ZodError(error.issues.filter((i) => i.path[0] === 'tools')), at, root) : [];
  return [...described, ...fallback, ...out];
}

/**
 * `tools` with each `{"cel": "…"}` entry replaced by a plain name, indices kept: the runner's rule
 * does not know CEL entries (the config compiles them when the hook loads, naming their problems then).
 */
function withoutCelEntries(tools: unknown): unknown {
  if (!Array.isArray(tools)) return tools;
  return tools.map((entry: unknown) => (isRecord(entry) && Object.keys(entry).length === 1 && typeof entry['cel'] === 'string' && entry['cel'] !== '' ? 'cel' : entry));
}

/** `unknown key` issues, each with the key it most likely meant, or else the keys allowed there. */
function unknownKeys(at: Path, keys: readonly string[], known: readonly string[], kind: string): ConfigIssue[] {
  return keys.map((key) => {
    const meant = closest(key, known);
    const hint = meant !== undefined ? ` (did you mean "${meant}"?)` : known.length > 0 ? ` (allowed: ${known.join(', ')})` : '';
    return { path: formatPath([...at, key]), message: `unknown key${kind}${hint}` };
  });
}

/**
 * The keys of the object schema(s) that `path` leads to inside `schema` — every branch of a union, so
 * the answer is what *some* valid config could have there.
 */
function keysAt(schema: z.ZodType, path: Path): string[] {
  let current: z.ZodType[] = [schema];
  for (const key of [...path, undefined]) {
    const next: z.ZodType[] = [];
    for (const s of current.flatMap(unwrap)) {
      if (key === undefined) {
        if (s instanceof z.ZodObject) next.push(s);
      } else if (s instanceof z.ZodObject && typeof key === 'string' && Object.hasOwn(s.shape, key)) {
        next.push(s.shape[key] as z.ZodType);
      } else if (s instanceof z.ZodArray && typeof key === 'number') {
        next.push(s.element as z.ZodType);
      } else if (s instanceof z.ZodRecord && typeof key === 'string') {
        next.push(s.valueType as z.ZodType);
      }
    }
    current = next;
  }
  return [...new Set(current.flatMap((s) => (s instanceof z.ZodObject ? Object.keys(s.shape) : [])))];
}

/** A schema without its optional/default wrappers, and the branches of a union. */
function unwrap(schema: z.ZodType): z.ZodType[] {
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable || schema instanceof z.ZodDefault) return unwrap(schema.unwrap() as z.ZodType);
  if (schema instanceof z.ZodUnion) return (schema.options as readonly z.ZodType[]).flatMap(unwrap);
  return [schema];
}

/** Describe issues found inside a sub-value as if found at `prefix` in `root`. */
function prefixed(error: z.ZodError, prefix: Path, root: unknown): ConfigIssue[] {
  const issues = error.issues.map((issue) => ({ ...issue, path: [...prefix, ...issue.path] }));
  return describeIssues(new z.ZodError(issues), root);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
