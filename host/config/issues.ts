import { z } from 'zod';
import { describeIssues, formatPath } from '../contract/issues.js';
import { preview } from '../contract/preview.js';
import type { ConfigIssue } from '../errors/config-error.js';
import { CommandHookConfig, ComponentHookConfig, SUPPORTED_HOOK_SCHEMAS, TRANSPORT_KEYS } from './schema.js';

type Kind = (typeof TRANSPORT_KEYS)[number];

const VARIANTS = {
  command: CommandHookConfig,
  component: ComponentHookConfig,
} as const satisfies Record<Kind, z.ZodObject>;

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
 */
export function describeConfigIssues(error: z.ZodError, input: unknown): ConfigIssue[] {
  const out: ConfigIssue[] = [];
  const done = new Set<number>();
  const hooks: unknown = isRecord(input) ? input['hooks'] : undefined;
  for (const issue of error.issues) {
    const [first, index] = issue.path;
    const isDuplicate = issue.code === 'custom' && issue.path[2] === 'name';
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
    const found = present.length === 0 ? 'neither' : 'both';
    const out: ConfigIssue[] = [
      { path: formatPath(at), message: `exactly one of "command" or "component" is required (found ${found})` },
    ];
    const common = HookCommon.safeParse(hook);
    if (!common.success) out.push(...prefixed(common.error, at, root));
    // A key no hook of any kind has is unknown whichever transport was meant.
    for (const key of Object.keys(hook)) {
      if (!TRANSPORT_KEYS.some((kind) => Object.hasOwn(VARIANTS[kind].shape, key))) {
        out.push({ path: formatPath([...at, key]), message: 'unknown key' });
      }
    }
    return out;
  }
  const result = VARIANTS[only].safeParse(hook);
  if (result.success) return [];
  const other: Kind = only === 'command' ? 'component' : 'command';
  const out: ConfigIssue[] = [];
  for (const issue of result.error.issues) {
    if (issue.code === 'unrecognized_keys' && issue.path.length === 0) {
      for (const key of issue.keys) {
        const belongs = Object.hasOwn(VARIANTS[other].shape, key) ? ` (it belongs to ${other} hooks)` : '';
        out.push({ path: formatPath([...at, key]), message: `unknown key for a ${only} hook${belongs}` });
      }
    } else {
      out.push(...prefixed(new z.ZodError([issue]), at, root));
    }
  }
  return out;
}

/** Describe issues found inside a sub-value as if found at `prefix` in `root`. */
function prefixed(error: z.ZodError, prefix: readonly PropertyKey[], root: unknown): ConfigIssue[] {
  const issues = error.issues.map((issue) => ({ ...issue, path: [...prefix, ...issue.path] }));
  return describeIssues(new z.ZodError(issues), root);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
