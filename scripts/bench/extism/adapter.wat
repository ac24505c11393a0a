;; The Extism face of the WAT `guard` policy (guest-examples/wat/policies/guard.wat, unchanged): an
;; exported `guard` function that takes the request as Extism input (the JSON text of the request, as a
;; subprocess hook reads it on stdin) and sets the response JSON as Extism output — the Extism way of
;; writing the same hook. Assembled by scripts/bench/extism/plugin.ts with the WAT guests' prelude and
;; the guard's own source; the decision logic is the guard's `$handle`, byte for byte.
;;
;; The request text comes from JSON.stringify of the host's request literal, so its keys are in the
;; contract's order and `,"input":` occurs once, as the top-level key (inside a string value the quote
;; would be escaped). Before the call the input is the last member: its text runs to the final `}`.

(import "extism:host/env" "input_length" (func $x_input_length (result i64)))
(import "extism:host/env" "input_load_u8" (func $x_input_load_u8 (param i64) (result i32)))
(import "extism:host/env" "input_load_u64" (func $x_input_load_u64 (param i64) (result i64)))
(import "extism:host/env" "alloc" (func $x_alloc (param i64) (result i64)))
(import "extism:host/env" "store_u8" (func $x_store_u8 (param i64) (param i32)))
(import "extism:host/env" "store_u64" (func $x_store_u64 (param i64) (param i64)))
(import "extism:host/env" "output_set" (func $x_output_set (param i64) (param i64)))

(string $x.post "\"event\":\"post_tool_use\"")
(string $x.input_key ",\"input\":")
(string $x.allow "{\"decision\":\"allow\"}")
(string $x.deny_head "{\"decision\":\"deny\",\"reason\":")
(string $x.modify_head "{\"decision\":\"modify\",\"input\":")
(string $x.reason_key ",\"reason\":")
(string $x.close "}")

;; Position of the first occurrence of the pattern in the text, or -1.
(func $x_index (param $t i32) (param $tl i32) (param $p i32) (param $pl i32) (result i32)
  (local $i i32)
  (block $done
    (loop $next
      (br_if $done (i32.gt_u (i32.add (local.get $i) (local.get $pl)) (local.get $tl)))
      (if (call $at (local.get $t) (local.get $tl) (local.get $i) (local.get $p) (local.get $pl))
        (then (return (local.get $i))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $next)))
  (i32.const -1))

;; Copy the Extism input into this module's memory: 8 bytes at a time, then the tail.
(func $x_read_input (param $buf i32) (param $n i32)
  (local $i i32)
  (block $done
    (loop $next
      (br_if $done (i32.gt_u (i32.add (local.get $i) (i32.const 8)) (local.get $n)))
      (i64.store (i32.add (local.get $buf) (local.get $i)) (call $x_input_load_u64 (i64.extend_i32_u (local.get $i))))
      (local.set $i (i32.add (local.get $i) (i32.const 8)))
      (br $next)))
  (block $done
    (loop $next
      (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
      (i32.store8 (i32.add (local.get $buf) (local.get $i)) (call $x_input_load_u8 (i64.extend_i32_u (local.get $i))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $next))))

;; Hand `len` bytes at `ptr` to Extism as the output.
(func $x_write_output (param $ptr i32) (param $len i32)
  (local $out i64) (local $i i32)
  (local.set $out (call $x_alloc (i64.extend_i32_u (local.get $len))))
  (block $done
    (loop $next
      (br_if $done (i32.gt_u (i32.add (local.get $i) (i32.const 8)) (local.get $len)))
      (call $x_store_u64 (i64.add (local.get $out) (i64.extend_i32_u (local.get $i))) (i64.load (i32.add (local.get $ptr) (local.get $i))))
      (local.set $i (i32.add (local.get $i) (i32.const 8)))
      (br $next)))
  (block $done
    (loop $next
      (br_if $done (i32.ge_u (local.get $i) (local.get $len)))
      (call $x_store_u8 (i64.add (local.get $out) (i64.extend_i32_u (local.get $i))) (i32.load8_u (i32.add (local.get $ptr) (local.get $i))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $next)))
  (call $x_output_set (local.get $out) (i64.extend_i32_u (local.get $len))))

(func $x_guard (export "guard") (result i32)
  (local $n i32) (local $buf i32) (local $rec i32) (local $res i32) (local $at i32) (local $start i32)
  (local.set $n (i32.wrap_i64 (call $x_input_length)))
  (local.set $buf (call $alloc (local.get $n) (i32.const 8)))
  (call $x_read_input (local.get $buf) (local.get $n))
  ;; The 64-byte request record the guard's $handle reads (only event and input matter to it).
  (local.set $rec (call $alloc (i32.const 64) (i32.const 4)))
  (memory.fill (local.get $rec) (i32.const 0) (i32.const 64))
  (if (i32.ge_s (call $x_index (local.get $buf) (local.get $n) (global.get $x.post) (global.get $x.post.len)) (i32.const 0))
    (then (i32.store8 offset=4 (local.get $rec) (i32.const 1)))
    (else
      (local.set $at (call $x_index (local.get $buf) (local.get $n) (global.get $x.input_key) (global.get $x.input_key.len)))
      (if (i32.lt_s (local.get $at) (i32.const 0)) (then unreachable))
      (local.set $start (i32.add (local.get $at) (global.get $x.input_key.len)))
      (i32.store offset=40 (local.get $rec) (i32.add (local.get $buf) (local.get $start)))
      ;; Up to the request's closing brace.
      (i32.store offset=44 (local.get $rec) (i32.sub (i32.sub (local.get $n) (i32.const 1)) (local.get $start)))))
  (local.set $res (call $handle (local.get $rec)))
  ;; The decision as the response JSON.
  (call $sb_begin)
  (block $written
    (if (i32.eqz (i32.load8_u offset=4 (local.get $res)))
      (then (call $sb_emit (global.get $x.allow) (global.get $x.allow.len)) (br $written)))
    (if (i32.eq (i32.load8_u offset=4 (local.get $res)) (i32.const 1))
      (then
        (call $sb_emit (global.get $x.deny_head) (global.get $x.deny_head.len))
        (call $sb_json_string (i32.load offset=8 (local.get $res)) (i32.load offset=12 (local.get $res)))
        (call $sb_emit (global.get $x.close) (global.get $x.close.len))
        (br $written)))
    ;; modify: the rewritten input text is JSON text already.
    (call $sb_emit (global.get $x.modify_head) (global.get $x.modify_head.len))
    (call $sb_emit (i32.load offset=8 (local.get $res)) (i32.load offset=12 (local.get $res)))
    (call $sb_emit (global.get $x.reason_key) (global.get $x.reason_key.len))
    (call $sb_json_string (i32.load offset=20 (local.get $res)) (i32.load offset=24 (local.get $res)))
    (call $sb_emit (global.get $x.close) (global.get $x.close.len)))
  (call $x_write_output (global.get $sb_start) (call $sb_len))
  ;; Everything allocated for the call is garbage now (what the component's post-return does).
  (call $post_return (i32.const 0))
  (i32.const 0))
