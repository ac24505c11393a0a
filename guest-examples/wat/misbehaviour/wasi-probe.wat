;; Reports what the sandbox lets it see, as the rewritten input (modify; replace after the call):
;;   {"env":[["NAME","value"],...],"preopens":["/guest/path",...], and, when there is a preopen,
;;    "file":"<text of probe.txt in the first preopen>" or "file_error":<code>,
;;    "escape_error":<code of opening ../../../../etc/passwd there>,
;;    "absolute_error":<code of opening /etc/passwd there>,
;;    "write_error":<code of opening probe.txt for writing there>}
;; Codes are wasi:filesystem error-code indices (e.g. 0 access, 20 no-entry, 31 not-permitted,
;; 33 read-only). Without a preopen a guest has no directory to open anything in: no "file" keys.
(import "wasi:cli/environment@0.2.12" "get-environment" (func $get_environment (param i32)))
(import "wasi:filesystem/preopens@0.2.12" "get-directories" (func $get_directories (param i32)))
(import "wasi:filesystem/types@0.2.12" "[method]descriptor.open-at"
  (func $open_at (param i32 i32 i32 i32 i32 i32 i32)))
(import "wasi:filesystem/types@0.2.12" "[method]descriptor.read" (func $read (param i32 i64 i64 i32)))
(import "wasi:filesystem/types@0.2.12" "[resource-drop]descriptor" (func $drop_descriptor (param i32)))

(string $s.k_env "{\"env\":[")
(string $s.k_preopens "],\"preopens\":[")
(string $s.k_file ",\"file\":")
(string $s.k_file_error ",\"file_error\":")
(string $s.k_escape ",\"escape_error\":")
(string $s.k_absolute ",\"absolute_error\":")
(string $s.k_write ",\"write_error\":")
(string $s.close "}")
(string $s.probe_txt "probe.txt")
(string $s.escape "../../../../../../etc/passwd")
(string $s.absolute "/etc/passwd")

;; Open `path` in `dir` with descriptor flags `flags` (1 read, 2 write). Returns the descriptor, or
;; -1 - error code.
(func $open (param $dir i32) (param $p i32) (param $l i32) (param $flags i32) (result i32)
  (call $open_at (local.get $dir) (i32.const 0) (local.get $p) (local.get $l) (i32.const 0) (local.get $flags) (i32.const 0))
  (if (result i32) (i32.load8_u (i32.const 0))
    (then (i32.sub (i32.const -1) (i32.load8_u offset=4 (i32.const 0))))
    (else (i32.load offset=4 (i32.const 0)))))

;; The error code of opening `path` with `flags` (-1 if it opened; the descriptor is dropped).
(func $open_error (param $dir i32) (param $p i32) (param $l i32) (param $flags i32) (result i32)
  (local $fd i32)
  (local.set $fd (call $open (local.get $dir) (local.get $p) (local.get $l) (local.get $flags)))
  (if (result i32) (i32.ge_s (local.get $fd) (i32.const 0))
    (then (call $drop_descriptor (local.get $fd)) (i32.const -1))
    (else (i32.sub (i32.const -1) (local.get $fd)))))

;; Append `,"key":<code>` (a code of -1 is written as -1).
(func $emit_code (param $kp i32) (param $kl i32) (param $code i32)
  (call $sb_emit (local.get $kp) (local.get $kl))
  (if (i32.lt_s (local.get $code) (i32.const 0))
    (then (call $sb_byte (i32.const 45)) (call $sb_byte (i32.const 49)))
    (else (call $sb_u32 (local.get $code)))))

