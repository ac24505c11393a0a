import type { HookEvent } from '../../contract/event.js';
import { POST_MARKER, POST_PREFIX, POST_TOKEN_CHARS, PRE_NEEDLE, PRE_REASON } from './policy.js';

/** The starter's source in C, over the glue in `glue/basis_hook.h` (guest-examples/c/README.md). */
export function cSource(event: HookEvent, name: string): string {
  const doc = `/*
 * ${name} — a ${event} hook for the basis:hook@1.0.0 world, in C.
 *
 * You write one function, handle(); glue/basis_hook.{h,c} implement the canonical ABI. Strings are
 * UTF-8 {ptr, len} slices, not NUL-terminated; input and output are the tool's values as JSON text.
 * Return string literals, slices of the request, or text built with hook_buf / hook_alloc (the
 * per-call arena) — never malloc'd or stack memory.
 *
 * Build: basis-hooks build .        Test: basis-hooks test . (runs cases.jsonl)
 */
#include "basis_hook.h"
`;
  if (event === 'pre_tool_use') {
    return `${doc}
/* True when the text runs \`${PRE_NEEDLE}\` on the root itself (end of text, space, quote or '*' after it). */
static bool wipes_root(hook_str t) {
  static const char needle[] = ${JSON.stringify(PRE_NEEDLE)};
  const size_t n = sizeof needle - 1;
  for (size_t i = hook_find(t, 0, needle, n); i != (size_t)-1; i = hook_find(t, i + 1, needle, n)) {
    size_t end = i + n;
    if (end == t.len || t.ptr[end] == ' ' || t.ptr[end] == '"' || t.ptr[end] == '*') return true;
  }
  return false;
}

hook_decision handle(const hook_request *req) {
  /* Registered at the wrong event by mistake, the hook stays harmless. */
  if (req->event != HOOK_PRE_TOOL_USE) return hook_allow();
  if (wipes_root(req->input)) return hook_deny(HOOK_STR(${JSON.stringify(PRE_REASON)}));
  return hook_allow();
}
`;
  }
  return `${doc}
#define PREFIX ${JSON.stringify(POST_PREFIX)}
#define PREFIX_LEN ${POST_PREFIX.length}
#define TOKEN_CHARS ${POST_TOKEN_CHARS}

static bool is_alnum(char c) {
  return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}

hook_decision handle(const hook_request *req) {
  /* Registered at the wrong event by mistake, the hook stays harmless. */
  if (req->event != HOOK_POST_TOOL_USE || !req->has_output) return hook_allow();
  hook_str t = req->output;
  hook_buf out = {0};
  uint32_t count = 0;
  size_t copied = 0; /* t[copied..] is still to be copied to out */
  for (size_t i = hook_find(t, 0, PREFIX, PREFIX_LEN); i != (size_t)-1; i = hook_find(t, i, PREFIX, PREFIX_LEN)) {
    size_t n = 0;
    while (n < TOKEN_CHARS && i + PREFIX_LEN + n < t.len && is_alnum(t.ptr[i + PREFIX_LEN + n])) n++;
    if (n < TOKEN_CHARS) {
      i += PREFIX_LEN;
      continue;
    }
    hook_buf_append(&out, t.ptr + copied, i - copied);
    hook_buf_append_lit(&out, ${JSON.stringify(POST_MARKER)});
    i += PREFIX_LEN + TOKEN_CHARS;
    copied = i;
    count++;
  }
  if (count == 0) return hook_allow();
  hook_buf_append(&out, t.ptr + copied, t.len - copied);

  /* The reason goes to the audit trail only. HOOK_UNSET: the tool's own is_error stands. */
  hook_buf reason = {0};
  hook_buf_append_lit(&reason, "redacted ");
  hook_buf_append_u32(&reason, count);
  hook_buf_append_lit(&reason, " token(s)");
  return hook_replace(hook_buf_str(&out), HOOK_UNSET, hook_buf_str(&reason));
}
`;
}
