;; conformance `modify-wrap`: modify, input = {"wrapped":<request.input>}, reason "wrapped input" — at
;; either event (at post_tool_use that is the wrong-event vector). Exercises modify's ABI layout with a
;; reason.
(string $s.reason "wrapped input")
(string $s.close "}")
(func $handle (param $r i32) (result i32)
  (call $sb_begin)
  (call $sb_emit (global.get $s.wrapped_prefix) (global.get $s.wrapped_prefix.len))
  (call $sb_emit (call $req_input_ptr (local.get $r)) (call $req_input_len (local.get $r)))
  (call $sb_emit (global.get $s.close) (global.get $s.close.len))
  (call $ret_modify (global.get $sb_start) (call $sb_len)
    (i32.const 1) (global.get $s.reason) (global.get $s.reason.len)))
