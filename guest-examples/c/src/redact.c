/*
 * redact — post_tool_use: replace AWS keys, GitHub tokens and bearer tokens in the output with
 * [REDACTED] (guest-examples/POLICIES.md). Scans the output's JSON text left to right.
 */
#include "basis_hook.h"

static bool is_upper_alnum(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}
static bool is_alnum(char c) {
  return is_upper_alnum(c) || (c >= 'a' && c <= 'z');
}
static bool is_secret_char(char c) {
  return is_alnum(c) || c == '/' || c == '+';
}
static bool is_bearer_char(char c) {
  return is_alnum(c) || c == '.' || c == '_' || c == '-';
}

/** How many characters from `from` on satisfy `ok`. */
static size_t run_of(hook_str t, size_t from, bool (*ok)(char)) {
  size_t n = 0;
  while (from + n < t.len && ok(t.ptr[from + n])) n++;
  return n;
}

hook_decision handle(const hook_request *req) {
  if (req->event != HOOK_POST_TOOL_USE || !req->has_output) return hook_allow();
  hook_str t = req->output;
  hook_buf out = {0};
  uint32_t count = 0;
  size_t copied = 0; /* t[copied..i) is still to be copied to out */
  size_t i = 0;
  while (i < t.len) {
    size_t keep = 0;  /* bytes of the match that stay (a prefix such as `Bearer `) */
    size_t match = 0; /* bytes of the match in total */
    if (hook_starts_with_at(t, i, "AKIA", 4) && run_of(t, i + 4, is_upper_alnum) >= 16) {
      match = 20;
    } else if ((hook_starts_with_at(t, i, "AWS_SECRET_ACCESS_KEY=", 22) || hook_starts_with_at(t, i, "aws_secret_access_key=", 22)) &&
               run_of(t, i + 22, is_secret_char) >= 40) {
      keep = 22;
      match = 62;
    } else if ((hook_starts_with_at(t, i, "ghp_", 4) || hook_starts_with_at(t, i, "gho_", 4) || hook_starts_with_at(t, i, "ghs_", 4) ||
                hook_starts_with_at(t, i, "ghu_", 4)) &&
               run_of(t, i + 4, is_alnum) >= 36) {
      match = 40;
    } else if (hook_starts_with_at(t, i, "Bearer ", 7)) {
      size_t n = run_of(t, i + 7, is_bearer_char);
      if (n >= 20) {
        keep = 7;
        match = 7 + n;
      }
    }
    if (match == 0) {
      i++;
      continue;
    }
    hook_buf_append(&out, t.ptr + copied, i + keep - copied);
    hook_buf_append_lit(&out, "[REDACTED]");
    i += match;
    copied = i;
    count++;
  }
  if (count == 0) return hook_allow();
  hook_buf_append(&out, t.ptr + copied, t.len - copied);

  hook_buf reason = {0};
  hook_buf_append_lit(&reason, "redacted ");
  hook_buf_append_u32(&reason, count);
  hook_buf_append_lit(&reason, " secret(s)");
  return hook_replace(hook_buf_str(&out), HOOK_UNSET, hook_buf_str(&reason));
}
