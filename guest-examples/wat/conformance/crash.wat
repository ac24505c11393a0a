;; conformance `crash`: traps (`unreachable`) → trap.
(func $handle (param $r i32) (result i32)
  unreachable)
