/**
 * The conformance-suite behaviours (test/conformance/behaviours.ts) as one AssemblyScript source. The
 * builder compiles it once per behaviour with `--use BEHAVIOUR=<n>`; the constant folds, so each
 * component holds only its own behaviour. Between them the behaviours exercise every layout of the
 * result area: allow, deny, modify with and without a reason, replace with and without is-error and
 * reason, and err (the extra `guest-error` behaviour).
 */
import { Decision, Event, Flag, Request, serve } from "../glue/hook";
export { cabi_realloc, cabi_post_handle } from "../glue/hook";

// `BEHAVIOUR` is a global integer constant introduced by the builder (`asc --use BEHAVIOUR=<n>`): the
// index of the behaviour in COMPILED_GUEST_BEHAVIOURS (scripts/guests/catalog.ts). It is not
// declared here on purpose: a `declare const` would shadow it with a host import.

// Same order as COMPILED_GUEST_BEHAVIOURS.
const ALLOW = 0;
const DENY = 1;
const MODIFY_WRAP = 2;
const REPLACE_WRAP = 3;
const REPLACE_ERROR = 4;
const REPLACE_OK = 5;
const DENY_IF_WRAPPED = 6;
const PROBE = 7;
const EMPTY_DENY_REASON = 8;
const MALFORMED = 9;
const HANG = 10;
const CRASH = 11;
const OVERSIZED = 12;
const GUEST_ERROR = 13;

/** The component's `handle` export (renamed by glue/export-names.mjs). */
export function handle(request: usize): usize {
  return serve(request, behave);
}

function wrap(value: string): string {
  return '{"wrapped":' + value + "}";
}

function isSpace(c: i32): bool {
  return c == 0x20 || c == 0x09 || c == 0x0a || c == 0x0d;
}

/**
 * True when the JSON text is an object with a top-level "wrapped" key. A scan, not a parser: it tracks
 * string literals (with escapes) and nesting depth, and looks for the key at depth 1.
 */
function isWrapped(t: string): bool {
  let i = 0;
  while (i < t.length && isSpace(t.charCodeAt(i))) i++;
  if (i == t.length || t.charCodeAt(i) != 0x7b) return false;
  let depth = 0;
  for (; i < t.length; i++) {
    const c = t.charCodeAt(i);
    if (c == 0x22) {
      const start = i++;
      while (i < t.length && t.charCodeAt(i) != 0x22) i += t.charCodeAt(i) == 0x5c ? 2 : 1;
      if (depth != 1) continue;
      // a key is a string at depth 1 followed by ':'
      let j = i + 1;
      while (j < t.length && isSpace(t.charCodeAt(j))) j++;
      if (j < t.length && t.charCodeAt(j) == 0x3a && t.substring(start + 1, i) == "wrapped") return true;
    } else if (c == 0x7b || c == 0x5b) {
      depth++;
    } else if (c == 0x7d || c == 0x5d) {
      depth--;
    }
  }
  return false;
}

/** What the request looked like, as the probe behaviour reports it (behaviours.ts). */
function probe(req: Request): Decision {
  const post = req.event == Event.PostToolUse;
  let s =
    '{"hook_schema":' + req.hookSchema.toString() +
    ',"event":"' + (post ? "post_tool_use" : "pre_tool_use") + '"' +
    ',"has_output":' + (req.hasOutput ? "true" : "false") +
    ',"has_is_error":' + (req.hasIsError ? "true" : "false") +
    ',"input":' + req.input;
  if (!post) return Decision.modify(s + "}");
  if (req.hasOutput) s += ',"output":' + req.output!;
  if (req.hasIsError) s += ',"is_error":' + (req.isError ? "true" : "false");
  return Decision.replace(s + "}");
}

function behave(req: Request): Decision {
  if (BEHAVIOUR == ALLOW) return Decision.allow();
  if (BEHAVIOUR == DENY) return Decision.deny("denied by conformance hook");
  if (BEHAVIOUR == MODIFY_WRAP) return Decision.modify(wrap(req.input), "wrapped input");
  if (BEHAVIOUR == REPLACE_WRAP) return Decision.replace(wrap(req.hasOutput ? req.output! : "null"), Flag.Unset, "wrapped output");
  if (BEHAVIOUR == REPLACE_ERROR) return Decision.replace('"replaced as error"', Flag.True);
  if (BEHAVIOUR == REPLACE_OK) return Decision.replace('"replaced as ok"', Flag.False);
  if (BEHAVIOUR == DENY_IF_WRAPPED) {
    const value = req.event == Event.PreToolUse ? req.input : req.hasOutput ? req.output! : "null";
    return isWrapped(value) ? Decision.deny("saw a wrapped value") : Decision.allow();
  }
  if (BEHAVIOUR == PROBE) return probe(req);
  if (BEHAVIOUR == EMPTY_DENY_REASON) return Decision.deny("");
  if (BEHAVIOUR == MALFORMED) return Decision.modify("this is not JSON {", "malformed on purpose");
  if (BEHAVIOUR == HANG) {
    while (true) {}
  }
  if (BEHAVIOUR == CRASH) unreachable();
  if (BEHAVIOUR == OVERSIZED) return Decision.deny("x".repeat(96 * 1024)); // over the suite's 64 KiB cap
  if (BEHAVIOUR == GUEST_ERROR) return Decision.error("conformance hook failed on purpose");
  return Decision.error("unknown BEHAVIOUR");
}
