/** Block (c): the fast validators, each against the zod parse it stands in front of. */
import { HookCall, HookResponse } from '../../../host/contract/index.js';
import { parseHookCall, parseHookResponse } from '../../../host/contract/fast/index.js';
import { parseHostToWorker, parseWorkerToHost } from '../../../host/engine/executor/fast-messages.js';
import { HostToWorker, WorkerToHost } from '../../../host/engine/executor/messages.js';
import type { Block } from '../result.js';
import { measureInterleaved } from '../stats.js';
import { CALL } from '../guests.js';
import type { MicroPlan } from './plan.js';

let sink: unknown;

export async function benchValidators(plan: MicroPlan): Promise<Block[]> {
  const call = { ...CALL, event: 'pre_tool_use' as const };
  const response = { decision: 'modify', input: { command: 'git push --force-with-lease origin feature' }, reason: 'replaced --force with --force-with-lease' };
  const invoke = { type: 'invoke', id: 7, request: { hookSchema: 1, event: 'pre-tool-use', workspace: '/tmp', agentId: 'bench', toolCallId: 'call-1', toolName: 'shell', input: '{"command":"git push origin feature"}' } };
  const reply = { type: 'result', id: 7, decision: { tag: 'allow' }, logs: {} };
  const cases: Array<[string, () => unknown, () => unknown]> = [
    ['call (HookRunner.pre)', () => HookCall.safeParse(call), () => parseHookCall(call)],
    ['response (a modify)', () => HookResponse.safeParse(response), () => parseHookResponse(response)],
    ['worker invoke message', () => HostToWorker.safeParse(invoke), () => parseHostToWorker(invoke)],
    ['worker reply message', () => WorkerToHost.safeParse(reply), () => parseWorkerToHost(reply)],
  ];
  const out: Block[] = [];
  for (const [name, before, after] of cases) {
    const m = await measureInterleaved(
      {
        before: () => {
          sink = before();
        },
        after: () => {
          sink = after();
        },
      },
      plan.fast,
    );
    out.push({ block: 'fast validators (zod the arbiter)', case: name, before: m.before, after: m.after });
  }
  void sink;
  return out;
}
