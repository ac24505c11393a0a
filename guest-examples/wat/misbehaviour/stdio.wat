;; Writes a line to stdout and one to stderr through WASI, then allows. With tool name "flood" it
;; writes 256 KiB to stdout first (in 4 KiB writes, the most one blocking-write-and-flush may carry),
;; so a test can see the host's log cap.
(import "wasi:cli/stdout@0.2.12" "get-stdout" (func $get_stdout (result i32)))
(import "wasi:cli/stderr@0.2.12" "get-stderr" (func $get_stderr (result i32)))
(import "wasi:io/streams@0.2.12" "[method]output-stream.blocking-write-and-flush"
  (func $write_and_flush (param i32 i32 i32 i32)))
(import "wasi:io/streams@0.2.12" "[resource-drop]output-stream" (func $drop_output (param i32)))
(string $s.out "hello from the guest's stdout\n")
(string $s.err "hello from the guest's stderr\n")
(string $s.flood "flood")
;; Write and report failure by trapping: a write the host refused is a bug in the host's sandbox.
(func $write (param $stream i32) (param $p i32) (param $l i32)
  (call $write_and_flush (local.get $stream) (local.get $p) (local.get $l) (i32.const 8))
  (if (i32.load8_u (i32.const 8)) (then unreachable)))
(func $handle (param $r i32) (result i32)
  (local $out i32) (local $err i32) (local $i i32) (local $chunk i32)
  (local.set $out (call $get_stdout))
  (local.set $err (call $get_stderr))
  (if (call $bytes_eq (call $req_tool_ptr (local.get $r)) (call $req_tool_len (local.get $r)) (global.get $s.flood) (global.get $s.flood.len))
    (then
      (local.set $chunk (call $alloc (i32.const 4096) (i32.const 1)))
      (memory.fill (local.get $chunk) (i32.const 46) (i32.const 4096))
      (loop $more
        (call $write (local.get $out) (local.get $chunk) (i32.const 4096))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br_if $more (i32.lt_u (local.get $i) (i32.const 64))))))
  (call $write (local.get $out) (global.get $s.out) (global.get $s.out.len))
  (call $write (local.get $err) (global.get $s.err) (global.get $s.err.len))
  (call $drop_output (local.get $out))
  (call $drop_output (local.get $err))
  (call $ret_allow))
