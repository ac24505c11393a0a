/*
 * basis_hook.c — canonical-ABI glue for the basis:hook@1.0.0 `hook` world (see basis_hook.h).
 *
 * The host calls, per tool call:
 *   1. cabi_realloc(...)                               — to copy the request record and its strings in,
 *   2. basis:hook/handler@1.0.0#handle(record pointer)  — which returns a pointer to the result area,
 *   3. cabi_post_basis:hook/handler@1.0.0#handle(area)  — after it has read the strings out.
 * Everything of one call (request copy, strings the hook built) lives in one arena that step 3 releases,
 * so a hook cannot leak across calls and the common case never touches malloc.
 */
#include "basis_hook.h"

#include <stdlib.h>
#include <string.h>

/* ── the request record must be exactly the canonical-ABI layout (wit/hook.wit, hook-request) ─────── */
_Static_assert(sizeof(hook_str) == 8, "string = (ptr, len) i32 pair");
_Static_assert(offsetof(hook_request, hook_schema) == 0, "hook-schema @0");
_Static_assert(offsetof(hook_request, event) == 4, "event @4");
_Static_assert(offsetof(hook_request, workspace) == 8, "workspace @8");
_Static_assert(offsetof(hook_request, agent_id) == 16, "agent-id @16");
_Static_assert(offsetof(hook_request, tool_call_id) == 24, "tool-call-id @24");
_Static_assert(offsetof(hook_request, tool_name) == 32, "tool-name @32");
_Static_assert(offsetof(hook_request, input) == 40, "input @40");
_Static_assert(offsetof(hook_request, has_output) == 48, "output tag @48");
_Static_assert(offsetof(hook_request, output) == 52, "output @52");
_Static_assert(offsetof(hook_request, has_is_error) == 60, "is-error tag @60");
_Static_assert(offsetof(hook_request, is_error) == 61, "is-error value @61");
_Static_assert(sizeof(hook_request) == 64 && _Alignof(hook_request) == 4, "64-byte record, align 4");

/* ── the result area: result<decision, string>, 32 bytes, align 4 ─────────────────────────────────── */

/** option<string>: tag, then the string at the next 4-byte boundary. */
typedef struct opt_str {
  uint8_t is_some;
  hook_str value;
} opt_str;

/** record modification { input: json, reason: option<string> } */
typedef struct abi_modification {
  hook_str input;
  opt_str reason;
} abi_modification;

/** record replacement { output: json, is-error: option<bool>, reason: option<string> } */
typedef struct abi_replacement {
  hook_str output;
  uint8_t has_is_error;
  uint8_t is_error;
  opt_str reason;
} abi_replacement;

/** variant decision { allow, deny(string), modify(modification), replace(replacement) } */
typedef struct abi_decision {
  uint8_t tag;
  union {
    hook_str deny;
    abi_modification modify;
    abi_replacement replace;
  } of;
} abi_decision;

/** result<decision, string> */
typedef struct abi_result {
  uint8_t is_err;
  union {
    abi_decision ok;
    hook_str err;
  } of;
} abi_result;

_Static_assert(offsetof(abi_result, of.ok.tag) == 4, "decision tag @4");
_Static_assert(offsetof(abi_result, of.err) == 4, "err string @4");
_Static_assert(offsetof(abi_result, of.ok.of.deny) == 8, "deny reason @8");
_Static_assert(offsetof(abi_result, of.ok.of.modify.input) == 8, "modify input @8");
_Static_assert(offsetof(abi_result, of.ok.of.modify.reason.is_some) == 16, "modify reason tag @16");
_Static_assert(offsetof(abi_result, of.ok.of.modify.reason.value) == 20, "modify reason @20");
_Static_assert(offsetof(abi_result, of.ok.of.replace.output) == 8, "replace output @8");
_Static_assert(offsetof(abi_result, of.ok.of.replace.has_is_error) == 16, "replace is-error tag @16");
_Static_assert(offsetof(abi_result, of.ok.of.replace.is_error) == 17, "replace is-error value @17");
_Static_assert(offsetof(abi_result, of.ok.of.replace.reason.is_some) == 20, "replace reason tag @20");
_Static_assert(offsetof(abi_result, of.ok.of.replace.reason.value) == 24, "replace reason @24");
_Static_assert(sizeof(abi_result) == 32 && _Alignof(abi_result) == 4, "32-byte area, align 4");

static abi_result result_area;

/* ── per-call arena ────────────────────────────────────────────────────────────────────────────── */

/*
 * A static base block (in .bss: no file size) serves ordinary calls; bigger calls chain malloc'd
 * overflow blocks that the post-return frees. `last` is the most recent allocation, so the host's
 * string reallocs and hook_buf growth extend in place.
 */
#define ARENA_BASE_SIZE (64 * 1024)

typedef struct block {
  struct block *next;
  size_t cap;
  size_t used;
  _Alignas(8) char data[];
} block;

static _Alignas(8) char base_storage[sizeof(block) + ARENA_BASE_SIZE];
static block *current = NULL;
static char *last = NULL;

static block *base_block(void) {
  block *b = (block *)base_storage;
  if (current == NULL) {
    b->next = NULL;
    b->cap = ARENA_BASE_SIZE;
    b->used = 0;
    current = b;
  }
  return b;
}

