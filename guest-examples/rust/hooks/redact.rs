//! `redact` (guest-examples/POLICIES.md): at post_tool_use, replace AWS keys, GitHub tokens and
//! bearer tokens in the output's JSON text with `[REDACTED]`. Builds as a std guest (wasm32-wasi)
//! and, with `--cfg basis_no_std`, as a no_std guest (wasm32-unknown-unknown).
#![cfg_attr(basis_no_std, no_std)]

#[path = "../glue/basis_hook.rs"]
mod basis_hook;
#[path = "scan.rs"]
mod scan;

use basis_hook::{Decision, Event, Request};
use scan::{cut, run_of, starts_at};

#[cfg(basis_no_std)]
#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    core::arch::wasm32::unreachable()
}

const REDACTED: &str = "[REDACTED]";
const SECRET_NAMES: [&str; 2] = ["AWS_SECRET_ACCESS_KEY=", "aws_secret_access_key="];
const GITHUB_PREFIXES: [&[u8]; 4] = [b"ghp_", b"gho_", b"ghs_", b"ghu_"];

fn upper_alnum(c: u8) -> bool {
    c.is_ascii_uppercase() || c.is_ascii_digit()
}
fn alnum(c: u8) -> bool {
    c.is_ascii_alphanumeric()
}
fn secret_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'/' || c == b'+'
}
fn bearer_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'.' || c == b'_' || c == b'-'
}

/// A secret at `i`: how many bytes it spans, and the leading part of them that stays in front of
/// `[REDACTED]` (the variable name and `=`, or `Bearer `).
fn secret_at(t: &[u8], i: usize) -> Option<(usize, &'static str)> {
    if starts_at(t, i, b"AKIA") && run_of(t, i + 4, upper_alnum) >= 16 {
        return Some((20, ""));
    }
    for name in SECRET_NAMES {
        if starts_at(t, i, name.as_bytes()) && run_of(t, i + name.len(), secret_char) >= 40 {
            return Some((name.len() + 40, name));
        }
    }
    if GITHUB_PREFIXES.iter().any(|p| starts_at(t, i, p)) && run_of(t, i + 4, alnum) >= 36 {
        return Some((40, ""));
    }
    if starts_at(t, i, b"Bearer ") {
        let n = run_of(t, i + 7, bearer_char);
        if n >= 20 {
            return Some((7 + n, "Bearer "));
        }
    }
    None
}

fn handle(req: Request) -> Result<Decision, &str> {
    let text = match (req.event, req.output) {
        (Event::PostToolUse, Some(output)) => output,
        _ => return Ok(Decision::Allow),
    };
    let t = text.as_bytes();
    // Every replacement is shorter than what it replaces, so the input length is enough.
    let mut out = req.buf(text.len());
    let mut count = 0u32;
    let mut last = 0;
    let mut i = 0;
    while i < t.len() {
        match secret_at(t, i) {
            Some((len, kept)) => {
                // Secrets start at ASCII bytes, so every cut is on a char boundary.
                out.push_str(cut(text, last, i)).push_str(kept).push_str(REDACTED);
                i += len;
                last = i;
                count += 1;
            }
            None => i += 1,
        }
    }
    if count == 0 {
        return Ok(Decision::Allow);
    }
    out.push_str(cut(text, last, t.len()));
    Ok(Decision::Replace { output: out.finish(), is_error: None, reason: Some(reason(req, count)) })
}

/// With std, build text the usual way and copy it into the call's arena to return it.
#[cfg(not(basis_no_std))]
fn reason(req: Request, count: u32) -> &str {
    req.copy_str(&format!("redacted {} secret(s)", count))
}

/// Without std (no allocator, no formatting), write straight into the call's arena.
#[cfg(basis_no_std)]
fn reason(req: Request, count: u32) -> &str {
    let mut reason = req.buf(24);
    reason.push_str("redacted ").push_u32(count).push_str(" secret(s)");
    reason.finish()
}
