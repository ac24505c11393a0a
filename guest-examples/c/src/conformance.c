/*
 * The conformance-suite behaviours (test/conformance/behaviours.ts) as one C source: the builder compiles
 * it once per behaviour with -DBEHAVIOUR_<NAME> (e.g. -DBEHAVIOUR_MODIFY_WRAP). Between them the
 * behaviours exercise every layout of the result area: allow, deny, modify with and without a reason,
 * replace with and without is-error and reason, and err (the extra `guest-error` behaviour).
 */
#include "basis_hook.h"

#define DENY_REASON "denied by conformance hook"
#define WRAPPED_REASON "saw a wrapped value"

/* One source, many behaviours: helpers a given behaviour does not use are not an error. */
#define HELPER __attribute__((unused)) static

/** `{"wrapped":<value>}` around a JSON text. */
HELPER hook_str wrap(hook_str value) {
  hook_buf b = {0};
  hook_buf_append_lit(&b, "{\"wrapped\":");
  hook_buf_append_str(&b, value);
  hook_buf_append_lit(&b, "}");
  return hook_buf_str(&b);
}

HELPER bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/**
 * True when the JSON text is an object with a top-level "wrapped" key. A scan, not a parser: it tracks
 * string literals (with escapes) and nesting depth, and looks for the key at depth 1.
 */
HELPER bool is_wrapped(hook_str t) {
  size_t i = 0;
  while (i < t.len && is_space(t.ptr[i])) i++;
  if (i == t.len || t.ptr[i] != '{') return false;
  int depth = 0;
  for (; i < t.len; i++) {
    char c = t.ptr[i];
    if (c == '"') {
      size_t start = i++;
      while (i < t.len && t.ptr[i] != '"') i += t.ptr[i] == '\\' ? 2 : 1;
      if (depth != 1) continue;
      /* a key is a string at depth 1 followed by ':' */
      size_t j = i + 1;
      while (j < t.len && is_space(t.ptr[j])) j++;
      if (j < t.len && t.ptr[j] == ':' && i - start - 1 == 7 && hook_starts_with_at(t, start + 1, "wrapped", 7)) return true;
    } else if (c == '{' || c == '[') {
      depth++;
    } else if (c == '}' || c == ']') {
      depth--;
    }
  }
  return false;
}

HELPER void append_bool(hook_buf *b, bool value) {
  if (value) hook_buf_append_lit(b, "true");
  else hook_buf_append_lit(b, "false");
}

/** What the request looked like, as the probe behaviour reports it (behaviours.ts). */
HELPER hook_decision probe(const hook_request *req) {
  bool post = req->event == HOOK_POST_TOOL_USE;
  hook_buf b = {0};
  hook_buf_append_lit(&b, "{\"hook_schema\":");
  hook_buf_append_u32(&b, req->hook_schema);
  if (post) hook_buf_append_lit(&b, ",\"event\":\"post_tool_use\",\"has_output\":");
  else hook_buf_append_lit(&b, ",\"event\":\"pre_tool_use\",\"has_output\":");
  append_bool(&b, req->has_output);
  hook_buf_append_lit(&b, ",\"has_is_error\":");
  append_bool(&b, req->has_is_error);
  hook_buf_append_lit(&b, ",\"input\":");
  hook_buf_append_str(&b, req->input);
  if (!post) {
    hook_buf_append_lit(&b, "}");
    return hook_modify(hook_buf_str(&b), HOOK_NONE);
  }
  if (req->has_output) {
    hook_buf_append_lit(&b, ",\"output\":");
    hook_buf_append_str(&b, req->output);
  }
  if (req->has_is_error) {
    hook_buf_append_lit(&b, ",\"is_error\":");
    append_bool(&b, req->is_error);
  }
  hook_buf_append_lit(&b, "}");
  return hook_replace(hook_buf_str(&b), HOOK_UNSET, HOOK_NONE);
}

hook_decision handle(const hook_request *req) {
#if defined(BEHAVIOUR_ALLOW)
  (void)req;
  return hook_allow();
#elif defined(BEHAVIOUR_DENY)
  (void)req;
  return hook_deny(HOOK_STR(DENY_REASON));
#elif defined(BEHAVIOUR_MODIFY_WRAP)
  return hook_modify(wrap(req->input), HOOK_STR("wrapped input"));
#elif defined(BEHAVIOUR_REPLACE_WRAP)
  return hook_replace(wrap(req->has_output ? req->output : HOOK_STR("null")), HOOK_UNSET, HOOK_STR("wrapped output"));
#elif defined(BEHAVIOUR_REPLACE_ERROR)
  (void)req;
  return hook_replace(HOOK_STR("\"replaced as error\""), HOOK_TRUE, HOOK_NONE);
#elif defined(BEHAVIOUR_REPLACE_OK)
  (void)req;
  return hook_replace(HOOK_STR("\"replaced as ok\""), HOOK_FALSE, HOOK_NONE);
#elif defined(BEHAVIOUR_DENY_IF_WRAPPED)
  hook_str value = req->event == HOOK_PRE_TOOL_USE ? req->input : req->has_output ? req->output : HOOK_STR("null");
  return is_wrapped(value) ? hook_deny(HOOK_STR(WRAPPED_REASON)) : hook_allow();
#elif defined(BEHAVIOUR_PROBE)
  return probe(req);
#elif defined(BEHAVIOUR_EMPTY_DENY_REASON)
  (void)req;
  return hook_deny(HOOK_STR(""));
#elif defined(BEHAVIOUR_MALFORMED)
  (void)req;
  return hook_modify(HOOK_STR("this is not JSON {"), HOOK_STR("malformed on purpose"));
#elif defined(BEHAVIOUR_HANG)
  (void)req;
  /* A loop with a visible side effect, so no optimiser may assume it ends. */
  for (volatile uint32_t spins = 0;; spins++) {
  }
#elif defined(BEHAVIOUR_CRASH)
  (void)req;
  __builtin_trap();
#elif defined(BEHAVIOUR_OVERSIZED)
  (void)req;
  /* A deny reason of 96 KiB: over the suite's 64 KiB output cap. */
  size_t n = 96 * 1024;
  char *reason = hook_alloc(n);
  for (size_t i = 0; i < n; i++) reason[i] = 'x';
  return hook_deny((hook_str){reason, n});
#elif defined(BEHAVIOUR_GUEST_ERROR)
  (void)req;
  return hook_error(HOOK_STR("conformance hook failed on purpose"));
#else
#error "define one BEHAVIOUR_<NAME> (see test/conformance/behaviours.ts)"
#endif
}
