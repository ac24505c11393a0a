/**
 * redact — post_tool_use: replace AWS keys, GitHub tokens and bearer tokens in the output with
 * [REDACTED] (guest-examples/POLICIES.md). Scans the output's JSON text left to right.
 */
import { Decision, Event, Flag, Request, serve } from "../glue/hook";
export { cabi_realloc, cabi_post_handle } from "../glue/hook";

/** The component's `handle` export (renamed by glue/export-names.mjs). */
export function handle(request: usize): usize {
  return serve(request, redact);
}

function isUpperAlnum(c: i32): bool {
  return (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39);
}
function isAlnum(c: i32): bool {
  return isUpperAlnum(c) || (c >= 0x61 && c <= 0x7a);
}
function isSecretChar(c: i32): bool {
  return isAlnum(c) || c == 0x2f || c == 0x2b; // / +
}
function isBearerChar(c: i32): bool {
  return isAlnum(c) || c == 0x2e || c == 0x5f || c == 0x2d; // . _ -
}

/** How many characters from `from` on satisfy `ok`. */
function runOf(t: string, from: i32, ok: (c: i32) => bool): i32 {
  let n = 0;
  while (from + n < t.length && ok(t.charCodeAt(from + n))) n++;
  return n;
}

function redact(req: Request): Decision {
  if (req.event != Event.PostToolUse || !req.hasOutput) return Decision.allow();
  const t = req.output!;
  const parts = new Array<string>();
  let count = 0;
  let copied = 0; // t[copied..i) is still to be copied
  let i = 0;
  while (i < t.length) {
    let keep = 0; // characters of the match that stay (a prefix such as `Bearer `)
    let match = 0; // characters of the match in total
    if (t.startsWith("AKIA", i) && runOf(t, i + 4, isUpperAlnum) >= 16) {
      match = 20;
    } else if ((t.startsWith("AWS_SECRET_ACCESS_KEY=", i) || t.startsWith("aws_secret_access_key=", i)) && runOf(t, i + 22, isSecretChar) >= 40) {
      keep = 22;
      match = 62;
    } else if (
      (t.startsWith("ghp_", i) || t.startsWith("gho_", i) || t.startsWith("ghs_", i) || t.startsWith("ghu_", i)) &&
      runOf(t, i + 4, isAlnum) >= 36
    ) {
      match = 40;
    } else if (t.startsWith("Bearer ", i)) {
      const n = runOf(t, i + 7, isBearerChar);
      if (n >= 20) {
        keep = 7;
        match = 7 + n;
      }
    }
    if (match == 0) {
      i++;
      continue;
    }
    parts.push(t.substring(copied, i + keep));
    parts.push("[REDACTED]");
    i += match;
    copied = i;
    count++;
  }
  if (count == 0) return Decision.allow();
  parts.push(t.substring(copied));
  return Decision.replace(parts.join(""), Flag.Unset, "redacted " + count.toString() + " secret(s)");
}
