;; conformance `malformed`: modify whose input is not JSON text → malformed_response.
(string $s.not_json "{this is not json")
(func $handle (param $r i32) (result i32)
  (call $ret_modify (global.get $s.not_json) (global.get $s.not_json.len) (i32.const 0) (i32.const 0) (i32.const 0)))
