/**
 * A scripted model for the OpenAI Agents SDK tests: an implementation of the SDK's `Model` interface
 * that answers each turn with the next entry of a script and keeps every request's input — so a test
 * reads exactly what the model was sent back after each tool call. Streaming answers with the same
 * items in one `response_done` event.
 */
import { Usage, type AgentInputItem, type AgentOutputItem, type Model, type ModelRequest, type ModelResponse, type StreamEvent } from '@openai/agents';
import type { Step } from './ai-script.js';

export type { Step } from './ai-script.js';

export class ScriptedModel implements Model {
  /** The input of every request, in order (request `n` is what turn `n` was sent). */
  readonly inputs: AgentInputItem[][] = [];
  #turn = 0;

  constructor(private readonly steps: readonly Step[]) {}

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    this.inputs.push(structuredClone(typeof request.input === 'string' ? [{ role: 'user', content: request.input }] : request.input));
    const turn = this.#turn++;
    const step = this.steps[turn];
    const output: AgentOutputItem[] =
      step === undefined || step.length === 0
        ? [{ type: 'message', id: `msg_${turn}`, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'done' }] }]
        : step.map((c) => ({ type: 'function_call', id: `fc_${c.id}`, callId: c.id, name: c.tool, arguments: JSON.stringify(c.input), status: 'completed' }));
    return { usage: new Usage(), output, responseId: `resp_${turn}` };
  }

  async *getStreamedResponse(request: ModelRequest): AsyncIterable<StreamEvent> {
    const response = await this.getResponse(request);
    yield {
      type: 'response_done',
      response: { id: response.responseId ?? 'resp', usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 }, output: response.output },
    } as StreamEvent;
  }
}

/**
 * The function results the model was sent for the previous turn's calls (the items after the last
 * function call; earlier ones are history), by call id: the `output` as the SDK encodes it.
 */
export function functionResults(input: readonly AgentInputItem[] | undefined): Record<string, unknown> {
  const items = input ?? [];
  let start = items.length;
  while (start > 0 && items[start - 1]?.type === 'function_call_result') start--;
  const out: Record<string, unknown> = {};
  for (const item of items.slice(start)) if (item.type === 'function_call_result') out[item.callId] = item.output;
  return out;
}
