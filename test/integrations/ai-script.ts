/**
 * A scripted model for the AI SDK tests: the SDK's own `MockLanguageModelV3` (from `ai/test`), answering
 * each step with the next entry of a script and keeping every prompt it was sent — so a test reads
 * exactly what the model was told after each tool call.
 */
import { simulateReadableStream } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';

// The provider spec's types, taken from the mock itself (`@ai-sdk/provider` is not a direct dependency).
type CallOptions = Parameters<MockLanguageModelV3['doGenerate']>[0];
type GenerateResult = Awaited<ReturnType<MockLanguageModelV3['doGenerate']>>;
type Content = GenerateResult['content'][number];
type StreamPart = Awaited<ReturnType<MockLanguageModelV3['doStream']>>['stream'] extends ReadableStream<infer P> ? P : never;
/** What the model is sent on one step. */
export type Prompt = CallOptions['prompt'];

/** A tool call the model makes: `input` is what it "generated" (JSON-encoded by the helper). */
export interface ScriptedCall {
  readonly id: string;
  readonly tool: string;
  readonly input: unknown;
}

/** One model turn: the tool calls it makes, or (no calls) its final text. */
export type Step = readonly ScriptedCall[];

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};

function content(step: Step | undefined): Content[] {
  if (step === undefined || step.length === 0) return [{ type: 'text', text: 'done' }];
  return step.map((c) => ({ type: 'tool-call', toolCallId: c.id, toolName: c.tool, input: JSON.stringify(c.input) }));
}

/** The mock model and the prompts it received, in order (prompt `n` is what step `n` was sent). */
export function scriptedModel(steps: readonly Step[]): { model: MockLanguageModelV3; prompts: Prompt[] } {
  const prompts: Prompt[] = [];
  let turn = 0;
  const next = (options: CallOptions): Content[] => {
    prompts.push(structuredClone(options.prompt));
    return content(steps[turn++]);
  };
  const model = new MockLanguageModelV3({
    doGenerate: async (options): Promise<GenerateResult> => {
      const parts = next(options);
      const calls = parts.some((p) => p.type === 'tool-call');
      return { content: parts, finishReason: { unified: calls ? 'tool-calls' : 'stop', raw: undefined }, usage, warnings: [] };
    },
    doStream: async (options) => {
      const parts = next(options);
      const calls = parts.some((p) => p.type === 'tool-call');
      const chunks: StreamPart[] = [{ type: 'stream-start', warnings: [] }];
      for (const part of parts) {
        if (part.type === 'tool-call') chunks.push(part);
        else if (part.type === 'text') chunks.push({ type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: part.text }, { type: 'text-end', id: 't' });
      }
      chunks.push({ type: 'finish', finishReason: { unified: calls ? 'tool-calls' : 'stop', raw: undefined }, usage });
      return { stream: simulateReadableStream({ chunks, initialDelayInMs: null, chunkDelayInMs: null }) };
    },
  });
  return { model, prompts };
}

/**
 * The tool results the model was sent in a prompt for the previous step's calls (the last tool
 * message; earlier ones are history), by tool call id: `{ type, value }` as the SDK encodes them.
 */
export function toolResults(prompt: Prompt | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const last = (prompt ?? []).filter((m) => m.role === 'tool').at(-1);
  if (last?.role === 'tool') for (const part of last.content) if (part.type === 'tool-result') out[part.toolCallId] = part.output;
  return out;
}
