/*
 * guard — pre_tool_use: deny force-pushes to main/master, turn other force-pushes into
 * --force-with-lease (guest-examples/POLICIES.md). Works on the input's JSON text by substring scanning.
 */
#include "basis_hook.h"

static bool ends_word(hook_str t, size_t at) {
  return at < t.len && (t.ptr[at] == ' ' || t.ptr[at] == '"');
}

/** Length of the force flag at `at` (7 for `--force`, 2 for the `-f` of ` -f`), or 0. */
static size_t force_flag_at(hook_str t, size_t at) {
  if (hook_starts_with_at(t, at, "--force", 7) && !(at + 7 < t.len && t.ptr[at + 7] == '-')) return 7;
  if (hook_starts_with_at(t, at, " -f", 3) && ends_word(t, at + 3)) return 2;
  return 0;
}

static bool has_force_flag(hook_str t) {
  for (size_t i = 0; i < t.len; i++) {
    if (force_flag_at(t, i) != 0) return true;
  }
  return false;
}

static bool names_protected_branch(hook_str t) {
  static const char *const branches[] = {" main", " master", ":main", ":master"};
  for (size_t b = 0; b < sizeof branches / sizeof branches[0]; b++) {
    const char *p = branches[b];
    size_t n = __builtin_strlen(p);
    for (size_t i = hook_find(t, 0, p, n); i != (size_t)-1; i = hook_find(t, i + 1, p, n)) {
      if (ends_word(t, i + n)) return true;
    }
  }
  return false;
}

hook_decision handle(const hook_request *req) {
  if (req->event != HOOK_PRE_TOOL_USE) return hook_allow();
  hook_str t = req->input;
  if (hook_find(t, 0, "git push", 8) == (size_t)-1 || !has_force_flag(t)) return hook_allow();
  if (names_protected_branch(t)) return hook_deny(HOOK_STR("force-push to a protected branch (main/master) is not allowed"));

  hook_buf out = {0};
  size_t copied = 0;
  for (size_t i = 0; i < t.len; i++) {
    size_t flag = force_flag_at(t, i);
    if (flag == 0) continue;
    /* ` -f`: the match starts at the space, the flag itself one byte later. */
    size_t at = flag == 2 ? i + 1 : i;
    hook_buf_append(&out, t.ptr + copied, at - copied);
    hook_buf_append_lit(&out, "--force-with-lease");
    copied = at + flag;
    i = copied - 1;
  }
  hook_buf_append(&out, t.ptr + copied, t.len - copied);
  return hook_modify(hook_buf_str(&out), HOOK_STR("replaced --force with --force-with-lease"));
}
