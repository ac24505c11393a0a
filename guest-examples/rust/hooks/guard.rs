//! `guard` (guest-examples/POLICIES.md): at pre_tool_use, deny force-pushes to main/master and turn
//! other force-pushes into `--force-with-lease`. Works on the input's JSON text by substring
//! scanning, so the same code builds as a std guest (wasm32-wasi) and, with `--cfg basis_no_std`,
//! as a no_std guest (wasm32-unknown-unknown).
#![cfg_attr(basis_no_std, no_std)]

#[path = "../glue/basis_hook.rs"]
mod basis_hook;
#[path = "scan.rs"]
mod scan;

use basis_hook::{Decision, Event, Request};
use scan::{contains, cut, followed_by_end, starts_at};

#[cfg(basis_no_std)]
#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    core::arch::wasm32::unreachable()
}

const PROTECTED: [&[u8]; 4] = [b" main", b" master", b":main", b":master"];
const LEASE: &str = "--force-with-lease";

/// A force flag at `i`: `--force` not followed by `-`, or ` -f` followed by a space or `"`.
/// Returns the flag's start and length (the leading space of ` -f` is not part of it).
fn force_flag(t: &[u8], i: usize) -> Option<(usize, usize)> {
    if starts_at(t, i, b"--force") && t.get(i + 7) != Some(&b'-') {
        Some((i, 7))
    } else if starts_at(t, i, b" -f") && followed_by_end(t, i + 3) {
        Some((i + 1, 2))
    } else {
        None
    }
}

fn handle(req: Request) -> Result<Decision, &str> {
    if req.event != Event::PreToolUse {
        return Ok(Decision::Allow);
    }
    let text = req.input;
    let t = text.as_bytes();
    if !contains(t, b"git push") || !(0..t.len()).any(|i| force_flag(t, i).is_some()) {
        return Ok(Decision::Allow);
    }
    let protected = PROTECTED
        .iter()
        .any(|p| (0..t.len()).any(|i| starts_at(t, i, p) && followed_by_end(t, i + p.len())));
    if protected {
        return Ok(Decision::Deny("force-push to a protected branch (main/master) is not allowed"));
    }
    let mut out = req.buf(text.len() + 32);
    let mut last = 0;
    let mut i = 0;
    while i < t.len() {
        if let Some((at, len)) = force_flag(t, i) {
            // Flags start at ASCII bytes, so every cut is on a char boundary.
            out.push_str(cut(text, last, at)).push_str(LEASE);
            last = at + len;
            i = last;
        } else {
            i += 1;
        }
    }
    out.push_str(cut(text, last, t.len()));
    Ok(Decision::Modify { input: out.finish(), reason: Some("replaced --force with --force-with-lease") })
}
