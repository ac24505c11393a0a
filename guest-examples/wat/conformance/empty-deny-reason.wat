;; conformance `empty-deny-reason`: {"decision":"deny","reason":""} → malformed_response.
(func $handle (param $r i32) (result i32)
  (call $ret_deny (i32.const 1) (i32.const 0)))
