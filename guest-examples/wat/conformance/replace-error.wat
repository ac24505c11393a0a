;; conformance `replace-error`: {"decision":"replace","output":"replaced as error","is_error":true}
(string $s.output "\"replaced as error\"")
(func $handle (param $r i32) (result i32)
  (call $ret_replace (global.get $s.output) (global.get $s.output.len)
    (i32.const 1) (i32.const 1)
    (i32.const 0) (i32.const 0) (i32.const 0)))
