;; conformance `replace-ok`: {"decision":"replace","output":"replaced as ok","is_error":false}
(string $s.output "\"replaced as ok\"")
(func $handle (param $r i32) (result i32)
  (call $ret_replace (global.get $s.output) (global.get $s.output.len)
    (i32.const 1) (i32.const 0)
    (i32.const 0) (i32.const 0) (i32.const 0)))
