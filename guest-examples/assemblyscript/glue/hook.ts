/**
 * AssemblyScript glue for the basis:hook@1.0.0 `hook` world (wit/hook.wit): the canonical-ABI side of
 * `basis:hook/handler@1.0.0#handle`, so a hook author writes one function `(req: Request) => Decision`
 * over ordinary AssemblyScript strings.
 *
 * An entry file (see ../guard.ts) is:
 *
 *     import { Decision, Request, serve } from "./glue/hook";
 *     export { cabi_realloc, cabi_post_handle } from "./glue/hook";
 *     export function handle(request: usize): usize { return serve(request, myHook); }
 *     function myHook(req: Request): Decision { ... }
 *
 * and `glue/export-names.mjs` (an asc transform) renames the exports `handle` and `cabi_post_handle` to
 * the names the component model expects. The host calls, per tool call: cabi_realloc (to copy the
 * request in), handle (which returns the result area), cabi_post_handle (after reading the answer),
 * which frees everything of the call.
 *
 * Layout (canonical ABI, all little-endian): the request record is 64 bytes at `request`; the result
 * area is 32 bytes. The offsets are in Request's getters and in writeResult below, and tabulated in
 * ../README.md.
 */

/** `enum event` of the WIT. */
export enum Event {
  PreToolUse = 0,
  PostToolUse = 1,
}

/** Replace's optional is_error: Unset keeps the tool's own claim. */
export enum Flag {
  Unset = -1,
  False = 0,
  True = 1,
}

/** What a decision is. `Error` is not a decision: the hook failed (`err(message)`, a guest_error). */
export enum Kind {
  Allow = 0,
  Deny = 1,
  Modify = 2,
  Replace = 3,
  Error = 4,
}

function utf8(ptr: usize, len: usize): string {
  return String.UTF8.decodeUnsafe(ptr, len, false);
}

/**
 * The `hook-request` record, read in place from the canonical-ABI layout. Each string getter decodes
 * UTF-8 on access: keep what you use in a local. `input` and `output` are JSON text.
 */
export class Request {
  constructor(private readonly ptr: usize) {}

  /** hook-schema @0 (u32). */
  get hookSchema(): u32 {
    return load<u32>(this.ptr, 0);
  }
  /** event @4 (u8). */
  get event(): Event {
    return load<u8>(this.ptr, 4);
  }
  /** workspace @8/@12. */
  get workspace(): string {
    return utf8(load<usize>(this.ptr, 8), load<usize>(this.ptr, 12));
  }
  /** agent-id @16/@20. */
  get agentId(): string {
    return utf8(load<usize>(this.ptr, 16), load<usize>(this.ptr, 20));
  }
  /** tool-call-id @24/@28. */
  get toolCallId(): string {
    return utf8(load<usize>(this.ptr, 24), load<usize>(this.ptr, 28));
  }
  /** tool-name @32/@36. */
  get toolName(): string {
    return utf8(load<usize>(this.ptr, 32), load<usize>(this.ptr, 36));
  }
  /** input @40/@44 (JSON text). */
  get input(): string {
    return utf8(load<usize>(this.ptr, 40), load<usize>(this.ptr, 44));
  }
  /** output option: tag @48. Present after the call (possibly the text `null`), absent before it. */
  get hasOutput(): bool {
    return load<u8>(this.ptr, 48) != 0;
  }
  /** output @52/@56 (JSON text), or null when absent. */
  get output(): string | null {
    return this.hasOutput ? utf8(load<usize>(this.ptr, 52), load<usize>(this.ptr, 56)) : null;
  }
  /** is-error option: tag @60. */
  get hasIsError(): bool {
    return load<u8>(this.ptr, 60) != 0;
  }
  /** is-error value @61 (false when absent). */
  get isError(): bool {
    return this.hasIsError && load<u8>(this.ptr, 61) != 0;
  }
}

/** A hook's answer. Build one with the static constructors. */
export class Decision {
  constructor(
    public readonly kind: Kind,
    /** Deny reason, new input (modify), new output (replace) or error message. */
    public readonly text: string,
    /** modify/replace: optional reason. */
    public readonly reason: string | null = null,
    /** replace: optional is_error. */
    public readonly isError: Flag = Flag.Unset,
  ) {}

