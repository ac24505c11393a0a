;; Always answers with the decision of the other event: replace before the call, modify after it →
;; wrong_decision_for_event (the runner's rule; the transport passes the answer on).
(string $s.text "\"rewritten\"")
(func $handle (param $r i32) (result i32)
  (if (result i32) (call $req_is_post (local.get $r))
    (then (call $ret_modify (global.get $s.text) (global.get $s.text.len) (i32.const 0) (i32.const 0) (i32.const 0)))
    (else (call $ret_replace (global.get $s.text) (global.get $s.text.len)
      (i32.const 0) (i32.const 0) (i32.const 0) (i32.const 0) (i32.const 0)))))
