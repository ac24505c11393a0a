;; redact — post_tool_use: replace AWS keys, GitHub tokens and bearer tokens in the output with
;; [REDACTED] (guest-examples/POLICIES.md). Scans the output's JSON text left to right.
(string $s.akia "AKIA")
(string $s.aws_upper "AWS_SECRET_ACCESS_KEY=")
(string $s.aws_lower "aws_secret_access_key=")
(string $s.ghp "ghp_")
(string $s.gho "gho_")
(string $s.ghs "ghs_")
(string $s.ghu "ghu_")
(string $s.bearer "Bearer ")
(string $s.redacted "[REDACTED]")
(string $s.reason_head "redacted ")
(string $s.reason_tail " secret(s)")

;; True when text[at..] starts with the pattern (non-empty; it must fit).
(func $at (param $t i32) (param $tl i32) (param $i i32) (param $p i32) (param $pl i32) (result i32)
  (if (i32.gt_u (local.get $pl) (i32.sub (local.get $tl) (local.get $i))) (then (return (i32.const 0))))
  ;; First byte inline: most positions fail there, and skipping the call saves the metered host fuel.
  (if (i32.ne (i32.load8_u (i32.add (local.get $t) (local.get $i))) (i32.load8_u (local.get $p))) (then (return (i32.const 0))))
  (call $bytes_eq (i32.add (local.get $t) (local.get $i)) (local.get $pl) (local.get $p) (local.get $pl)))

(func $in (param $c i32) (param $lo i32) (param $hi i32) (result i32)
  (i32.and (i32.ge_u (local.get $c) (local.get $lo)) (i32.le_u (local.get $c) (local.get $hi))))

;; Character classes: 0 [A-Z0-9], 1 [A-Za-z0-9], 2 [A-Za-z0-9/+], 3 [A-Za-z0-9._-].
(func $char_ok (param $c i32) (param $class i32) (result i32)
  (if (i32.or (call $in (local.get $c) (i32.const 65) (i32.const 90)) (call $in (local.get $c) (i32.const 48) (i32.const 57)))
    (then (return (i32.const 1))))
  (if (i32.eqz (local.get $class)) (then (return (i32.const 0))))
  (if (call $in (local.get $c) (i32.const 97) (i32.const 122)) (then (return (i32.const 1))))
  (if (i32.eq (local.get $class) (i32.const 2))
    (then (return (i32.or (i32.eq (local.get $c) (i32.const 47)) (i32.eq (local.get $c) (i32.const 43))))))
  (if (i32.eq (local.get $class) (i32.const 3))
    (then (return (i32.or (i32.or (i32.eq (local.get $c) (i32.const 46)) (i32.eq (local.get $c) (i32.const 95)))
                          (i32.eq (local.get $c) (i32.const 45))))))
  (i32.const 0))

;; How many bytes from $from on are in the class.
(func $run_of (param $t i32) (param $tl i32) (param $from i32) (param $class i32) (result i32)
  (local $n i32)
  (block $done
    (loop $next
      (br_if $done (i32.ge_u (i32.add (local.get $from) (local.get $n)) (local.get $tl)))
      (br_if $done (i32.eqz (call $char_ok
        (i32.load8_u (i32.add (local.get $t) (i32.add (local.get $from) (local.get $n)))) (local.get $class))))
      (local.set $n (i32.add (local.get $n) (i32.const 1)))
      (br $next)))
  (local.get $n))

