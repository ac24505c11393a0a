/**
 * basis-hooks glue for JavaScript and TypeScript hooks: the hook reads and answers in the basis hook
 * wire contract's own shapes, and this file speaks the `basis:hook@1.0.0` WIT for it.
 *
 * You do not import this file. `basis-hooks build` copies it into `build/entry/glue/` and generates the
 * component's entry, which hands your module to {@link serve}:
 *
 *     export function handle(request, context) {
 *       if (request.tool_name === 'shell' && JSON.stringify(request.input).includes('rm -rf /'))
 *         return { decision: 'deny', reason: 'refusing rm -rf /' };
 *       return { decision: 'allow' };
 *     }
 *
 * - `request` is the contract's request, field for field: `hook_schema`, `event` ('pre_tool_use' |
 *   'post_tool_use'), `workspace`, `agent_id`, `tool_call_id`, `tool_name`, `input` (the tool input as
 *   a parsed JSON value, or the raw text when the model's text was not JSON) and, after the call only,
 *   `output` (a JSON value) and `is_error` (absent before the call, never null).
 * - Answer `{decision: 'allow'}`, `{decision: 'deny', reason}`, `{decision: 'modify', input, reason?}`
 *   (before the call) or `{decision: 'replace', output, is_error?, reason?}` (after it). Any other
 *   shape fails the hook (`guest_error`) with a message that says what was expected.
 * - Throwing fails the hook too (`guest_error`, with the message), under either engine.
 * - `context.env` holds the environment variables granted to the hook (`grants.env` / `env_allow`);
 *   empty unless granted.
 * - `console.log` / `info` / `debug` / `warn` / `error` write to the hook's stderr, which the host
 *   captures (capped) into the audit trail and `basis-hooks test` shows per case.
 * - `handle` runs synchronously; module top-level code runs once, at build time.
 *
 * Plain ES2022 that runs on both engines (QuickJS has no TextEncoder; SpiderMonkey and QuickJS
 * represent an absent WIT option differently: `undefined` and `null`).
 */
import { getEnvironment } from 'wasi:cli/environment@0.2.12';
import { getStderr } from 'wasi:cli/stderr@0.2.12';

/** WIT enum case → contract event name. */
const EVENTS = { 'pre-tool-use': 'pre_tool_use', 'post-tool-use': 'post_tool_use' };

/** What an answer may look like: the tail of every "wrong shape" message. */
const EXPECTED =
  'expected one of {"decision":"allow"}, {"decision":"deny","reason":"<why>"}, ' +
  '{"decision":"modify","input":<new tool input>,"reason"?:"<why>"} (before the call), ' +
  '{"decision":"replace","output":<new tool output>,"is_error"?:<boolean>,"reason"?:"<why>"} (after it)';

/** Longest rendering of a wrong answer in an error message. */
const SHOWN = 300;

/** A value as error messages and `console` show it: JSON where possible. */
function show(value) {
  if (value === undefined) return 'undefined';
  if (typeof value === 'function') return `[function ${value.name || 'anonymous'}]`;
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value === 'symbol') return String(value);
  let text;
  try {
    text = JSON.stringify(value, (_key, v) => (typeof v === 'bigint' ? `${v}n` : v));
  } catch {
    text = undefined;
  }
  if (text === undefined) text = String(value);
  return text;
}

function clip(text) {
  return text.length > SHOWN ? `${text.slice(0, SHOWN)}…` : text;
}

/** An Error as `name: message` and its stack frames; anything else as {@link show}. */
function describeThrown(error) {
  if (error instanceof Error) {
    const head = `${error.name}: ${error.message}`;
    const stack = typeof error.stack === 'string' ? error.stack.trim() : '';
    // V8-style stacks repeat the head; SpiderMonkey's and QuickJS's are frames only. The glue's own
    // frames (build/entry/), the engine's wrapper (componentize-js's initializer.js) and native ones
    // say nothing about the hook.
    const frames = (stack.startsWith(head) ? stack.slice(head.length) : stack)
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '' && !line.includes('build/entry/') && !line.includes('initializer.js') && !line.includes('(native)'))
      .slice(0, 8);
    return frames.length === 0 ? head : `${head}\n    ${frames.join('\n    ')}`;
  }
  return show(error);
}

// ---------------------------------------------------------------------------------------------
// console → the hook's stderr (captured by the host)

/** UTF-8 bytes of a string (lone surrogates become U+FFFD). */
function utf8(text) {
  if (typeof TextEncoder === 'function') return new TextEncoder().encode(text);
  const out = [];
  for (const ch of text) {
    let c = ch.codePointAt(0);
    if (c >= 0xd800 && c <= 0xdfff) c = 0xfffd;
    if (c < 0x80) out.push(c);
    else if (c < 0x800) out.push(0xc0 | (c >> 6), 0x80 | (c & 63));
    else if (c < 0x10000) out.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
    else out.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 63), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
  }
  return new Uint8Array(out);
}

/** WASI's blocking-write-and-flush takes at most 4096 bytes per call. */
const WRITE_CHUNK = 4096;

/** The stderr stream, opened on the first log (not at build time: the snapshot must not hold it). */
let stderr;

