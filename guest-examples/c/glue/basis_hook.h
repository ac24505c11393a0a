/*
 * basis_hook.h — write a basis:hook@1.0.0 component in plain C.
 *
 * There is no wit-bindgen here, so this header and basis_hook.c are the hand-written canonical-ABI glue
 * for the `hook` world (wit/hook.wit). An author includes this header, links basis_hook.c and writes
 * exactly one function:
 *
 *     hook_decision handle(const hook_request *request);
 *
 * The glue exports `basis:hook/handler@1.0.0#handle`, `cabi_realloc` and
 * `cabi_post_basis:hook/handler@1.0.0#handle`, turns the author's hook_decision into the canonical
 * `result<decision, string>` and frees everything after the host has read the answer.
 *
 * Memory rule: every string a decision points at must stay valid until the host has read it. That holds
 * for string literals, for slices of the request's own strings, and for anything allocated with
 * hook_alloc / hook_strdup / hook_buf (a per-call arena, released by the post-return export). Do not
 * return malloc'd memory (it would leak) or stack memory (it is gone when handle returns).
 *
 * All strings are UTF-8, not NUL-terminated: a pointer and a byte length.
 */
#ifndef BASIS_HOOK_H
#define BASIS_HOOK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** A UTF-8 string slice: `len` bytes at `ptr` (no NUL terminator). */
typedef struct hook_str {
  const char *ptr;
  size_t len;
} hook_str;

/** A string literal as a hook_str (length without the terminating NUL). */
#define HOOK_STR(literal) ((hook_str){(literal), sizeof(literal) - 1})
/** "No string": use it for an absent optional reason. */
#define HOOK_NONE ((hook_str){NULL, 0})

/** `enum event` of the WIT (a u8 in the canonical ABI). */
typedef enum hook_event {
  HOOK_PRE_TOOL_USE = 0,
  HOOK_POST_TOOL_USE = 1,
} hook_event;

/**
 * The `hook-request` record, laid out exactly as the canonical ABI passes it (64 bytes, align 4), so the
 * glue hands the host's record to `handle` without copying. Offsets are asserted in basis_hook.c.
 * `input` and `output` are JSON text. `output` is meaningful only when `has_output`, `is_error` only
 * when `has_is_error` (before the call both are absent; after it both are present, `output` may be
 * the text `null`).
 */
typedef struct hook_request {
  uint32_t hook_schema; /* @0 */
  uint8_t event;        /* @4: a hook_event */
  hook_str workspace;   /* @8 */
  hook_str agent_id;    /* @16 */
  hook_str tool_call_id;/* @24 */
  hook_str tool_name;   /* @32 */
  hook_str input;       /* @40: JSON text */
  bool has_output;      /* @48 */
  hook_str output;      /* @52: JSON text */
  bool has_is_error;    /* @60 */
  bool is_error;        /* @61 */
} hook_request;

/** What a hook answers. Build one with the constructors below rather than by hand. */
typedef enum hook_decision_kind {
  HOOK_ALLOW = 0,
  HOOK_DENY = 1,
  HOOK_MODIFY = 2,
  HOOK_REPLACE = 3,
  /** Not a decision: the hook failed (`err(message)`); the host takes its failure path (guest_error). */
  HOOK_ERROR = 4,
} hook_decision_kind;

/**
 * A decision. `text` is the deny reason, the new input (modify, JSON text), the new output (replace,
 * JSON text) or the error message. `reason` is optional for modify and replace (absent when
 * `has_reason` is false); `is_error` is optional for replace (absent when `has_is_error` is false:
 * the tool's own claim stands).
 */
typedef struct hook_decision {
  hook_decision_kind kind;
  hook_str text;
  bool has_reason;
  hook_str reason;
  bool has_is_error;
  bool is_error;
} hook_decision;

/** Tri-state for replace's optional is_error. */
typedef enum hook_flag { HOOK_UNSET = -1, HOOK_FALSE = 0, HOOK_TRUE = 1 } hook_flag;

/* ── the one function the author writes ─────────────────────────────────────────────────────────── */

/** Decide about one tool call. Called once per call; the request is valid until it returns. */
hook_decision handle(const hook_request *request);

/* ── decision constructors ──────────────────────────────────────────────────────────────────────── */

/** Let the call (or its output) through unchanged. */
static inline hook_decision hook_allow(void) {
  return (hook_decision){.kind = HOOK_ALLOW};
}
/** Refuse: before the call it does not run; after it the output is withheld. `reason` must not be empty. */
static inline hook_decision hook_deny(hook_str reason) {
  return (hook_decision){.kind = HOOK_DENY, .text = reason};
}
/** Before the call: run it with `input` (JSON text) instead. `reason` may be HOOK_NONE. */
static inline hook_decision hook_modify(hook_str input, hook_str reason) {
  return (hook_decision){.kind = HOOK_MODIFY, .text = input, .has_reason = reason.ptr != NULL, .reason = reason};
}
/** After the call: show `output` (JSON text) instead; `is_error` HOOK_UNSET keeps the tool's claim. */
static inline hook_decision hook_replace(hook_str output, hook_flag is_error, hook_str reason) {
  return (hook_decision){
      .kind = HOOK_REPLACE,
      .text = output,
      .has_reason = reason.ptr != NULL,
      .reason = reason,
      .has_is_error = is_error != HOOK_UNSET,
      .is_error = is_error == HOOK_TRUE,
  };
}
/** The hook failed: `err(message)`. */
static inline hook_decision hook_error(hook_str message) {
  return (hook_decision){.kind = HOOK_ERROR, .text = message};
}

/* ── per-call arena: memory that lives until the host has read the answer ───────────────────────── */

/** `size` bytes (8-aligned) from the per-call arena. Traps when memory is exhausted (never NULL). */
void *hook_alloc(size_t size);
/** A copy of `len` bytes at `ptr` in the arena. */
hook_str hook_strdup(const char *ptr, size_t len);

/** A growable byte buffer in the arena, for building JSON text. Zero-initialise: `hook_buf b = {0};`. */
typedef struct hook_buf {
  char *ptr;
  size_t len;
  size_t cap;
} hook_buf;

/** Append `len` bytes. */
void hook_buf_append(hook_buf *buf, const char *ptr, size_t len);
/** Append a hook_str. */
static inline void hook_buf_append_str(hook_buf *buf, hook_str s) {
  hook_buf_append(buf, s.ptr, s.len);
}
/** Append a string literal. */
#define hook_buf_append_lit(buf, literal) hook_buf_append((buf), (literal), sizeof(literal) - 1)
/** Append an unsigned number in decimal. */
void hook_buf_append_u32(hook_buf *buf, uint32_t value);
/** The buffer's contents as a hook_str (valid until the host has read the answer). */
static inline hook_str hook_buf_str(const hook_buf *buf) {
  return (hook_str){buf->ptr != NULL ? buf->ptr : "", buf->len};
}

/* ── small text helpers (the example policies scan JSON text; no parser needed) ─────────────────── */

/** True when `s` contains `needle` at byte offset `at`. */
bool hook_starts_with_at(hook_str s, size_t at, const char *needle, size_t needle_len);
/** Offset of the first `needle` at or after `from`, or (size_t)-1. */
size_t hook_find(hook_str s, size_t from, const char *needle, size_t needle_len);

#ifdef __cplusplus
}
#endif

#endif /* BASIS_HOOK_H */
