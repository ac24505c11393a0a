/**
 * What the building blocks come to once assembled — a prototype of the transport's call path, not the
 * transport: metered, a WIT record built with a literal, the fuel refilled, the direct call, the answer
 * mapped and checked by the fast validator; worker, the same record through the mailbox to a worker
 * calling directly, the reply validated on arrival. Each against today's `transport.invoke`, with the
 * JSON floor, interleaved. (Not in it: the host-call time allowance of metering, logs, the runner.)
 */
import type { WitHookRequest } from '../../../host/codec/wit.js';
import { fastHookResponse } from '../../../host/contract/fast/response.js';
import type { HookRequest } from '../../../host/contract/request.js';
import type { HookResponse } from '../../../host/contract/response.js';
import { componentTransport } from '../../../host/index.js';
import { CallerMailbox, createMailboxBuffer } from '../../../host/transports/component/worker/mailbox.js';
import { jsonFloor } from '../baselines.js';
import { ANSWER, REQUEST, guestById } from '../guests.js';
import { instantiateBothWays } from '../raw.js';
import type { Block } from '../result.js';
import { measureInterleaved } from '../stats.js';
import { tsWorker } from '../ts-worker.js';
import type { MicroPlan } from './plan.js';

const MAX_OUTPUT_BYTES = 1024 * 1024;

/** The WIT record with a literal (today's toWitRequest spreads). */
function witRecord(request: HookRequest): WitHookRequest {
  if (request.event === 'pre_tool_use') {
    return { hookSchema: request.hook_schema, event: 'pre-tool-use', workspace: request.workspace, agentId: request.agent_id, toolCallId: request.tool_call_id, toolName: request.tool_name, input: JSON.stringify(request.input) };
  }
  return {
    hookSchema: request.hook_schema,
    event: 'post-tool-use',
    workspace: request.workspace,
    agentId: request.agent_id,
    toolCallId: request.tool_call_id,
    toolName: request.tool_name,
    input: JSON.stringify(request.input),
    output: JSON.stringify(request.output),
    isError: request.is_error,
  };
}

/** The guard answers allow or deny to the bench's request; modify/replace would parse JSON text here. */
function toResponse(decision: { tag: string; val?: unknown }): HookResponse {
  const response = decision.tag === 'allow' ? { decision: 'allow' } : decision.tag === 'deny' ? { decision: 'deny', reason: decision.val } : undefined;
  const checked = fastHookResponse(response);
  if (checked === undefined) throw new Error(`the prototype maps allow and deny only, got ${decision.tag}`);
  return checked;
}

export async function benchAssembled(plan: MicroPlan, cacheDir: string): Promise<Block[]> {
  const guest = guestById('c');
  const floor = jsonFloor(REQUEST, ANSWER);
  const context = { hook: 'guard' };
  const out: Block[] = [];

  // Metered.
  const today = componentTransport({ path: guest.path, cache_dir: cacheDir, isolation: 'metered' });
  await today.load();
  const proto = await instantiateBothWays(guest.path, cacheDir, { metered: true });
  // A full counter, refilled per call as the transport did before its fuel came in slices.
  const budget = { fuel: 12_000_000_000n };
  const direct = proto.direct;
  if (direct === undefined) throw new Error(`not direct-callable: ${proto.whyNot}`);
  const assembledMetered = (): HookResponse => {
    const record = witRecord(REQUEST);
    for (const counter of proto.fuel) counter.value = budget.fuel;
    const outcome = direct.call(record, MAX_OUTPUT_BYTES);
    if (outcome.type !== 'ok') throw new Error(`expected an answer, got ${outcome.type}`);
    return toResponse(outcome.decision);
  };
  if (assembledMetered().decision !== 'allow') throw new Error('the assembled metered path does not answer allow');
  try {
    const m = await measureInterleaved({ before: () => today.invoke(REQUEST, context), after: assembledMetered, floor }, plan.fast);
    out.push({ block: 'assembled prototype', case: `${guest.label} metered: transport.invoke → literal record + fuel + direct call + fast check (floor ${m.floor.median_us} µs)`, before: m.before, after: m.after });
  } finally {
    proto.close();
    await today.close();
  }

  // Worker.
  const todayWorker = componentTransport({ path: guest.path, cache_dir: cacheDir, isolation: 'worker', pool_size: 1 });
  await todayWorker.load();
  const buffer = createMailboxBuffer();
  const worker = tsWorker(new URL('./direct-worker.ts', import.meta.url), { buffer, path: guest.path, cacheDir, maxOutputBytes: MAX_OUTPUT_BYTES });
  const mailbox = new CallerMailbox(buffer);
  let id = 0;
  const assembledWorker = async (): Promise<HookResponse> => {
    const call = ++id;
    if (!mailbox.post(call, witRecord(REQUEST))) throw new Error('did not fit');
    const reply = await mailbox.waitReply(call, 30_000);
    if (typeof reply === 'string' || reply.type !== 'result') throw new Error(`expected a result, got ${JSON.stringify(reply)}`);
    return toResponse(reply.decision);
  };
  try {
    if ((await assembledWorker()).decision !== 'allow') throw new Error('the assembled worker path does not answer allow');
    const m = await measureInterleaved({ before: () => todayWorker.invoke(REQUEST, context), after: assembledWorker, floor }, plan.worker);
    out.push({ block: 'assembled prototype', case: `${guest.label} worker: transport.invoke → mailbox + direct call in the worker (floor ${m.floor.median_us} µs)`, before: m.before, after: m.after });
  } finally {
    mailbox.close();
    await Promise.all([worker.terminate(), todayWorker.close()]);
  }
  return out;
}
