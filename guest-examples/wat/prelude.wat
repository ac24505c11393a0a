;; Shared by every WAT guest: scripts/guests/wat.ts splices this into each guest's module (after the
;; guest's imports, before its other fields) and adds the `handle` export and its post-return.
;;
;; Canonical ABI (see /work/shared/TOOLCHAIN.md and wit/hook.wit):
;; - `handle` receives one i32: a pointer to the 64-byte hook-request record (align 4):
;;   hook-schema@0 event@4 workspace@8/12 agent-id@16/20 tool-call-id@24/28 tool-name@32/36
;;   input@40/44 output: tag@48 ptr@52 len@56, is-error: tag@60 value@61.
;; - it returns a pointer to a 32-byte result<decision, string> area:
;;   [0] ok=0/err=1; ok: [4] decision allow 0 deny 1 modify 2 replace 3; deny string [8]/[12];
;;   modify input [8]/[12], reason option tag [16] ptr [20] len [24];
;;   replace output [8]/[12], is-error option tag [16] value [17], reason tag [20] ptr [24] len [28];
;;   err string [4]/[8].
;;
;; Memory map: 0..16 unused, 16..48 the result area, 1024.. static strings (placed by the builder),
;; the heap (a bump allocator) after them. The post-return export resets the heap after every call,
;; so a guest's memory does not grow with the number of calls.

(memory (export "memory") 1)

(global $heap_base (mut i32) (i32.const 0))
(global $heap (mut i32) (i32.const 0))
(global $sb_start (mut i32) (i32.const 0))

(func $heap_init
  (if (i32.eqz (global.get $heap_base))
    (then
      (global.set $heap_base (global.get $__static_end))
      (global.set $heap (global.get $__static_end)))))

