/**
 * `handle` called directly through the canonical ABI (engine/instance/abi.ts does the checks every
 * call needs): the request record written into guest memory in jco's order, the
 * `result<decision, string>` read back with every discriminant checked, the output cap applied before
 * anything is decoded. The layout is layout.ts's (the planner checks jco's glue uses the same).
 */
import type { WitDecision, WitHookRequest } from '../../codec/wit.js';
import { AbiViolation, LITTLE_ENDIAN, type AbiSession } from '../../engine/instance/abi.js';
import { REQUEST, RESULT } from './layout.js';
import type { HookResult } from './binding.js';

/** Write the request record (strings first, in field order, as jco does); returns its pointer. */
export function lowerRequest(abi: AbiSession, request: WitHookRequest): number {
  const at = abi.alloc(REQUEST.align, REQUEST.size);
  const post = request.event === 'post-tool-use';
  const ws = abi.lowerString(request.workspace);
  const wsLen = abi.lowered;
  const agent = abi.lowerString(request.agentId);
  const agentLen = abi.lowered;
  const callId = abi.lowerString(request.toolCallId);
  const callIdLen = abi.lowered;
  const tool = abi.lowerString(request.toolName);
  const toolLen = abi.lowered;
  const input = abi.lowerString(request.input);
  const inputLen = abi.lowered;
  const output = request.output;
  let out = 0;
  let outLen = 0;
  if (output !== undefined) {
    out = abi.lowerString(output);
    outLen = abi.lowered;
  }
  const u8 = abi.u8;
  const isError = request.isError;
  if (LITTLE_ENDIAN) {
    // `at` is 4-aligned (checked when it was allocated): whole words, one store each.
    const u32 = abi.u32;
    const w = at >>> 2;
    u32[w + (REQUEST.hookSchema >> 2)] = request.hookSchema >>> 0;
    u32[w + (REQUEST.workspace >> 2)] = ws;
    u32[w + (REQUEST.workspace >> 2) + 1] = wsLen;
    u32[w + (REQUEST.agentId >> 2)] = agent;
    u32[w + (REQUEST.agentId >> 2) + 1] = agentLen;
    u32[w + (REQUEST.toolCallId >> 2)] = callId;
    u32[w + (REQUEST.toolCallId >> 2) + 1] = callIdLen;
    u32[w + (REQUEST.toolName >> 2)] = tool;
    u32[w + (REQUEST.toolName >> 2) + 1] = toolLen;
    u32[w + (REQUEST.input >> 2)] = input;
    u32[w + (REQUEST.input >> 2) + 1] = inputLen;
    if (output !== undefined) {
      u32[w + (REQUEST.output >> 2)] = out;
      u32[w + (REQUEST.output >> 2) + 1] = outLen;
    }
  } else {
    const v = abi.view;
    v.setUint32(at + REQUEST.hookSchema, request.hookSchema >>> 0, true);
    v.setUint32(at + REQUEST.workspace, ws, true);
    v.setUint32(at + REQUEST.workspace + 4, wsLen, true);
    v.setUint32(at + REQUEST.agentId, agent, true);
    v.setUint32(at + REQUEST.agentId + 4, agentLen, true);
    v.setUint32(at + REQUEST.toolCallId, callId, true);
    v.setUint32(at + REQUEST.toolCallId + 4, callIdLen, true);
    v.setUint32(at + REQUEST.toolName, tool, true);
    v.setUint32(at + REQUEST.toolName + 4, toolLen, true);
    v.setUint32(at + REQUEST.input, input, true);
    v.setUint32(at + REQUEST.input + 4, inputLen, true);
    if (output !== undefined) {
      v.setUint32(at + REQUEST.output, out, true);
      v.setUint32(at + REQUEST.output + 4, outLen, true);
    }
  }
  u8[at + REQUEST.event] = post ? 1 : 0;
  u8[at + REQUEST.outputTag] = output === undefined ? 0 : 1;
  if (isError === undefined) u8[at + REQUEST.isErrorTag] = 0;
  else {
    u8[at + REQUEST.isErrorTag] = 1;
    u8[at + REQUEST.isError] = isError ? 1 : 0;
  }
  return at;
}

/** Read and check the `result<decision, string>` at `retValue`; over `maxBytes` it is `too-large`, undecoded. */
export function liftResult(abi: AbiSession, retValue: number, maxBytes: number): HookResult {
  const ret = abi.result(retValue, RESULT.align, RESULT.size);
  if (abi.tag(ret + RESULT.tag, 1, 'result') === 1) {
    const len = abi.stringLength(ret + RESULT.errText, 'err message');
    if (len > maxBytes) return { tag: 'too-large', bytes: len };
    return { tag: 'err', message: abi.text(ret + RESULT.errText, 'err message') };
  }
  switch (abi.tag(ret + RESULT.decision, 3, 'decision')) {
    case 0:
      return { tag: 'ok', decision: { tag: 'allow' } };
    case 1: {
      const len = abi.stringLength(ret + RESULT.text, 'deny reason');
      if (len > maxBytes) return { tag: 'too-large', bytes: len };
      return { tag: 'ok', decision: { tag: 'deny', val: abi.text(ret + RESULT.text, 'deny reason') } };
    }
    case 2: {
      const hasReason = abi.tag(ret + RESULT.modifyReasonTag, 1, 'modify reason option') === 1;
      const bytes = abi.stringLength(ret + RESULT.text, 'modify input') + (hasReason ? abi.stringLength(ret + RESULT.modifyReason, 'modify reason') : 0);
      if (bytes > maxBytes) return { tag: 'too-large', bytes };
      const input = abi.text(ret + RESULT.text, 'modify input');
      return { tag: 'ok', decision: hasReason ? { tag: 'modify', val: { input, reason: abi.text(ret + RESULT.modifyReason, 'modify reason') } } : { tag: 'modify', val: { input } } };
    }
    default: {
      const hasIsError = abi.tag(ret + RESULT.replaceIsErrorTag, 1, 'replace is-error option') === 1;
      let isError: boolean | undefined;
      if (hasIsError) {
        const b = abi.view.getUint8(ret + RESULT.replaceIsError);
        if (b > 1) throw new AbiViolation('discriminant', `replace is-error bool ${b} (expected 0 or 1)`);
        isError = b === 1;
      }
      const hasReason = abi.tag(ret + RESULT.replaceReasonTag, 1, 'replace reason option') === 1;
      const bytes = abi.stringLength(ret + RESULT.text, 'replace output') + (hasReason ? abi.stringLength(ret + RESULT.replaceReason, 'replace reason') : 0);
      if (bytes > maxBytes) return { tag: 'too-large', bytes };
      const output = abi.text(ret + RESULT.text, 'replace output');
      const reason = hasReason ? abi.text(ret + RESULT.replaceReason, 'replace reason') : undefined;
      let val: Extract<WitDecision, { tag: 'replace' }>['val'];
      if (isError === undefined) val = reason === undefined ? { output } : { output, reason };
      else val = reason === undefined ? { output, isError } : { output, isError, reason };
      return { tag: 'ok', decision: { tag: 'replace', val } };
    }
  }
}