static void *arena_alloc(size_t size, size_t align) {
  if (align == 0 || (align & (align - 1)) != 0) __builtin_trap();
  if (align < 8) align = 8;
  base_block();
  size_t at = (current->used + align - 1) & ~(align - 1);
  if (at > current->cap || size > current->cap - at) {
    size_t cap = size + align > ARENA_BASE_SIZE ? size + align : ARENA_BASE_SIZE;
    if (cap < size) __builtin_trap(); /* overflow */
    block *b = malloc(sizeof(block) + cap);
    if (b == NULL) __builtin_trap(); /* out of memory: the host reports a trap / memory limit */
    b->next = current;
    b->cap = cap;
    b->used = 0;
    current = b;
    at = 0;
  }
  char *p = current->data + at;
  current->used = at + size;
  last = p;
  return p;
}

/* Grow or shrink `old` (old_size bytes): in place when it is the newest allocation and fits. */
static void *arena_realloc(void *old, size_t old_size, size_t align, size_t new_size) {
  if (old == NULL) return arena_alloc(new_size, align);
  if ((char *)old == last && (size_t)((char *)old - current->data) + new_size <= current->cap) {
    current->used = (size_t)((char *)old - current->data) + new_size;
    return old;
  }
  void *p = arena_alloc(new_size, align);
  memcpy(p, old, old_size < new_size ? old_size : new_size);
  return p;
}

static void arena_reset(void) {
  block *base = base_block();
  while (current != base) {
    block *next = current->next;
    free(current);
    current = next;
  }
  base->used = 0;
  last = NULL;
}

void *hook_alloc(size_t size) {
  return arena_alloc(size, 8);
}

hook_str hook_strdup(const char *ptr, size_t len) {
  char *p = arena_alloc(len, 1);
  if (len > 0) memcpy(p, ptr, len);
  return (hook_str){p, len};
}

void hook_buf_append(hook_buf *buf, const char *ptr, size_t len) {
  if (len == 0) return;
  if (buf->len + len > buf->cap) {
    size_t cap = buf->cap < 64 ? 64 : buf->cap;
    while (cap < buf->len + len) cap *= 2;
    buf->ptr = arena_realloc(buf->ptr, buf->len, 1, cap);
    buf->cap = cap;
  }
  memcpy(buf->ptr + buf->len, ptr, len);
  buf->len += len;
}

void hook_buf_append_u32(hook_buf *buf, uint32_t value) {
  char digits[10];
  size_t n = 0;
  do {
    digits[sizeof digits - 1 - n++] = (char)('0' + value % 10);
    value /= 10;
  } while (value != 0);
  hook_buf_append(buf, digits + sizeof digits - n, n);
}

bool hook_starts_with_at(hook_str s, size_t at, const char *needle, size_t needle_len) {
  return at <= s.len && needle_len <= s.len - at && memcmp(s.ptr + at, needle, needle_len) == 0;
}

size_t hook_find(hook_str s, size_t from, const char *needle, size_t needle_len) {
  for (size_t i = from; i <= s.len && needle_len <= s.len - i; i++) {
    if (memcmp(s.ptr + i, needle, needle_len) == 0) return i;
  }
  return (size_t)-1;
}

/* ── the exports ───────────────────────────────────────────────────────────────────────────────── */

/* A string the host can read: a NULL pointer (HOOK_NONE, a zeroed hook_str) becomes the empty string. */
static hook_str readable(hook_str s) {
  return s.ptr == NULL ? (hook_str){"", 0} : s;
}

static opt_str optional(bool present, hook_str s) {
  return present ? (opt_str){1, readable(s)} : (opt_str){0, {"", 0}};
}

/** The canonical ABI's allocator: the host copies the request into the per-call arena. */
__attribute__((export_name("cabi_realloc"))) void *cabi_realloc(void *old, size_t old_size, size_t align, size_t new_size) {
  return arena_realloc(old, old_size, align, new_size);
}

__attribute__((export_name("basis:hook/handler@1.0.0#handle"))) abi_result *basis_hook_export_handle(hook_request *request) {
  hook_decision d = handle(request);
  abi_result *r = &result_area;
  memset(r, 0, sizeof *r);
  switch (d.kind) {
    case HOOK_ALLOW:
      r->of.ok.tag = 0;
      break;
    case HOOK_DENY:
      r->of.ok.tag = 1;
      r->of.ok.of.deny = readable(d.text);
      break;
    case HOOK_MODIFY:
      r->of.ok.tag = 2;
      r->of.ok.of.modify.input = readable(d.text);
      r->of.ok.of.modify.reason = optional(d.has_reason, d.reason);
      break;
    case HOOK_REPLACE:
      r->of.ok.tag = 3;
      r->of.ok.of.replace.output = readable(d.text);
      r->of.ok.of.replace.has_is_error = d.has_is_error ? 1 : 0;
      r->of.ok.of.replace.is_error = d.has_is_error && d.is_error ? 1 : 0;
      r->of.ok.of.replace.reason = optional(d.has_reason, d.reason);
      break;
    case HOOK_ERROR:
      r->is_err = 1;
      r->of.err = readable(d.text);
      break;
    default:
      r->is_err = 1;
      r->of.err = HOOK_STR("basis_hook: handle returned an unknown decision kind");
      break;
  }
  return r;
}

/** Post-return: the host has copied the answer out; release everything of this call. */
__attribute__((export_name("cabi_post_basis:hook/handler@1.0.0#handle"))) void basis_hook_post_handle(abi_result *area) {
  (void)area;
  arena_reset();
}
