import type { HookEvent } from '../../contract/event.js';
import { POST_MARKER, POST_PREFIX, POST_TOKEN_CHARS, PRE_NEEDLE, PRE_REASON } from './policy.js';

/**
 * The starter's source in Rust, over the glue in `glue/basis_hook.rs` (guest-examples/rust/README.md).
 * It builds in both flavours: `"flavour": "std"` or `"nostd"` in hook.json.
 */
export function rustSource(event: HookEvent, name: string): string {
  const doc = `//! ${name} — a ${event} hook for the basis:hook@1.0.0 world, in Rust.
//!
//! You write \`handle\` at the crate root; glue/basis_hook.rs implements the canonical ABI and calls
//! it once per call. \`input\` and \`output\` are the tool's values as JSON text. Everything a decision
//! points at lives for the call ('a): static text, slices of the request, or text built with
//! \`req.buf(..)\` / \`req.copy_str(..)\`. A panic is a trap (the host fails the hook).
//!
//! Build: basis-hooks build .        Test: basis-hooks test . (runs cases.jsonl)
#![cfg_attr(basis_no_std, no_std)]

#[path = "glue/basis_hook.rs"]
mod basis_hook;
use basis_hook::{Decision, Event, Request};

#[cfg(basis_no_std)]
#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    core::arch::wasm32::unreachable()
}
`;
  if (event === 'pre_tool_use') {
    return `${doc}
const NEEDLE: &str = ${JSON.stringify(PRE_NEEDLE)};
const REASON: &str = ${JSON.stringify(PRE_REASON)};

/// True when the text runs \`rm -rf /\` on the root itself (end of text, space, quote or \`*\` after it).
/// Plain byte comparisons with \`get\`: nothing here can panic, which keeps the component small.
fn wipes_root(text: &str) -> bool {
    let (t, n) = (text.as_bytes(), NEEDLE.len());
    (0..t.len()).any(|i| t.get(i..i + n) == Some(NEEDLE.as_bytes()) && matches!(t.get(i + n), None | Some(b' ' | b'"' | b'*')))
}

fn handle(req: Request) -> Result<Decision, &str> {
    // Registered at the wrong event by mistake, the hook stays harmless.
    if req.event == Event::PreToolUse && wipes_root(req.input) {
        return Ok(Decision::Deny(REASON));
    }
    Ok(Decision::Allow)
}
`;
  }
  return `${doc}
const PREFIX: &str = ${JSON.stringify(POST_PREFIX)};
const TOKEN_CHARS: usize = ${POST_TOKEN_CHARS};

fn handle(req: Request) -> Result<Decision, &str> {
    // Registered at the wrong event by mistake, the hook stays harmless.
    let text = match (req.event, req.output) {
        (Event::PostToolUse, Some(output)) => output,
        _ => return Ok(Decision::Allow),
    };
    let t = text.as_bytes();
    let mut out = req.buf(text.len());
    let mut count = 0u32;
    let mut copied = 0; // text[copied..] is still to be copied to out
    let mut i = 0;
    // Plain byte comparisons with \`get\`: nothing here can panic, which keeps the component small.
    while i < t.len() {
        let token = t.get(i + PREFIX.len()..i + PREFIX.len() + TOKEN_CHARS);
        let is_token = t.get(i..i + PREFIX.len()) == Some(PREFIX.as_bytes())
            && token.map_or(false, |chars| chars.iter().all(u8::is_ascii_alphanumeric));
        if !is_token {
            i += 1;
            continue;
        }
        // Tokens are ASCII, so every cut falls on a character boundary.
        out.push_str(text.get(copied..i).unwrap_or("")).push_str(${JSON.stringify(POST_MARKER)});
        i += PREFIX.len() + TOKEN_CHARS;
        copied = i;
        count += 1;
    }
    if count == 0 {
        return Ok(Decision::Allow);
    }
    out.push_str(text.get(copied..).unwrap_or(""));
    // The reason goes to the audit trail only; is_error None: the tool's own claim stands.
    let mut reason = req.buf(24);
    reason.push_str("redacted ").push_u32(count).push_str(" token(s)");
    Ok(Decision::Replace { output: out.finish(), is_error: None, reason: Some(reason.finish()) })
}
`;
}