(func $handle (param $r i32) (result i32)
  (local $t i32) (local $tl i32) (local $i i32) (local $copied i32) (local $count i32)
  (local $keep i32) (local $match i32) (local $n i32) (local $out i32) (local $out_len i32)
  (if (i32.eqz (call $req_is_post (local.get $r))) (then (return (call $ret_allow))))
  (if (i32.eqz (call $req_has_output (local.get $r))) (then (return (call $ret_allow))))
  (local.set $t (call $req_output_ptr (local.get $r)))
  (local.set $tl (call $req_output_len (local.get $r)))
  (call $sb_begin)
  (block $done
    (loop $next
      (br_if $done (i32.ge_u (local.get $i) (local.get $tl)))
      ;; $keep: bytes of the match that stay (`AWS_SECRET_ACCESS_KEY=`, `Bearer `); $match: all of it.
      (local.set $keep (i32.const 0))
      (local.set $match (i32.const 0))
      (block $found
        (if (call $at (local.get $t) (local.get $tl) (local.get $i) (global.get $s.akia) (global.get $s.akia.len))
          (then
            (if (i32.ge_u (call $run_of (local.get $t) (local.get $tl) (i32.add (local.get $i) (i32.const 4)) (i32.const 0)) (i32.const 16))
              (then (local.set $match (i32.const 20)) (br $found)))))
        (if (i32.or (call $at (local.get $t) (local.get $tl) (local.get $i) (global.get $s.aws_upper) (global.get $s.aws_upper.len))
                    (call $at (local.get $t) (local.get $tl) (local.get $i) (global.get $s.aws_lower) (global.get $s.aws_lower.len)))
          (then
            (if (i32.ge_u (call $run_of (local.get $t) (local.get $tl) (i32.add (local.get $i) (i32.const 22)) (i32.const 2)) (i32.const 40))
              (then (local.set $keep (i32.const 22)) (local.set $match (i32.const 62)) (br $found)))))
        (if (i32.or
              (i32.or (call $at (local.get $t) (local.get $tl) (local.get $i) (global.get $s.ghp) (global.get $s.ghp.len))
                      (call $at (local.get $t) (local.get $tl) (local.get $i) (global.get $s.gho) (global.get $s.gho.len)))
              (i32.or (call $at (local.get $t) (local.get $tl) (local.get $i) (global.get $s.ghs) (global.get $s.ghs.len))
                      (call $at (local.get $t) (local.get $tl) (local.get $i) (global.get $s.ghu) (global.get $s.ghu.len))))
          (then
            (if (i32.ge_u (call $run_of (local.get $t) (local.get $tl) (i32.add (local.get $i) (i32.const 4)) (i32.const 1)) (i32.const 36))
              (then (local.set $match (i32.const 40)) (br $found)))))
        (if (call $at (local.get $t) (local.get $tl) (local.get $i) (global.get $s.bearer) (global.get $s.bearer.len))
          (then
            (local.set $n (call $run_of (local.get $t) (local.get $tl) (i32.add (local.get $i) (i32.const 7)) (i32.const 3)))
            (if (i32.ge_u (local.get $n) (i32.const 20))
              (then (local.set $keep (i32.const 7)) (local.set $match (i32.add (i32.const 7) (local.get $n))))))))
      (if (local.get $match)
        (then
          (call $sb_emit (i32.add (local.get $t) (local.get $copied))
            (i32.sub (i32.add (local.get $i) (local.get $keep)) (local.get $copied)))
          (call $sb_emit (global.get $s.redacted) (global.get $s.redacted.len))
          (local.set $i (i32.add (local.get $i) (local.get $match)))
          (local.set $copied (local.get $i))
          (local.set $count (i32.add (local.get $count) (i32.const 1))))
        (else (local.set $i (i32.add (local.get $i) (i32.const 1)))))
      (br $next)))
  (if (i32.eqz (local.get $count)) (then (return (call $ret_allow))))
  (call $sb_emit (i32.add (local.get $t) (local.get $copied)) (i32.sub (local.get $tl) (local.get $copied)))
  (local.set $out (global.get $sb_start))
  (local.set $out_len (call $sb_len))
  ;; The reason is a second string, built after the first on the heap.
  (call $sb_begin)
  (call $sb_emit (global.get $s.reason_head) (global.get $s.reason_head.len))
  (call $sb_u32 (local.get $count))
  (call $sb_emit (global.get $s.reason_tail) (global.get $s.reason_tail.len))
  (call $ret_replace (local.get $out) (local.get $out_len)
    (i32.const 0) (i32.const 0)
    (i32.const 1) (global.get $sb_start) (call $sb_len)))
