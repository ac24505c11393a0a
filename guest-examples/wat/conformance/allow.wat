;; conformance `allow`: {"decision":"allow"}
(func $handle (param $r i32) (result i32)
  (call $ret_allow))