;; Every WASI call happens first: the glue allocates their results on the heap, and the answer is
;; built afterwards as one contiguous string on top of them.
(func $handle (param $r i32) (result i32)
  (local $env i32) (local $env_n i32) (local $dirs i32) (local $dirs_n i32)
  (local $i i32) (local $e i32) (local $dir i32) (local $fd i32)
  (local $file_ok i32) (local $file_ptr i32) (local $file_len i32) (local $file_error i32)
  (local $escape i32) (local $absolute i32) (local $write i32)
  (call $get_environment (i32.const 0))
  (local.set $env (i32.load (i32.const 0)))
  (local.set $env_n (i32.load offset=4 (i32.const 0)))
  (call $get_directories (i32.const 0))
  (local.set $dirs (i32.load (i32.const 0)))
  (local.set $dirs_n (i32.load offset=4 (i32.const 0)))
  (if (local.get $dirs_n)
    (then
      (local.set $dir (i32.load (local.get $dirs)))
      (local.set $fd (call $open (local.get $dir) (global.get $s.probe_txt) (global.get $s.probe_txt.len) (i32.const 1)))
      (if (i32.ge_s (local.get $fd) (i32.const 0))
        (then
          (call $read (local.get $fd) (i64.const 4096) (i64.const 0) (i32.const 0))
          (if (i32.load8_u (i32.const 0))
            (then (local.set $file_error (i32.load8_u offset=4 (i32.const 0))))
            (else
              (local.set $file_ok (i32.const 1))
              (local.set $file_ptr (i32.load offset=4 (i32.const 0)))
              (local.set $file_len (i32.load offset=8 (i32.const 0)))))
          (call $drop_descriptor (local.get $fd)))
        (else (local.set $file_error (i32.sub (i32.const -1) (local.get $fd)))))
      (local.set $escape (call $open_error (local.get $dir) (global.get $s.escape) (global.get $s.escape.len) (i32.const 1)))
      (local.set $absolute (call $open_error (local.get $dir) (global.get $s.absolute) (global.get $s.absolute.len) (i32.const 1)))
      (local.set $write (call $open_error (local.get $dir) (global.get $s.probe_txt) (global.get $s.probe_txt.len) (i32.const 2)))))

  (call $sb_begin)
  (call $sb_emit (global.get $s.k_env) (global.get $s.k_env.len))
  (block $done (loop $next
    (br_if $done (i32.ge_u (local.get $i) (local.get $env_n)))
    (local.set $e (i32.add (local.get $env) (i32.mul (local.get $i) (i32.const 16))))
    (if (local.get $i) (then (call $sb_byte (i32.const 44))))
    (call $sb_byte (i32.const 91))
    (call $sb_json_string (i32.load (local.get $e)) (i32.load offset=4 (local.get $e)))
    (call $sb_byte (i32.const 44))
    (call $sb_json_string (i32.load offset=8 (local.get $e)) (i32.load offset=12 (local.get $e)))
    (call $sb_byte (i32.const 93))
    (local.set $i (i32.add (local.get $i) (i32.const 1)))
    (br $next)))
  (call $sb_emit (global.get $s.k_preopens) (global.get $s.k_preopens.len))
  (local.set $i (i32.const 0))
  (block $done (loop $next
    (br_if $done (i32.ge_u (local.get $i) (local.get $dirs_n)))
    (local.set $e (i32.add (local.get $dirs) (i32.mul (local.get $i) (i32.const 12))))
    (if (local.get $i) (then (call $sb_byte (i32.const 44))))
    (call $sb_json_string (i32.load offset=4 (local.get $e)) (i32.load offset=8 (local.get $e)))
    (local.set $i (i32.add (local.get $i) (i32.const 1)))
    (br $next)))
  (call $sb_byte (i32.const 93))
  (if (local.get $dirs_n)
    (then
      (if (local.get $file_ok)
        (then
          (call $sb_emit (global.get $s.k_file) (global.get $s.k_file.len))
          (call $sb_json_string (local.get $file_ptr) (local.get $file_len)))
        (else (call $emit_code (global.get $s.k_file_error) (global.get $s.k_file_error.len) (local.get $file_error))))
      (call $emit_code (global.get $s.k_escape) (global.get $s.k_escape.len) (local.get $escape))
      (call $emit_code (global.get $s.k_absolute) (global.get $s.k_absolute.len) (local.get $absolute))
      (call $emit_code (global.get $s.k_write) (global.get $s.k_write.len) (local.get $write))))
  (call $sb_emit (global.get $s.close) (global.get $s.close.len))
  (if (result i32) (call $req_is_post (local.get $r))
    (then (call $ret_replace (global.get $sb_start) (call $sb_len) (i32.const 0) (i32.const 0) (i32.const 0) (i32.const 0) (i32.const 0)))
    (else (call $ret_modify (global.get $sb_start) (call $sb_len) (i32.const 0) (i32.const 0) (i32.const 0)))))
