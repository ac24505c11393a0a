//! Canonical-ABI glue for the `basis:hook@1.0.0` world, hand-written because there is no
//! wit-bindgen here. Include it with
//!
//! ```ignore
//! #[path = "glue/basis_hook.rs"]
//! mod basis_hook;
//! use basis_hook::{Decision, Event, Request};
//!
//! fn handle(req: Request) -> Result<Decision, &str> { Ok(Decision::Allow) }
//! ```
//!
//! and write `handle` at the crate root: the glue calls `crate::handle` once per call. It needs only
//! `core`, so the same file serves `std` (wasm32-wasi) and `no_std` (wasm32-unknown-unknown) guests.
//!
//! Memory: everything that crosses the boundary for one call — the request the host writes through
//! `cabi_realloc`, the strings a hook builds with [`Request::buf`] / [`Request::copy_str`], the
//! strings the host reads back — lives in one bump arena that is rewound when the call is over
//! (post-return). A call therefore costs no frees, memory stays at its high-water mark, and a
//! `Decision<'a>` can borrow straight from the request (`Decision::Modify { input: req.input, .. }`)
//! without a copy. The lifetime `'a` is the call: it cannot be stored past it.
//!
//! Layouts (byte offsets; see README.md): the request record is 64 bytes, align 4, passed by
//! pointer because it flattens to more than 16 core values; the `result<decision, string>` is a
//! 32-byte area whose pointer `handle` returns.
#![allow(dead_code)]

use core::arch::wasm32;
use core::cell::UnsafeCell;
use core::marker::PhantomData;

// ─── the API a hook author sees ────────────────────────────────────────────────────────────────

/// When the hook runs.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Event {
    /// Before the tool runs: the hook may allow, deny or modify the input.
    PreToolUse,
    /// After the tool ran: the hook may allow, deny or replace the output.
    PostToolUse,
}

/// One call, as the host sent it. JSON values arrive as JSON text (`input`, `output`).
#[derive(Clone, Copy)]
pub struct Request<'a> {
    pub hook_schema: u32,
    pub event: Event,
    pub workspace: &'a str,
    pub agent_id: &'a str,
    pub tool_call_id: &'a str,
    pub tool_name: &'a str,
    /// JSON text of the tool input.
    pub input: &'a str,
    /// JSON text of the tool output: `Some` after the call (even when the output is `null`).
    pub output: Option<&'a str>,
    /// Whether the tool reported an error: `Some` after the call.
    pub is_error: Option<bool>,
    call: PhantomData<&'a ()>,
}

/// What the hook answers. Strings are `'a`: static text, slices of the request, or text built in
/// the call's arena with [`Request::buf`] / [`Request::copy_str`].
#[derive(Clone, Copy)]
pub enum Decision<'a> {
    Allow,
    /// Refuse, with a reason for the agent (must not be empty: the host treats that as malformed).
    Deny(&'a str),
    /// pre_tool_use only: run the tool with this input instead (JSON text).
    Modify { input: &'a str, reason: Option<&'a str> },
    /// post_tool_use only: show this output instead (JSON text); `is_error: None` keeps the tool's claim.
    Replace { output: &'a str, is_error: Option<bool>, reason: Option<&'a str> },
}

impl<'a> Request<'a> {
    /// A growable string in this call's arena.
    pub fn buf(&self, capacity: usize) -> Buf<'a> {
        Buf::with_capacity(capacity)
    }

    /// Copy `text` into this call's arena (e.g. a `String` a std hook built), so it can be returned.
    pub fn copy_str(&self, text: &str) -> &'a str {
        let mut buf = self.buf(text.len());
        buf.push_str(text);
        buf.finish()
    }
}

/// A string under construction in the call's arena. Growing it is free while it is the newest
/// allocation; otherwise it moves (one copy).
pub struct Buf<'a> {
    ptr: *mut u8,
    len: usize,
    cap: usize,
    call: PhantomData<&'a ()>,
}

impl<'a> Buf<'a> {
    fn with_capacity(capacity: usize) -> Self {
        let ptr = unsafe { arena().alloc(capacity, 1) };
        Buf { ptr, len: 0, cap: capacity, call: PhantomData }
    }

    /// Append text.
    pub fn push_str(&mut self, text: &str) -> &mut Self {
        self.reserve(text.len());
        unsafe { core::ptr::copy_nonoverlapping(text.as_ptr(), self.ptr.add(self.len), text.len()) };
        self.len += text.len();
        self
    }

    /// Append a number in decimal.
    pub fn push_u32(&mut self, mut n: u32) -> &mut Self {
        // u32::MAX has 10 digits. Iterators, not indexing: nothing here may panic (see README).
        let mut digits = [0u8; 10];
        let mut used = 0;
        for slot in digits.iter_mut().rev() {
            *slot = b'0' + (n % 10) as u8;
            used += 1;
            n /= 10;
            if n == 0 {
                break;
            }
        }
        let start = digits.len() - used;
        // Only ASCII digits were written.
        self.push_str(unsafe { core::str::from_utf8_unchecked(digits.get_unchecked(start..)) })
    }

