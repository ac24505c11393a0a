;; Reads stdin, or exits instead of answering.
;;   tool "exit":    wasi:cli/exit with an error status — the call never gets an answer;
;;   tool "exit-ok": wasi:cli/exit with a success status — no answer either;
;;   any other tool: one blocking read of up to 4 KiB from stdin, then a deny saying what it found:
;;                   "stdin: closed" (what the sandbox gives: a stream at its end), "stdin: data",
;;                   or "stdin: failed".
(import "wasi:cli/stdin@0.2.12" "get-stdin" (func $get_stdin (result i32)))
(import "wasi:io/streams@0.2.12" "[method]input-stream.blocking-read" (func $read (param i32 i64 i32)))
(import "wasi:io/streams@0.2.12" "[resource-drop]input-stream" (func $drop_input (param i32)))
(import "wasi:cli/exit@0.2.12" "exit" (func $exit (param i32)))
(string $s.exit "exit")
(string $s.exit_ok "exit-ok")
(string $s.closed "stdin: closed")
(string $s.data "stdin: data")
(string $s.failed "stdin: failed")
(func $handle (param $r i32) (result i32)
  (local $in i32)
  (if (call $bytes_eq (call $req_tool_ptr (local.get $r)) (call $req_tool_len (local.get $r)) (global.get $s.exit) (global.get $s.exit.len))
    (then (call $exit (i32.const 1)) unreachable))
  (if (call $bytes_eq (call $req_tool_ptr (local.get $r)) (call $req_tool_len (local.get $r)) (global.get $s.exit_ok) (global.get $s.exit_ok.len))
    (then (call $exit (i32.const 0)) unreachable))
  (local.set $in (call $get_stdin))
  ;; result<list<u8>, stream-error> at 0: tag byte; ok: list at 4; err: stream-error tag at 4 (1 closed).
  (call $read (local.get $in) (i64.const 4096) (i32.const 0))
  (call $drop_input (local.get $in))
  (if (i32.eqz (i32.load8_u (i32.const 0)))
    (then (return (call $ret_deny (global.get $s.data) (global.get $s.data.len)))))
  (if (i32.eq (i32.load8_u offset=4 (i32.const 0)) (i32.const 1))
    (then (return (call $ret_deny (global.get $s.closed) (global.get $s.closed.len)))))
  (call $ret_deny (global.get $s.failed) (global.get $s.failed.len)))
