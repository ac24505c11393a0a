;; conformance `oversized`: denies with a 2 MiB reason, over the suite's 64 KiB cap and the default
;; 1 MiB one → output_too_large.
(func $handle (param $r i32) (result i32)
  (local $p i32)
  (local.set $p (call $alloc (i32.const 2097152) (i32.const 1)))
  (memory.fill (local.get $p) (i32.const 120) (i32.const 2097152))
  (call $ret_deny (local.get $p) (i32.const 2097152)))
