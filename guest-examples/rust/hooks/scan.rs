//! Byte-level text scanning shared by the example hooks. Nothing here can panic: a panic pulls in
//! core's formatting code, which would be most of a no_std guest's size.
#![allow(dead_code)]

/// `t[i..]` starts with `p`.
pub fn starts_at(t: &[u8], i: usize, p: &[u8]) -> bool {
    t.get(i..).map_or(false, |rest| rest.starts_with(p))
}

/// `t` contains `p` (naive search: hook inputs are small, and core's searcher is large).
pub fn contains(t: &[u8], p: &[u8]) -> bool {
    (0..t.len()).any(|i| starts_at(t, i, p))
}

/// The byte at `at` is a space or `"` (the end of a word inside a JSON string).
pub fn followed_by_end(t: &[u8], at: usize) -> bool {
    matches!(t.get(at), Some(b' ') | Some(b'"'))
}

/// Length of the run of bytes from `from` that satisfy `ok`.
pub fn run_of(t: &[u8], from: usize, ok: fn(u8) -> bool) -> usize {
    t.get(from..).map_or(0, |rest| rest.iter().take_while(|&&c| ok(c)).count())
}

/// `text[from..to]`; the cuts are at ASCII bytes, which are always char boundaries.
pub fn cut(text: &str, from: usize, to: usize) -> &str {
    match text.get(from..to) {
        Some(s) => s,
        None => core::arch::wasm32::unreachable(),
    }
}
