;; Imports wasi:http/outgoing-handler: the host must refuse to load it (load_failed naming the import).
(import "wasi:http/outgoing-handler@0.2.12" "handle" (func $http_handle (param i32 i32 i32 i32)))
(string $s.net "net")
(func $handle (param $r i32) (result i32)
  (if (call $bytes_eq (call $req_tool_ptr (local.get $r)) (call $req_tool_len (local.get $r)) (global.get $s.net) (global.get $s.net.len))
    (then (call $http_handle (i32.const 0) (i32.const 0) (i32.const 0) (i32.const 64))))
  (call $ret_allow))
