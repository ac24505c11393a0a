;; Imports wasi:sockets: the host must refuse to load it (load_failed naming the import).
(import "wasi:sockets/instance-network@0.2.12" "instance-network" (func $instance_network (result i32)))
(string $s.net "net")
(func $handle (param $r i32) (result i32)
  (if (call $bytes_eq (call $req_tool_ptr (local.get $r)) (call $req_tool_len (local.get $r)) (global.get $s.net) (global.get $s.net.len))
    (then (drop (call $instance_network))))
  (call $ret_allow))
