;; conformance `replace-wrap`: replace, output = {"wrapped":<request.output, or null when absent>},
;; no is_error (the tool's claim stands), reason "wrapped output".
(string $s.reason "wrapped output")
(string $s.close "}")
(func $handle (param $r i32) (result i32)
  (call $sb_begin)
  (call $sb_emit (global.get $s.wrapped_prefix) (global.get $s.wrapped_prefix.len))
  (if (call $req_has_output (local.get $r))
    (then (call $sb_emit (call $req_output_ptr (local.get $r)) (call $req_output_len (local.get $r))))
    (else (call $sb_emit (global.get $s.null) (global.get $s.null.len))))
  (call $sb_emit (global.get $s.close) (global.get $s.close.len))
  (call $ret_replace (global.get $sb_start) (call $sb_len)
    (i32.const 0) (i32.const 0)
    (i32.const 1) (global.get $s.reason) (global.get $s.reason.len)))
