;; conformance `deny-if-wrapped`: deny "saw a wrapped value" when the value the hook may rewrite (input
;; at pre, output at post) is an object with a "wrapped" key; else allow.
(string $s.reason "saw a wrapped value")
(func $handle (param $r i32) (result i32)
  (local $p i32) (local $l i32)
  (if (call $req_is_post (local.get $r))
    (then
      (if (i32.eqz (call $req_has_output (local.get $r))) (then (return (call $ret_allow))))
      (local.set $p (call $req_output_ptr (local.get $r)))
      (local.set $l (call $req_output_len (local.get $r))))
    (else
      (local.set $p (call $req_input_ptr (local.get $r)))
      (local.set $l (call $req_input_len (local.get $r)))))
  (if (result i32) (call $is_wrapped (local.get $p) (local.get $l))
    (then (call $ret_deny (global.get $s.reason) (global.get $s.reason.len)))
    (else (call $ret_allow))))
