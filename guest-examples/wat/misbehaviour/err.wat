;; Returns err(message): a failed hook → guest_error, with the message in the trail.
(string $s.message "the guest refuses: policy store unavailable")
(func $handle (param $r i32) (result i32)
  (call $ret_err (global.get $s.message) (global.get $s.message.len)))
