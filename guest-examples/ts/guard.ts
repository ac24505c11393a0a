/**
 * `guard` — a pre_tool_use hook, in TypeScript (guest-examples/POLICIES.md): deny force-pushes to
 * main/master, turn other force-pushes into `--force-with-lease`.
 *
 * Typed by the wire contract's shapes (guest-examples/js/glue/hook.d.ts, which `basis-hooks init`
 * copies into a starter as types/hook.d.ts), so an answer of the wrong shape does not compile. The
 * rules of POLICIES.md apply to every string in the tool input, as in ../js/guard.js.
 *
 * Build: `npm run build-guests -- ts` (tsc, then componentize; see guest-examples/js/README.md).
 */
import type { HookRequest, HookResponse, JsonValue } from '../js/glue/hook.js';

const PROTECTED = [' main', ' master', ':main', ':master'] as const;
const DENY_REASON = 'force-push to a protected branch (main/master) is not allowed';
const MODIFY_REASON = 'replaced --force with --force-with-lease';

/** A branch name or flag ends at a space, a quote or the end of the string. */
function endsAt(text: string, at: number): boolean {
  const c = text[at];
  return c === undefined || c === ' ' || c === '"';
}

interface Flag {
  readonly at: number;
  readonly len: number;
}

/** Force flags: `--force` not followed by `-`, and ` -f` at the end of a word. */
function forceFlags(text: string): Flag[] {
  const flags: Flag[] = [];
  for (let i = 0; i < text.length; i++) {
    if (text.startsWith('--force', i) && text[i + 7] !== '-') flags.push({ at: i, len: 7 });
    else if (text.startsWith(' -f', i) && endsAt(text, i + 3)) flags.push({ at: i + 1, len: 2 });
  }
  return flags;
}

function namesProtectedBranch(text: string): boolean {
  return PROTECTED.some((branch) => {
    for (let i = text.indexOf(branch); i !== -1; i = text.indexOf(branch, i + 1)) {
      if (endsAt(text, i + branch.length)) return true;
    }
    return false;
  });
}

/** Every string in a JSON value. */
function strings(value: JsonValue): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap(strings);
  return [];
}

/** The value with `change` applied to every string in it (object keys stay as they are). */
function mapStrings(value: JsonValue, change: (text: string) => string): JsonValue {
  if (typeof value === 'string') return change(value);
  if (Array.isArray(value)) return value.map((v) => mapStrings(v, change));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapStrings(v, change)]));
  return value;
}

/** The text with every force flag replaced by `--force-with-lease`. */
function lease(text: string): string {
  let out = '';
  let last = 0;
  for (const flag of forceFlags(text)) {
    out += `${text.slice(last, flag.at)}--force-with-lease`;
    last = flag.at + flag.len;
  }
  return out + text.slice(last);
}

export function handle(request: HookRequest): HookResponse {
  // A guard registered at post_tool_use by mistake stays harmless.
  if (request.event !== 'pre_tool_use') return { decision: 'allow' };
  const texts = strings(request.input);
  if (!texts.some((t) => t.includes('git push'))) return { decision: 'allow' };
  if (!texts.some((t) => forceFlags(t).length > 0)) return { decision: 'allow' };
  if (texts.some(namesProtectedBranch)) return { decision: 'deny', reason: DENY_REASON };
  return { decision: 'modify', input: mapStrings(request.input, lease), reason: MODIFY_REASON };
}