    /// Append `true` or `false`.
    pub fn push_bool(&mut self, b: bool) -> &mut Self {
        self.push_str(if b { "true" } else { "false" })
    }

    pub fn len(&self) -> usize {
        self.len
    }

    /// The text, valid for the rest of the call.
    pub fn finish(self) -> &'a str {
        // Only whole `&str`s were appended, so the bytes are UTF-8.
        unsafe { core::str::from_utf8_unchecked(raw_slice(self.ptr, self.len)) }
    }

    fn reserve(&mut self, more: usize) {
        let need = match self.len.checked_add(more) {
            Some(n) => n,
            None => wasm32::unreachable(),
        };
        if need <= self.cap {
            return;
        }
        let cap = if need > self.cap * 2 { need } else { self.cap * 2 };
        self.ptr = unsafe { arena().realloc(self.ptr, self.cap, 1, cap) };
        self.cap = cap;
    }
}

// ─── the call arena ────────────────────────────────────────────────────────────────────────────

const PAGE: usize = 65536;

/// A bump region grown with `memory.grow`. In a std guest the libc allocator grows memory too; when
/// the arena's region is no longer at the end of memory it starts a fresh region there (the old one
/// is abandoned: regions double, so that waste is bounded, and it only happens while both grow).
struct Arena {
    /// Start of the current region: where a rewind goes back to.
    base: usize,
    top: usize,
    end: usize,
    /// A result was handed out and post-return has not run yet.
    result_pending: bool,
}

struct Global<T>(UnsafeCell<T>);
// The guest is single-threaded (no wasm threads in this world).
unsafe impl<T> Sync for Global<T> {}

static ARENA: Global<Arena> = Global(UnsafeCell::new(Arena { base: 0, top: 0, end: 0, result_pending: false }));

fn arena() -> &'static mut Arena {
    // Single-threaded, and no arena method re-enters another.
    unsafe { &mut *ARENA.0.get() }
}

fn memory_end() -> usize {
    wasm32::memory_size(0) * PAGE
}

impl Arena {
    unsafe fn alloc(&mut self, size: usize, align: usize) -> *mut u8 {
        let align = if align == 0 { 1 } else { align };
        if let Some(p) = self.bump(size, align) {
            return p;
        }
        self.grow(size, align);
        match self.bump(size, align) {
            Some(p) => p,
            None => wasm32::unreachable(),
        }
    }

    fn bump(&mut self, size: usize, align: usize) -> Option<*mut u8> {
        let start = self.top.checked_add(align - 1)? & !(align - 1);
        let stop = start.checked_add(size)?;
        if self.end == 0 || stop > self.end {
            return None;
        }
        self.top = stop;
        Some(start as *mut u8)
    }

    /// Make room for `size` bytes at `align`: extend the region in place when it ends where memory
    /// ends, else open a new region at the end of memory at least twice the old one.
    fn grow(&mut self, size: usize, align: usize) {
        let mem_end = memory_end();
        let contiguous = self.end != 0 && self.end == mem_end;
        // Saturating: an absurd size asks for more pages than exist, and the grow below fails.
        let want = if contiguous {
            // Bytes missing beyond the current end.
            self.top.saturating_add(align).saturating_add(size).saturating_sub(self.end)
        } else {
            let doubled = (self.end - self.base).saturating_mul(2);
            let need = size.saturating_add(align);
            if need > doubled { need } else { doubled }
        };
        let pages = want / PAGE + (want % PAGE != 0) as usize;
        let pages = if pages == 0 { 1 } else { pages };
        if wasm32::memory_grow(0, pages) == usize::MAX {
            // Out of memory (the host caps it): trap rather than hand out a bad pointer.
            wasm32::unreachable();
        }
        if contiguous {
            self.end += pages * PAGE;
        } else {
            self.base = mem_end;
            self.top = mem_end;
            self.end = mem_end + pages * PAGE;
        }
    }

    unsafe fn realloc(&mut self, old: *mut u8, old_size: usize, align: usize, new_size: usize) -> *mut u8 {
        if old.is_null() {
            return self.alloc(new_size, align);
        }
        let old_addr = old as usize;
        // The newest allocation grows or shrinks in place when it fits.
        if old_addr.checked_add(old_size) == Some(self.top) && old_addr.checked_add(new_size).map_or(false, |e| e <= self.end) {
            self.top = old_addr + new_size;
            return old;
        }
        let new = self.alloc(new_size, align);
        let keep = if old_size < new_size { old_size } else { new_size };
        core::ptr::copy_nonoverlapping(old, new, keep);
        new
    }

    fn rewind(&mut self) {
        self.top = self.base;
        self.result_pending = false;
    }
}

// ─── the canonical-ABI exports ────────────────────────────────────────────────────────────────

/// `cabi_realloc(old, old_size, align, new_size)`: how the host writes the request into our memory.
#[no_mangle]
pub unsafe extern "C" fn cabi_realloc(old: *mut u8, old_size: usize, align: usize, new_size: usize) -> *mut u8 {
    let arena = arena();
    // A host that skipped post-return for the previous call: that call is over, reclaim it now.
    if arena.result_pending {
        arena.rewind();
    }
    arena.realloc(old, old_size, align, new_size)
}

