import type { HookEvent } from '../../contract/event.js';
import { POST_MARKER, POST_PREFIX, POST_TOKEN_CHARS, PRE_NEEDLE, PRE_REASON } from './policy.js';

/** The starter's source in AssemblyScript, over the glue in `glue/hook.ts` (guest-examples/assemblyscript/README.md). */
export function assemblyScriptSource(event: HookEvent, name: string): string {
  const imports = event === 'pre_tool_use' ? 'Decision, Event, Request, serve' : 'Decision, Event, Flag, Request, serve';
  const doc = `/**
 * ${name} — a ${event} hook for the basis:hook@1.0.0 world, in AssemblyScript.
 *
 * You write \`hook(req)\`; glue/hook.ts implements the canonical ABI, and the build renames the
 * exports \`handle\` / \`cabi_post_handle\` to the component model's names (as glue/export-names.mjs
 * does for a hand build). \`input\` and \`output\` are the tool's values as JSON text; each Request
 * getter decodes on every access, so keep what you use in a local.
 *
 * Build: basis-hooks build .        Test: basis-hooks test . (runs cases.jsonl)
 */
import { ${imports} } from "./glue/hook";
export { cabi_realloc, cabi_post_handle } from "./glue/hook";

/** The component's export. Always exactly this function. */
export function handle(request: usize): usize {
  return serve(request, hook);
}
`;
  if (event === 'pre_tool_use') {
    return `${doc}
const NEEDLE = ${JSON.stringify(PRE_NEEDLE)};
const REASON = ${JSON.stringify(PRE_REASON)};

/** True when the text runs \`rm -rf /\` on the root itself (end of text, space, quote or \`*\` after it). */
function wipesRoot(t: string): bool {
  for (let i = t.indexOf(NEEDLE); i != -1; i = t.indexOf(NEEDLE, i + 1)) {
    const end = i + NEEDLE.length;
    if (end >= t.length) return true;
    const c = t.charCodeAt(end);
    if (c == 0x20 || c == 0x22 || c == 0x2a) return true; // space, quote, *
  }
  return false;
}

function hook(req: Request): Decision {
  // Registered at the wrong event by mistake, the hook stays harmless.
  if (req.event != Event.PreToolUse) return Decision.allow();
  if (wipesRoot(req.input)) return Decision.deny(REASON);
  return Decision.allow();
}
`;
  }
  return `${doc}
const PREFIX = ${JSON.stringify(POST_PREFIX)};
const TOKEN_CHARS = ${POST_TOKEN_CHARS};

function isAlnum(c: i32): bool {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
}

function hook(req: Request): Decision {
  // Registered at the wrong event by mistake, the hook stays harmless.
  if (req.event != Event.PostToolUse || !req.hasOutput) return Decision.allow();
  const t = req.output!;
  const parts = new Array<string>();
  let count = 0;
  let copied = 0; // t[copied..] is still to be copied
  let i = t.indexOf(PREFIX);
  while (i != -1) {
    let n = 0;
    while (n < TOKEN_CHARS && i + PREFIX.length + n < t.length && isAlnum(t.charCodeAt(i + PREFIX.length + n))) n++;
    if (n < TOKEN_CHARS) {
      i = t.indexOf(PREFIX, i + PREFIX.length);
      continue;
    }
    parts.push(t.substring(copied, i));
    parts.push(${JSON.stringify(POST_MARKER)});
    copied = i + PREFIX.length + TOKEN_CHARS;
    count++;
    i = t.indexOf(PREFIX, copied);
  }
  if (count == 0) return Decision.allow();
  parts.push(t.substring(copied));
  // The reason goes to the audit trail only; Flag.Unset: the tool's own is_error stands.
  return Decision.replace(parts.join(""), Flag.Unset, "redacted " + count.toString() + " token(s)");
}
`;
}
