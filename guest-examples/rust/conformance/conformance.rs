//! The conformance behaviours (test/conformance/behaviours.ts) as one source: compile it once per
//! behaviour with `--cfg behaviour="<name>"` (and `--cfg basis_no_std` for the no_std flavour).
//! `silent` has no component form: a component call always returns something. `guest-error` is an
//! extra behaviour (not in the suite) that answers `err`, to exercise the error layout.
//!
//! The std flavour builds its JSON with `String`/`format!` and copies it into the call's arena, as a
//! std author would: that runs the libc allocator and the glue's arena side by side.
#![cfg_attr(basis_no_std, no_std)]

#[path = "../glue/basis_hook.rs"]
mod basis_hook;

#[allow(unused_imports)]
use basis_hook::{Decision, Event, Request};

#[cfg(basis_no_std)]
#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    core::arch::wasm32::unreachable()
}

#[cfg(behaviour = "allow")]
fn handle(_req: Request) -> Result<Decision, &str> {
    Ok(Decision::Allow)
}

#[cfg(behaviour = "deny")]
fn handle(_req: Request) -> Result<Decision, &str> {
    Ok(Decision::Deny("denied by conformance hook"))
}

/// Answered at post too: that is the wrong-event vector.
#[cfg(behaviour = "modify-wrap")]
fn handle(req: Request) -> Result<Decision, &str> {
    Ok(Decision::Modify { input: wrap(req, req.input), reason: Some("wrapped input") })
}

/// At pre there is no output: wrap `null`.
#[cfg(behaviour = "replace-wrap")]
fn handle(req: Request) -> Result<Decision, &str> {
    let output = wrap(req, req.output.unwrap_or("null"));
    Ok(Decision::Replace { output, is_error: None, reason: Some("wrapped output") })
}

#[cfg(behaviour = "replace-error")]
fn handle(_req: Request) -> Result<Decision, &str> {
    Ok(Decision::Replace { output: "\"replaced as error\"", is_error: Some(true), reason: None })
}

#[cfg(behaviour = "replace-ok")]
fn handle(_req: Request) -> Result<Decision, &str> {
    Ok(Decision::Replace { output: "\"replaced as ok\"", is_error: Some(false), reason: None })
}

#[cfg(behaviour = "deny-if-wrapped")]
fn handle(req: Request) -> Result<Decision, &str> {
    let value = match req.event {
        Event::PreToolUse => Some(req.input),
        Event::PostToolUse => req.output,
    };
    if value.map_or(false, has_wrapped_key) {
        Ok(Decision::Deny("saw a wrapped value"))
    } else {
        Ok(Decision::Allow)
    }
}

/// Reports what the request looked like: modify at pre, replace at post.
#[cfg(behaviour = "probe")]
fn handle(req: Request) -> Result<Decision, &str> {
    let seen = probe(req);
    match req.event {
        Event::PreToolUse => Ok(Decision::Modify { input: seen, reason: None }),
        Event::PostToolUse => Ok(Decision::Replace { output: seen, is_error: None, reason: None }),
    }
}

/// `{"hook_schema":…,"event":…,"has_output":…,"has_is_error":…,"input":…}`, plus at post `output`
/// and `is_error` (left out when absent, as JSON.stringify leaves out undefined fields).
#[cfg(all(behaviour = "probe", basis_no_std))]
fn probe(req: Request) -> &str {
    let mut seen = req.buf(128 + req.input.len() + req.output.map_or(0, str::len));
    seen.push_str("{\"hook_schema\":").push_u32(req.hook_schema);
    seen.push_str(",\"event\":\"").push_str(event_name(req.event)).push_str("\"");
    seen.push_str(",\"has_output\":").push_bool(req.output.is_some());
    seen.push_str(",\"has_is_error\":").push_bool(req.is_error.is_some());
    seen.push_str(",\"input\":").push_str(req.input);
    if req.event == Event::PostToolUse {
        if let Some(output) = req.output {
            seen.push_str(",\"output\":").push_str(output);
        }
        if let Some(is_error) = req.is_error {
            seen.push_str(",\"is_error\":").push_bool(is_error);
        }
    }
    seen.push_str("}");
    seen.finish()
}

#[cfg(all(behaviour = "probe", not(basis_no_std)))]
fn probe(req: Request) -> &str {
    use std::fmt::Write;
    let mut seen = format!(
        "{{\"hook_schema\":{},\"event\":\"{}\",\"has_output\":{},\"has_is_error\":{},\"input\":{}",
        req.hook_schema,
        event_name(req.event),
        req.output.is_some(),
        req.is_error.is_some(),
        req.input
    );
    if req.event == Event::PostToolUse {
        if let Some(output) = req.output {
            let _ = write!(seen, ",\"output\":{}", output);
        }
        if let Some(is_error) = req.is_error {
            let _ = write!(seen, ",\"is_error\":{}", is_error);
        }
    }
    seen.push('}');
    req.copy_str(&seen)
}