/// The 32-byte `result<decision, string>` area.
#[repr(C, align(4))]
struct RetArea([u8; 32]);

static RET: Global<RetArea> = Global(UnsafeCell::new(RetArea([0; 32])));

/// `handle: func(request: hook-request) -> result<decision, string>`.
#[export_name = "basis:hook/handler@1.0.0#handle"]
pub unsafe extern "C" fn export_handle(record: *const u8) -> *mut u8 {
    let request = read_request(record);
    let result = crate::handle(request);
    let ret = RET.0.get() as *mut u8;
    write_result(ret, &result);
    arena().result_pending = true;
    ret
}

/// Post-return: the host has read the result; the call's memory can be reused.
#[export_name = "cabi_post_basis:hook/handler@1.0.0#handle"]
pub unsafe extern "C" fn export_handle_post_return(_ret: *mut u8) {
    arena().rewind();
}

// hook-request record: hook-schema u32 @0, event u8 @4, workspace @8/12, agent-id @16/20,
// tool-call-id @24/28, tool-name @32/36, input @40/44, output option tag @48 ptr @52 len @56,
// is-error option tag @60 value @61.
unsafe fn read_request<'a>(r: *const u8) -> Request<'a> {
    Request {
        hook_schema: read_u32(r, 0),
        event: match *r.add(4) {
            0 => Event::PreToolUse,
            1 => Event::PostToolUse,
            _ => wasm32::unreachable(),
        },
        workspace: read_str(r, 8),
        agent_id: read_str(r, 16),
        tool_call_id: read_str(r, 24),
        tool_name: read_str(r, 32),
        input: read_str(r, 40),
        output: if read_flag(r, 48) { Some(read_str(r, 52)) } else { None },
        is_error: if read_flag(r, 60) { Some(*r.add(61) != 0) } else { None },
        call: PhantomData,
    }
}

unsafe fn read_u32(r: *const u8, offset: usize) -> u32 {
    (r.add(offset) as *const u32).read_unaligned()
}

unsafe fn read_flag(r: *const u8, offset: usize) -> bool {
    match *r.add(offset) {
        0 => false,
        1 => true,
        _ => wasm32::unreachable(),
    }
}

unsafe fn read_str<'a>(r: *const u8, offset: usize) -> &'a str {
    let ptr = read_u32(r, offset) as usize as *const u8;
    let len = read_u32(r, offset + 4) as usize;
    // The canonical ABI only lowers valid UTF-8 strings.
    core::str::from_utf8_unchecked(raw_slice(ptr, len))
}

unsafe fn raw_slice<'a>(ptr: *const u8, len: usize) -> &'a [u8] {
    // An empty string may come with any pointer, 0 included; a slice must not.
    if len == 0 {
        &[]
    } else {
        core::slice::from_raw_parts(ptr, len)
    }
}

// result area: [0] ok=0 / err=1; err string @4/8. ok: decision tag @4 (allow 0, deny 1, modify 2,
// replace 3); deny string @8/12; modify input @8/12, reason option tag @16 ptr @20 len @24;
// replace output @8/12, is-error option tag @16 value @17, reason option tag @20 ptr @24 len @28.
unsafe fn write_result(ret: *mut u8, result: &Result<Decision<'_>, &str>) {
    match result {
        Err(message) => {
            *ret = 1;
            write_str(ret, 4, message);
        }
        Ok(decision) => {
            *ret = 0;
            match decision {
                Decision::Allow => *ret.add(4) = 0,
                Decision::Deny(reason) => {
                    *ret.add(4) = 1;
                    write_str(ret, 8, reason);
                }
                Decision::Modify { input, reason } => {
                    *ret.add(4) = 2;
                    write_str(ret, 8, input);
                    write_opt_str(ret, 16, *reason);
                }
                Decision::Replace { output, is_error, reason } => {
                    *ret.add(4) = 3;
                    write_str(ret, 8, output);
                    match is_error {
                        Some(b) => {
                            *ret.add(16) = 1;
                            *ret.add(17) = *b as u8;
                        }
                        None => *ret.add(16) = 0,
                    }
                    write_opt_str(ret, 20, *reason);
                }
            }
        }
    }
}

unsafe fn write_u32(ret: *mut u8, offset: usize, value: u32) {
    (ret.add(offset) as *mut u32).write_unaligned(value);
}

unsafe fn write_str(ret: *mut u8, offset: usize, s: &str) {
    write_u32(ret, offset, s.as_ptr() as usize as u32);
    write_u32(ret, offset + 4, s.len() as u32);
}

/// option<string> at `offset`: tag, then the string at the next 4-byte boundary.
unsafe fn write_opt_str(ret: *mut u8, offset: usize, s: Option<&str>) {
    match s {
        Some(s) => {
            *ret.add(offset) = 1;
            write_str(ret, offset + 4, s);
        }
        None => *ret.add(offset) = 0,
    }
}
