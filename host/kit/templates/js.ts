import type { HookEvent } from '../../contract/event.js';
import { POST_MARKER, POST_PREFIX, POST_TOKEN_CHARS, PRE_NEEDLE, PRE_REASON } from './policy.js';

/**
 * The starter's source in JavaScript (`typed: false`) or TypeScript (`typed: true`): the same code,
 * reading the request and answering in the wire contract's own shapes, typed by `types/hook.d.ts`
 * (the package's guest-examples/js/glue/hook.d.ts, which `init` copies).
 */
export function jsSource(event: HookEvent, name: string, typed: boolean): string {
  const t = (annotation: string): string => (typed ? annotation : '');
  const header = typed
    ? `import type { HookRequest, HookResponse, JsonValue } from './types/hook.js';
`
    : '';
  const handleDoc = typed ? '' : `/**
 * @param {import('./types/hook.js').HookRequest} request
 * @returns {import('./types/hook.js').HookResponse}
 */
`;
  const doc = `/**
 * ${name} — a ${event} hook for basis-hooks, in ${typed ? 'TypeScript' : 'JavaScript'}.
 *
 * \`handle(request, context)\` reads the request and answers in the basis hook wire contract's own
 * shapes (types/hook.d.ts has them all); \`basis-hooks build\` bundles the glue that speaks the
 * component's WIT for it.
 * - \`request\`: hook_schema, event ('pre_tool_use' | 'post_tool_use'), workspace, agent_id,
 *   tool_call_id, tool_name, input (the tool input as parsed JSON, or the raw text when it was not
 *   JSON) and, after the call only, output and is_error.
 * - Answer {decision: 'allow'}, {decision: 'deny', reason}, {decision: 'modify', input, reason?}
 *   (before the call) or {decision: 'replace', output, is_error?, reason?} (after it). Any other
 *   answer, or a throw, fails the hook (guest_error) with a message naming what was expected.
 * - console.log and friends write to the hook's stderr: the audit trail keeps it, and
 *   \`basis-hooks test\` shows it per case. \`context.env\` holds the granted environment variables.
 * - handle runs synchronously (no await); top-level code runs once, at build time.
 *
 * Build: basis-hooks build .        Test: basis-hooks test . (runs cases.jsonl)
 */
`;
  if (event === 'pre_tool_use') {
    return `${doc}${header}
const NEEDLE = ${JSON.stringify(PRE_NEEDLE)};
const REASON = ${JSON.stringify(PRE_REASON)};

/** Every string in a JSON value (a shell tool's input is {"command": "..."}; raw text is one string). */
function strings(value${t(': JsonValue')})${t(': string[]')} {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap(strings);
  return [];
}

/** True when the text runs \`rm -rf /\` on the root itself (end of text, space, quote or \`*\` after it), not on /tmp/.... */
function wipesRoot(text${t(': string')})${t(': boolean')} {
  for (let i = text.indexOf(NEEDLE); i !== -1; i = text.indexOf(NEEDLE, i + 1)) {
    const next = text[i + NEEDLE.length];
    if (next === undefined || next === ' ' || next === '"' || next === '*') return true;
  }
  return false;
}

${handleDoc}export function handle(request${t(': HookRequest')})${t(': HookResponse')} {
  // Registered at the wrong event by mistake, the hook stays harmless.
  if (request.event !== 'pre_tool_use') return { decision: 'allow' };
  if (strings(request.input).some(wipesRoot)) return { decision: 'deny', reason: REASON };
  return { decision: 'allow' };
}
`;
  }
  return `${doc}${header}
const PREFIX = ${JSON.stringify(POST_PREFIX)};
const TOKEN_CHARS = ${POST_TOKEN_CHARS};

/** A letter or a digit, by char code (NaN past the end of the text is neither). */
function isAlnum(c${t(': number')})${t(': boolean')} {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

/** The text with every token replaced; \`found.count\` counts them. */
function redact(text${t(': string')}, found${t(': { count: number }')})${t(': string')} {
  let out = '';
  let copied = 0; // text[copied..] is still to be copied to out
  for (let i = text.indexOf(PREFIX); i !== -1; i = text.indexOf(PREFIX, i)) {
    let n = 0;
    while (n < TOKEN_CHARS && isAlnum(text.charCodeAt(i + PREFIX.length + n))) n++;
    if (n < TOKEN_CHARS) {
      i += PREFIX.length;
      continue;
    }
    out += text.slice(copied, i) + ${JSON.stringify(POST_MARKER)};
    i += PREFIX.length + TOKEN_CHARS;
    copied = i;
    found.count++;
  }
  return out + text.slice(copied);
}

/** The value with \`change\` applied to every string in it (object keys stay as they are). */
function mapStrings(value${t(': JsonValue')}, change${t(': (text: string) => string')})${t(': JsonValue')} {
  if (typeof value === 'string') return change(value);
  if (Array.isArray(value)) return value.map((v) => mapStrings(v, change));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapStrings(v, change)]));
  return value;
}

${handleDoc}export function handle(request${t(': HookRequest')})${t(': HookResponse')} {
  // Registered at the wrong event by mistake, the hook stays harmless.
  if (request.event !== 'post_tool_use') return { decision: 'allow' };
  const found = { count: 0 };
  const output = mapStrings(request.output, (text) => redact(text, found));
  if (found.count === 0) return { decision: 'allow' };
  // No is_error: the tool's own claim about success stands. The reason goes to the audit trail only.
  return { decision: 'replace', output, reason: \`redacted \${found.count} token(s)\` };
}
`;
}

/** The TypeScript starter's tsconfig: strict, no DOM or Node types (neither exists in a component). */
export function tsconfigText(): string {
  return `${JSON.stringify(
    {
      compilerOptions: {
        target: 'ES2022',
        module: 'ES2022',
        moduleResolution: 'Bundler',
        lib: ['ES2022'],
        types: [],
        strict: true,
        noUncheckedIndexedAccess: true,
        exactOptionalPropertyTypes: true,
        verbatimModuleSyntax: true,
        isolatedModules: true,
        rootDir: '.',
        outDir: 'build/js',
      },
      include: ['*.ts', 'types/**/*.d.ts'],
    },
    null,
    2,
  )}\n`;
}
