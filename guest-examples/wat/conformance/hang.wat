;; conformance `hang`: never answers (a tight infinite loop) → timeout.
(func $handle (param $r i32) (result i32)
  (loop $forever (br $forever))
  unreachable)