;; Bump-allocate `size` bytes aligned to `align`, growing memory as needed. Traps when memory cannot
;; grow (the host's memory cap): an allocator with nowhere to go has no honest answer.
(func $alloc (param $size i32) (param $align i32) (result i32)
  (local $ptr i32) (local $end i32) (local $have i32)
  (call $heap_init)
  (local.set $ptr
    (i32.and
      (i32.add (global.get $heap) (i32.sub (local.get $align) (i32.const 1)))
      (i32.sub (i32.const 0) (local.get $align))))
  (local.set $end (i32.add (local.get $ptr) (local.get $size)))
  (local.set $have (i32.mul (memory.size) (i32.const 65536)))
  (if (i32.gt_u (local.get $end) (local.get $have))
    (then
      (if (i32.eq
            (memory.grow
              (i32.shr_u (i32.add (i32.sub (local.get $end) (local.get $have)) (i32.const 65535)) (i32.const 16)))
            (i32.const -1))
        (then unreachable))))
  (global.set $heap (local.get $end))
  (local.get $ptr))

(func (export "cabi_realloc") (param $old i32) (param $old_size i32) (param $align i32) (param $new_size i32) (result i32)
  (local $ptr i32)
  (local.set $ptr (call $alloc (local.get $new_size) (local.get $align)))
  (if (local.get $old)
    (then (memory.copy (local.get $ptr) (local.get $old)
      (select (local.get $old_size) (local.get $new_size) (i32.lt_u (local.get $old_size) (local.get $new_size))))))
  (local.get $ptr))

;; Called by the host after it has read the result: everything allocated for the call is garbage.
(func $post_return (param i32)
  (call $heap_init)
  (global.set $heap (global.get $heap_base)))

;; ── request accessors ────────────────────────────────────────────────────────────────────────────
(func $req_schema (param $r i32) (result i32) (i32.load (local.get $r)))
(func $req_is_post (param $r i32) (result i32) (i32.load8_u offset=4 (local.get $r)))
(func $req_tool_ptr (param $r i32) (result i32) (i32.load offset=32 (local.get $r)))
(func $req_tool_len (param $r i32) (result i32) (i32.load offset=36 (local.get $r)))
(func $req_input_ptr (param $r i32) (result i32) (i32.load offset=40 (local.get $r)))
(func $req_input_len (param $r i32) (result i32) (i32.load offset=44 (local.get $r)))
(func $req_has_output (param $r i32) (result i32) (i32.load8_u offset=48 (local.get $r)))
(func $req_output_ptr (param $r i32) (result i32) (i32.load offset=52 (local.get $r)))
(func $req_output_len (param $r i32) (result i32) (i32.load offset=56 (local.get $r)))
(func $req_has_is_error (param $r i32) (result i32) (i32.load8_u offset=60 (local.get $r)))
(func $req_is_error (param $r i32) (result i32) (i32.load8_u offset=61 (local.get $r)))

;; ── results ──────────────────────────────────────────────────────────────────────────────────────
(func $clear_result
  (memory.fill (i32.const 16) (i32.const 0) (i32.const 32)))

(func $ret_allow (result i32)
  (call $clear_result)
  (i32.const 16))

(func $ret_deny (param $p i32) (param $l i32) (result i32)
  (call $clear_result)
  (i32.store8 offset=4 (i32.const 16) (i32.const 1))
  (i32.store offset=8 (i32.const 16) (local.get $p))
  (i32.store offset=12 (i32.const 16) (local.get $l))
  (i32.const 16))

;; modify: input text, and a reason when $has_reason.
(func $ret_modify (param $p i32) (param $l i32) (param $has_reason i32) (param $rp i32) (param $rl i32) (result i32)
  (call $clear_result)
  (i32.store8 offset=4 (i32.const 16) (i32.const 2))
  (i32.store offset=8 (i32.const 16) (local.get $p))
  (i32.store offset=12 (i32.const 16) (local.get $l))
  (if (local.get $has_reason)
    (then
      (i32.store8 offset=16 (i32.const 16) (i32.const 1))
      (i32.store offset=20 (i32.const 16) (local.get $rp))
      (i32.store offset=24 (i32.const 16) (local.get $rl))))
  (i32.const 16))

;; replace: output text; is_error when $has_is_error (value $is_error); a reason when $has_reason.
(func $ret_replace (param $p i32) (param $l i32) (param $has_is_error i32) (param $is_error i32)
                   (param $has_reason i32) (param $rp i32) (param $rl i32) (result i32)
  (call $clear_result)
  (i32.store8 offset=4 (i32.const 16) (i32.const 3))
  (i32.store offset=8 (i32.const 16) (local.get $p))
  (i32.store offset=12 (i32.const 16) (local.get $l))
  (if (local.get $has_is_error)
    (then
      (i32.store8 offset=16 (i32.const 16) (i32.const 1))
      (i32.store8 offset=17 (i32.const 16) (local.get $is_error))))
  (if (local.get $has_reason)
    (then
      (i32.store8 offset=20 (i32.const 16) (i32.const 1))
      (i32.store offset=24 (i32.const 16) (local.get $rp))
      (i32.store offset=28 (i32.const 16) (local.get $rl))))
  (i32.const 16))

(func $ret_err (param $p i32) (param $l i32) (result i32)
  (call $clear_result)
  (i32.store8 (i32.const 16) (i32.const 1))
  (i32.store offset=4 (i32.const 16) (local.get $p))
  (i32.store offset=8 (i32.const 16) (local.get $l))
  (i32.const 16))

;; ── string builder: one string at a time, appended at the top of the heap ─────────────────────────
;; Make every import call (WASI) before $sb_begin: the glue allocates their results on the heap too,
;; and they would land in the middle of the string being built.
(func $sb_begin
  (call $heap_init)
  (global.set $sb_start (global.get $heap)))

(func $sb_emit (param $p i32) (param $l i32)
  (memory.copy (call $alloc (local.get $l) (i32.const 1)) (local.get $p) (local.get $l)))

(func $sb_byte (param $b i32)
  (i32.store8 (call $alloc (i32.const 1) (i32.const 1)) (local.get $b)))

;; Append an unsigned decimal number.
(func $sb_u32 (param $n i32)
  (if (i32.ge_u (local.get $n) (i32.const 10))
    (then (call $sb_u32 (i32.div_u (local.get $n) (i32.const 10)))))
  (call $sb_byte (i32.add (i32.const 48) (i32.rem_u (local.get $n) (i32.const 10)))))

(func $sb_bool (param $b i32)
  (if (local.get $b)
    (then (call $sb_emit (global.get $s.true) (global.get $s.true.len)))
    (else (call $sb_emit (global.get $s.false) (global.get $s.false.len)))))

;; Append text as a JSON string literal (quotes, backslashes and control characters escaped).
(func $sb_json_string (param $p i32) (param $l i32)
  (local $i i32) (local $c i32)
  (call $sb_byte (i32.const 34))
  (block $done
    (loop $next
      (br_if $done (i32.ge_u (local.get $i) (local.get $l)))
      (local.set $c (i32.load8_u (i32.add (local.get $p) (local.get $i))))
      (if (i32.or (i32.eq (local.get $c) (i32.const 34)) (i32.eq (local.get $c) (i32.const 92)))
        (then (call $sb_byte (i32.const 92)) (call $sb_byte (local.get $c)))
        (else
          (if (i32.lt_u (local.get $c) (i32.const 32))
            (then
              (call $sb_emit (global.get $s.u00) (global.get $s.u00.len))
              (call $sb_byte (i32.add (i32.const 48) (i32.shr_u (local.get $c) (i32.const 4))))
              (call $sb_byte (i32.load8_u (i32.add (global.get $s.hex) (i32.and (local.get $c) (i32.const 15))))))
            (else (call $sb_byte (local.get $c))))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $next)))
  (call $sb_byte (i32.const 34)))

;; Length of the string built since $sb_begin (its start is $sb_start).
(func $sb_len (result i32)
  (i32.sub (global.get $heap) (global.get $sb_start)))

;; True when the two byte strings are equal.
(func $bytes_eq (param $a i32) (param $al i32) (param $b i32) (param $bl i32) (result i32)
  (local $i i32)
  (if (i32.ne (local.get $al) (local.get $bl)) (then (return (i32.const 0))))
  (block $done
    (loop $next
      (br_if $done (i32.ge_u (local.get $i) (local.get $al)))
      (if (i32.ne (i32.load8_u (i32.add (local.get $a) (local.get $i))) (i32.load8_u (i32.add (local.get $b) (local.get $i))))
        (then (return (i32.const 0))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $next)))
  (i32.const 1))

;; True when JSON text is an object with a top-level "wrapped" key. Good enough for the texts the host
;; produces (JSON.stringify: no whitespace): it looks for `{"wrapped":` at the start.
(func $is_wrapped (param $p i32) (param $l i32) (result i32)
  (if (i32.lt_u (local.get $l) (global.get $s.wrapped_prefix.len)) (then (return (i32.const 0))))
  (call $bytes_eq (local.get $p) (global.get $s.wrapped_prefix.len) (global.get $s.wrapped_prefix) (global.get $s.wrapped_prefix.len)))

(string $s.true "true")
(string $s.false "false")
(string $s.null "null")
(string $s.u00 "\\u00")
(string $s.hex "0123456789abcdef")
(string $s.wrapped_prefix "{\"wrapped\":")