function writeLine(args) {
  const text = `${args.map((a) => (typeof a === 'string' ? a : a instanceof Error ? describeThrown(a) : show(a))).join(' ')}\n`;
  try {
    stderr ??= getStderr();
    const bytes = utf8(text);
    for (let at = 0; at < bytes.length; at += WRITE_CHUNK) stderr.blockingWriteAndFlush(bytes.subarray(at, at + WRITE_CHUNK));
  } catch {
    // Logging never fails the hook (the host caps what it keeps and says what it dropped).
  }
}

globalThis.console = {
  log: (...args) => writeLine(args),
  info: (...args) => writeLine(args),
  debug: (...args) => writeLine(args),
  warn: (...args) => writeLine(args),
  error: (...args) => writeLine(args),
  trace: (...args) => writeLine(args),
  dir: (value) => writeLine([value]),
};

// ---------------------------------------------------------------------------------------------
// WIT request → contract request

/** The tool input or output the WIT carries as JSON text, as the value it denotes. */
function parse(text) {
  try {
    return JSON.parse(text);
  } catch {
    // The host always sends JSON text; should it ever not be, the hook still sees the text.
    return text;
  }
}

function toRequest(wit) {
  const request = {
    hook_schema: wit.hookSchema,
    event: EVENTS[wit.event] ?? wit.event,
    workspace: wit.workspace,
    agent_id: wit.agentId,
    tool_call_id: wit.toolCallId,
    tool_name: wit.toolName,
    input: parse(wit.input),
  };
  // Absent before the call, never null (QuickJS hands an absent option over as null).
  if (wit.output != null) request.output = parse(wit.output);
  if (wit.isError != null) request.is_error = wit.isError;
  return request;
}

function context() {
  let env;
  return {
    /** The granted environment, read when first asked for in this call. */
    get env() {
      if (env === undefined) {
        env = {};
        for (const [name, value] of getEnvironment()) env[name] = value;
        Object.freeze(env);
      }
      return env;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// contract response → WIT decision

function refuse(answer, problem) {
  throw `handle returned ${clip(show(answer))}: ${problem}; ${EXPECTED}`;
}

/** A value the host will parse back: JSON text, or a refusal naming the field. */
function json(answer, field) {
  let text;
  try {
    text = JSON.stringify(answer[field]);
  } catch (error) {
    refuse(answer, `"${field}" cannot be written as JSON (${describeThrown(error)})`);
  }
  if (text === undefined) refuse(answer, `"${field}" cannot be written as JSON`);
  return text;
}

function optionalString(answer, field) {
  const value = answer[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') refuse(answer, `"${field}" must be a string`);
  return value;
}

function toDecision(answer) {
  if (answer === null || typeof answer !== 'object' || Array.isArray(answer)) refuse(answer, 'not an object');
  if (typeof answer.then === 'function') refuse(answer, 'a Promise: handle runs synchronously, it cannot await');
  const reason = optionalString(answer, 'reason');
  switch (answer.decision) {
    case 'allow':
      return { tag: 'allow' };
    case 'deny':
      // An empty reason is the host's to refuse (malformed_response), as for every transport.
      if (typeof answer.reason !== 'string') refuse(answer, 'a deny needs "reason", the text the model is shown');
      return { tag: 'deny', val: answer.reason };
    case 'modify': {
      if (answer.input === undefined) refuse(answer, 'a modify needs "input", the new tool input');
      const val = { input: json(answer, 'input') };
      if (reason !== undefined) val.reason = reason;
      return { tag: 'modify', val };
    }
    case 'replace': {
      if (answer.output === undefined) refuse(answer, 'a replace needs "output", the new tool output');
      const val = { output: json(answer, 'output') };
      if (answer.is_error !== undefined && answer.is_error !== null) {
        if (typeof answer.is_error !== 'boolean') refuse(answer, '"is_error" must be a boolean');
        val.isError = answer.is_error;
      }
      if (reason !== undefined) val.reason = reason;
      return { tag: 'replace', val };
    }
    case undefined:
      refuse(answer, 'tag' in answer ? 'no "decision" ({tag, val} is the WIT\'s shape, which this glue writes for you)' : 'no "decision"');
      break;
    default:
      refuse(answer, `unknown decision ${clip(show(answer.decision))}`);
  }
  return undefined;
}

/**
 * The `basis:hook/handler` export for a hook module: its `handle(request, context)` called with the
 * contract's request, its answer checked and turned into the WIT decision. A failure is thrown as a
 * string, which both engines turn into `err(message)`: the host's `guest_error`.
 *
 * Called at build time with the module: a module without `handle` fails the build, naming what to export.
 */
export function serve(hook, source) {
  const handle = hook.handle;
  if (typeof handle !== 'function') {
    const raw = 'handler' in hook ? ' (it exports `handler`, the raw WIT shape; write the contract\'s shapes instead)' : '';
    throw new Error(`${source} must export \`function handle(request, context)\` returning {decision: ...}${raw}`);
  }
  return {
    handle(witRequest) {
      let answer;
      try {
        answer = handle(toRequest(witRequest), context());
      } catch (error) {
        throw typeof error === 'string' ? error : `handle threw ${describeThrown(error)}`;
      }
      return toDecision(answer);
    },
  };
}
