import type { HookEvent } from '../../contract/event.js';
import { POST_MARKER, POST_PREFIX, POST_TOKEN_CHARS, PRE_NEEDLE, PRE_REASON } from './policy.js';

/**
 * The starter's source in JavaScript (`typed: false`) or TypeScript (`typed: true`): the same code,
 * the TypeScript one typed against the WIT's generated declarations (`types/`).
 */
export function jsSource(event: HookEvent, name: string, typed: boolean): string {
  const t = (annotation: string): string => (typed ? annotation : '');
  const header = typed
    ? `import type * as Handler from 'basis:hook/handler@1.0.0';
import type { Decision, HookRequest } from 'basis:hook/types@1.0.0';
`
    : '';
  const exportLine = typed
    ? `/** The \`basis:hook/handler\` export; \`typeof Handler\` makes a decision of the wrong shape a type error. */
export const handler: typeof Handler = { handle };
`
    : `/** The \`basis:hook/handler\` export. */
export const handler = { handle };
`;
  const doc = `/**
 * ${name} — a ${event} hook for the basis:hook@1.0.0 world.
 *
 * The request's \`input\` (and, after the call, \`output\`) is the tool's value as JSON *text*; a
 * decision is a WIT variant: { tag: 'allow' }, { tag: 'deny', val: reason },
 * { tag: 'modify', val: { input, reason? } } (before the call) or
 * { tag: 'replace', val: { output, isError?, reason? } } (after it). To fail, throw a string (an
 * Error object traps under SpiderMonkey). Module top-level code runs at build time, not per call.
 *
 * Build: basis-hooks build .        Test: basis-hooks test . (runs cases.jsonl)
 */
`;
  if (event === 'pre_tool_use') {
    return `${doc}${header}
const NEEDLE = ${JSON.stringify(PRE_NEEDLE)};
const REASON = ${JSON.stringify(PRE_REASON)};

/** True when the text runs \`rm -rf /\` on the root itself (end of text, space, quote or \`*\` after it), not on /tmp/.... */
function wipesRoot(text${t(': string')})${t(': boolean')} {
  for (let i = text.indexOf(NEEDLE); i !== -1; i = text.indexOf(NEEDLE, i + 1)) {
    const next = text[i + NEEDLE.length];
    if (next === undefined || next === ' ' || next === '"' || next === '*') return true;
  }
  return false;
}

function handle(request${t(': HookRequest')})${t(': Decision')} {
  // Registered at the wrong event by mistake, the hook stays harmless.
  if (request.event !== 'pre-tool-use') return { tag: 'allow' };
  if (wipesRoot(request.input)) return { tag: 'deny', val: REASON };
  return { tag: 'allow' };
}

${exportLine}`;
  }
  return `${doc}${header}
const PREFIX = ${JSON.stringify(POST_PREFIX)};
const TOKEN_CHARS = ${POST_TOKEN_CHARS};

/** A letter or a digit, by char code (NaN past the end of the text is neither). */
function isAlnum(c${t(': number')})${t(': boolean')} {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

function handle(request${t(': HookRequest')})${t(': Decision')} {
  // An absent option is undefined under SpiderMonkey but null under QuickJS: compare with == null.
  if (request.event !== 'post-tool-use' || request.output == null) return { tag: 'allow' };
  const text = request.output;
  let out = '';
  let copied = 0; // text[copied..] is still to be copied to out
  let count = 0;
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
    count++;
  }
  if (count === 0) return { tag: 'allow' };
  out += text.slice(copied);
  // No isError: the tool's own claim about success stands. The reason goes to the audit trail only.
  return { tag: 'replace', val: { output: out, reason: \`redacted \${count} token(s)\` } };
}

${exportLine}`;
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
