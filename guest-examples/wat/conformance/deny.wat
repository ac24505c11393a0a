;; conformance `deny`: {"decision":"deny","reason":"denied by conformance hook"}
(string $s.reason "denied by conformance hook")
(func $handle (param $r i32) (result i32)
  (call $ret_deny (global.get $s.reason) (global.get $s.reason.len)))
