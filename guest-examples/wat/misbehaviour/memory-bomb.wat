;; Grows its memory by 1 MiB at a time and writes every new page (so it is resident, not just
;; reserved) until the host's cap refuses (memory.grow returns -1), then traps: the host reports
;; memory_limit (the memory is at its cap) and discards the instance.
(func $handle (param $r i32) (result i32)
  (local $old i32)
  (loop $grow
    (local.set $old (memory.grow (i32.const 16)))
    (if (i32.eq (local.get $old) (i32.const -1)) (then unreachable))
    (memory.fill (i32.mul (local.get $old) (i32.const 65536)) (i32.const 0xAA) (i32.const 1048576))
    (br $grow))
  unreachable)