#[cfg(behaviour = "probe")]
fn event_name(event: Event) -> &'static str {
    match event {
        Event::PreToolUse => "pre_tool_use",
        Event::PostToolUse => "post_tool_use",
    }
}

#[cfg(behaviour = "empty-deny-reason")]
fn handle(_req: Request) -> Result<Decision, &str> {
    Ok(Decision::Deny(""))
}

/// A modify whose input is not JSON text.
#[cfg(behaviour = "malformed")]
fn handle(_req: Request) -> Result<Decision, &str> {
    Ok(Decision::Modify { input: "this is not JSON {", reason: None })
}

/// Never answers. The volatile store is a side effect the optimiser must keep, so the loop stays.
#[cfg(behaviour = "hang")]
fn handle(_req: Request) -> Result<Decision, &str> {
    let mut spins = 0u32;
    loop {
        spins = spins.wrapping_add(1);
        unsafe { core::ptr::write_volatile(&mut spins, spins) };
    }
}

#[cfg(behaviour = "crash")]
fn handle(_req: Request) -> Result<Decision, &str> {
    core::arch::wasm32::unreachable()
}

/// A deny reason past the suite's 64 KiB output cap.
#[cfg(behaviour = "oversized")]
fn handle(req: Request) -> Result<Decision, &str> {
    Ok(Decision::Deny(oversized(req)))
}

#[cfg(all(behaviour = "oversized", basis_no_std))]
fn oversized(req: Request) -> &str {
    let mut reason = req.buf(70 * 1024);
    while reason.len() < 70 * 1024 {
        reason.push_str("oversized answer ");
    }
    reason.finish()
}

#[cfg(all(behaviour = "oversized", not(basis_no_std)))]
fn oversized(req: Request) -> &str {
    req.copy_str(&"oversized answer ".repeat(70 * 1024 / 17 + 1))
}

/// Fails: `err(message)`.
#[cfg(behaviour = "guest-error")]
fn handle(_req: Request) -> Result<Decision, &str> {
    Err("conformance hook failed on purpose")
}

#[cfg(not(any(
    behaviour = "allow",
    behaviour = "deny",
    behaviour = "modify-wrap",
    behaviour = "replace-wrap",
    behaviour = "replace-error",
    behaviour = "replace-ok",
    behaviour = "deny-if-wrapped",
    behaviour = "probe",
    behaviour = "empty-deny-reason",
    behaviour = "malformed",
    behaviour = "hang",
    behaviour = "crash",
    behaviour = "oversized",
    behaviour = "guest-error",
)))]
compile_error!("build with --cfg behaviour=\"<name>\" (a behaviour from test/conformance/behaviours.ts other than silent)");

/// `{"wrapped":<value>}`.
#[cfg(basis_no_std)]
#[allow(dead_code)]
fn wrap<'a>(req: Request<'a>, value: &str) -> &'a str {
    let mut out = req.buf(value.len() + 12);
    out.push_str("{\"wrapped\":").push_str(value).push_str("}");
    out.finish()
}

#[cfg(not(basis_no_std))]
#[allow(dead_code)]
fn wrap<'a>(req: Request<'a>, value: &str) -> &'a str {
    req.copy_str(&format!("{{\"wrapped\":{}}}", value))
}

/// The JSON text is an object with a top-level `"wrapped"` key. A small scanner (strings, escapes,
/// nesting) instead of a parser: keys are the strings at depth 1 followed by `:`.
#[allow(dead_code)]
fn has_wrapped_key(text: &str) -> bool {
    let t = text.as_bytes();
    let mut i = match t.iter().position(|c| !c.is_ascii_whitespace()) {
        Some(i) if t.get(i) == Some(&b'{') => i,
        _ => return false,
    };
    let mut depth = 0usize;
    while let Some(&c) = t.get(i) {
        match c {
            b'{' | b'[' => depth += 1,
            b'}' | b']' => depth = depth.saturating_sub(1),
            b'"' => {
                let from = i + 1;
                i = from;
                while let Some(&s) = t.get(i) {
                    match s {
                        b'\\' => i += 2,
                        b'"' => break,
                        _ => i += 1,
                    }
                }
                let is_key = t.get(i + 1..).map_or(false, |rest| {
                    rest.iter().find(|c| !c.is_ascii_whitespace()) == Some(&b':')
                });
                if depth == 1 && is_key && t.get(from..i) == Some(&b"wrapped"[..]) {
                    return true;
                }
            }
            _ => {}
        }
        i += 1;
    }
    false
}
