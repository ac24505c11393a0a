;; guard — pre_tool_use: deny force-pushes to main/master, turn other force-pushes into
;; --force-with-lease (guest-examples/POLICIES.md). Scans the input's JSON text; no JSON parser.
(string $s.git_push "git push")
(string $s.force "--force")
(string $s.dash_f " -f")
(string $s.lease "--force-with-lease")
(string $s.b_main " main")
(string $s.b_master " master")
(string $s.r_main ":main")
(string $s.r_master ":master")
(string $s.deny "force-push to a protected branch (main/master) is not allowed")
(string $s.reason "replaced --force with --force-with-lease")

;; True when text[at..] starts with the pattern (non-empty; it must fit).
(func $at (param $t i32) (param $tl i32) (param $i i32) (param $p i32) (param $pl i32) (result i32)
  (if (i32.gt_u (local.get $pl) (i32.sub (local.get $tl) (local.get $i))) (then (return (i32.const 0))))
  ;; First byte inline: most positions fail there, and skipping the call saves the metered host fuel.
  (if (i32.ne (i32.load8_u (i32.add (local.get $t) (local.get $i))) (i32.load8_u (local.get $p))) (then (return (i32.const 0))))
  (call $bytes_eq (i32.add (local.get $t) (local.get $i)) (local.get $pl) (local.get $p) (local.get $pl)))

;; True when text[at] exists and is a space or a quote (the end of a word in a command string).
(func $ends_word (param $t i32) (param $tl i32) (param $i i32) (result i32)
  (local $c i32)
  (if (i32.ge_u (local.get $i) (local.get $tl)) (then (return (i32.const 0))))
  (local.set $c (i32.load8_u (i32.add (local.get $t) (local.get $i))))
  (i32.or (i32.eq (local.get $c) (i32.const 32)) (i32.eq (local.get $c) (i32.const 34))))

;; The force flag at $i: 7 for `--force` not followed by `-`, 2 for the ` -f` that starts here (the
;; flag itself begins one byte later), 0 for none.
(func $flag_at (param $t i32) (param $tl i32) (param $i i32) (result i32)
  (local $n i32)
  (if (call $at (local.get $t) (local.get $tl) (local.get $i) (global.get $s.force) (global.get $s.force.len))
    (then
      (local.set $n (i32.add (local.get $i) (i32.const 7)))
      (if (i32.or (i32.ge_u (local.get $n) (local.get $tl))
                  (i32.ne (i32.load8_u (i32.add (local.get $t) (local.get $n))) (i32.const 45)))
        (then (return (i32.const 7))))))
  (if (call $at (local.get $t) (local.get $tl) (local.get $i) (global.get $s.dash_f) (global.get $s.dash_f.len))
    (then
      (if (call $ends_word (local.get $t) (local.get $tl) (i32.add (local.get $i) (i32.const 3)))
        (then (return (i32.const 2))))))
  (i32.const 0))

;; True when the pattern occurs anywhere followed by the end of a word (with $word), or at all.
(func $find (param $t i32) (param $tl i32) (param $p i32) (param $pl i32) (param $word i32) (result i32)
  (local $i i32)
  (block $done
    (loop $next
      (br_if $done (i32.ge_u (local.get $i) (local.get $tl)))
      (if (call $at (local.get $t) (local.get $tl) (local.get $i) (local.get $p) (local.get $pl))
        (then
          (if (i32.or (i32.eqz (local.get $word))
                      (call $ends_word (local.get $t) (local.get $tl) (i32.add (local.get $i) (local.get $pl))))
            (then (return (i32.const 1))))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $next)))
  (i32.const 0))

(func $has_flag (param $t i32) (param $tl i32) (result i32)
  (local $i i32)
  (block $done
    (loop $next
      (br_if $done (i32.ge_u (local.get $i) (local.get $tl)))
      (if (call $flag_at (local.get $t) (local.get $tl) (local.get $i)) (then (return (i32.const 1))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $next)))
  (i32.const 0))

(func $handle (param $r i32) (result i32)
  (local $t i32) (local $tl i32) (local $i i32) (local $flag i32) (local $copied i32)
  (if (call $req_is_post (local.get $r)) (then (return (call $ret_allow))))
  (local.set $t (call $req_input_ptr (local.get $r)))
  (local.set $tl (call $req_input_len (local.get $r)))
  (if (i32.eqz (call $find (local.get $t) (local.get $tl) (global.get $s.git_push) (global.get $s.git_push.len) (i32.const 0)))
    (then (return (call $ret_allow))))
  (if (i32.eqz (call $has_flag (local.get $t) (local.get $tl))) (then (return (call $ret_allow))))
  (if (i32.or
        (i32.or (call $find (local.get $t) (local.get $tl) (global.get $s.b_main) (global.get $s.b_main.len) (i32.const 1))
                (call $find (local.get $t) (local.get $tl) (global.get $s.b_master) (global.get $s.b_master.len) (i32.const 1)))
        (i32.or (call $find (local.get $t) (local.get $tl) (global.get $s.r_main) (global.get $s.r_main.len) (i32.const 1))
                (call $find (local.get $t) (local.get $tl) (global.get $s.r_master) (global.get $s.r_master.len) (i32.const 1))))
    (then (return (call $ret_deny (global.get $s.deny) (global.get $s.deny.len)))))
  ;; Rewrite: copy the text, each flag replaced by --force-with-lease (` -f` keeps its space).
  (call $sb_begin)
  (block $done
    (loop $next
      (br_if $done (i32.ge_u (local.get $i) (local.get $tl)))
      (local.set $flag (call $flag_at (local.get $t) (local.get $tl) (local.get $i)))
      (if (local.get $flag)
        (then
          (if (i32.eq (local.get $flag) (i32.const 2)) (then (local.set $i (i32.add (local.get $i) (i32.const 1)))))
          (call $sb_emit (i32.add (local.get $t) (local.get $copied)) (i32.sub (local.get $i) (local.get $copied)))
          (call $sb_emit (global.get $s.lease) (global.get $s.lease.len))
          (local.set $i (i32.add (local.get $i) (local.get $flag)))
          (local.set $copied (local.get $i)))
        (else (local.set $i (i32.add (local.get $i) (i32.const 1)))))
      (br $next)))
  (call $sb_emit (i32.add (local.get $t) (local.get $copied)) (i32.sub (local.get $tl) (local.get $copied)))
  (call $ret_modify (global.get $sb_start) (call $sb_len)
    (i32.const 1) (global.get $s.reason) (global.get $s.reason.len)))