  /** Let the call (or its output) through unchanged. */
  static allow(): Decision {
    return new Decision(Kind.Allow, "");
  }
  /** Refuse (the reason must not be empty). */
  static deny(reason: string): Decision {
    return new Decision(Kind.Deny, reason);
  }
  /** Before the call: run it with `input` (JSON text) instead. */
  static modify(input: string, reason: string | null = null): Decision {
    return new Decision(Kind.Modify, input, reason);
  }
  /** After the call: show `output` (JSON text) instead; Flag.Unset keeps the tool's is_error. */
  static replace(output: string, isError: Flag = Flag.Unset, reason: string | null = null): Decision {
    return new Decision(Kind.Replace, output, reason, isError);
  }
  /** The hook failed: err(message). */
  static error(message: string): Decision {
    return new Decision(Kind.Error, message);
  }
}

// ── memory of one call ──────────────────────────────────────────────────────────────────────────

/** Raw (unmanaged, not GC-tracked) blocks of the current call: the request copy and encoded answers. */
const blocks = new Array<usize>();

/** The result<decision, string> area: 32 bytes, align 4, in static memory. */
const RESULT: usize = memory.data(32, 8);

/** The canonical ABI's allocator. Raw heap blocks (16-aligned), released by cabi_post_handle. */
export function cabi_realloc(old: usize, oldSize: usize, align: usize, newSize: usize): usize {
  if (align > 16) unreachable();
  if (old == 0) {
    const ptr = heap.alloc(newSize);
    blocks.push(ptr);
    return ptr;
  }
  const ptr = heap.realloc(old, newSize);
  const i = blocks.indexOf(old);
  if (i >= 0) blocks[i] = ptr;
  else blocks.push(ptr);
  return ptr;
}

/** Post-return: the host has read the answer; free every block of this call. */
export function cabi_post_handle(area: usize): void {
  for (let i = 0; i < blocks.length; i++) heap.free(unchecked(blocks[i]));
  blocks.length = 0;
}

/** Store a string's UTF-8 as (ptr, len) at `at` (a raw block that lives until post-return). */
function putString(at: usize, s: string): void {
  const len = <usize>String.UTF8.byteLength(s, false);
  const ptr = heap.alloc(len);
  blocks.push(ptr);
  // Lone surrogates become U+FFFD (same byte count as WTF-8): the host only ever sees valid UTF-8.
  String.UTF8.encodeUnsafe(changetype<usize>(s), s.length, ptr, false, String.UTF8.ErrorMode.REPLACE);
  store<usize>(at, ptr, 0);
  store<usize>(at, len, 4);
}

/** option<string> at `at`: tag, then the string 4 bytes later. */
function putOptionalString(at: usize, s: string | null): void {
  if (s === null) {
    store<u8>(at, 0);
  } else {
    store<u8>(at, 1);
    putString(at + 4, s);
  }
}

function writeResult(d: Decision): void {
  memory.fill(RESULT, 0, 32);
  switch (d.kind) {
    case Kind.Allow:
      store<u8>(RESULT, 0, 4);
      break;
    case Kind.Deny:
      store<u8>(RESULT, 1, 4);
      putString(RESULT + 8, d.text);
      break;
    case Kind.Modify:
      store<u8>(RESULT, 2, 4);
      putString(RESULT + 8, d.text); // input @8/@12
      putOptionalString(RESULT + 16, d.reason); // reason tag @16, string @20/@24
      break;
    case Kind.Replace:
      store<u8>(RESULT, 3, 4);
      putString(RESULT + 8, d.text); // output @8/@12
      if (d.isError != Flag.Unset) {
        store<u8>(RESULT, 1, 16); // is-error tag @16
        store<u8>(RESULT, d.isError == Flag.True ? 1 : 0, 17); // value @17
      }
      putOptionalString(RESULT + 20, d.reason); // reason tag @20, string @24/@28
      break;
    default:
      store<u8>(RESULT, 1, 0); // err @0, message @4/@8
      putString(RESULT + 4, d.kind == Kind.Error ? d.text : "unknown decision kind");
      break;
  }
}

/**
 * The body of the `handle` export: wrap the request record, run the hook, write its decision into
 * the result area and return the area's address.
 */
export function serve(request: usize, hook: (req: Request) => Decision): usize {
  writeResult(hook(new Request(request)));
  return RESULT;
}
