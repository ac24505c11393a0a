;; Recurses without end: the engine's stack overflows (a RangeError in V8) → trap.
(func $deeper (param $n i32) (result i32)
  (i32.add (call $deeper (i32.add (local.get $n) (i32.const 1))) (local.get $n)))
(func $handle (param $r i32) (result i32)
  (drop (call $deeper (i32.const 0)))
  (call $ret_allow))
