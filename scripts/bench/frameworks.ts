/**
 * What the framework wrappers add to a tool call: `basis-hooks/ai` and `basis-hooks/openai-agents`
 * against the same tool unwrapped, timed alternately in one run (so load from elsewhere falls on both).
 *
 *   tsx scripts/bench/frameworks.ts             the table on stdout
 *   tsx scripts/bench/frameworks.ts --json      the JSON result on stdout (the table goes to stderr)
 *   tsx scripts/bench/frameworks.ts --quick     few samples (smoke test); not worth quoting
 *
 * Two levels per framework:
 * - **per tool call**: the SDK's own entry point into a tool — the AI SDK calls `tool.execute(input,
 *   options)`, the Agents SDK calls `tool.invoke(runContext, argumentsText, details)` — bare against
 *   wrapped, with chains of one `pre_tool_use` hook of each kind: none (an empty chain), an in-process
 *   interceptor (the TS reference guard), a component (the C guard, metered) and a subprocess (sh);
 * - **per agent step**: a whole `generateText` / `run()` of two model turns (a tool call, then text)
 *   driven by a scripted model, bare against wrapped, to put the per-call figure next to what one
 *   step of the framework's own loop costs.
 *
 * Every wrapped tool is checked to have run (an allow) before it is timed: a bench of a hook that
 * denies would measure the short path. Performance is never asserted.
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { Agent, RunContext, Runner, Usage, setTracingDisabled, tool as agentsTool, type Model, type ModelResponse, type StreamEvent } from '@openai/agents';
import { generateText, stepCountIs, tool as aiTool, type ToolExecutionOptions } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { z } from 'zod';
import { guard } from '../../guest-examples/ts-interceptor/policies.js';
import { HookRunner, componentTransport, interceptorTransport, subprocessTransport, type HookDefinition } from '../../host/index.js';
import { withHooks as withAiHooks } from '../../host/integrations/ai/index.js';
import { withHooks as withAgentsHooks } from '../../host/integrations/openai-agents/index.js';
import { guestById, ROOT } from './guests.js';
import { measureInterleaved, round, type Stats } from './stats.js';

setTracingDisabled(true);

const SCOPE = { workspace: ROOT, agentId: 'bench' };
const COMMAND = 'git push origin feature'; // every guard scans it and allows it
const ARGS = JSON.stringify({ command: COMMAND });
const CACHE_DIR = join(ROOT, '.cache', 'bench');

/** One chain the wrappers are measured with. */
interface Chain {
  readonly id: 'empty' | 'interceptor' | 'component' | 'subprocess';
  readonly label: string;
  readonly hooks: () => HookDefinition[];
  /** Subprocess chains spawn per call: far fewer samples. */
  readonly slow?: true;
}

const CHAINS: readonly Chain[] = [
  { id: 'empty', label: 'empty chain', hooks: () => [] },
  { id: 'interceptor', label: 'interceptor (TS guard)', hooks: () => [{ name: 'guard', event: 'pre_tool_use', transport: interceptorTransport(guard) }] },
  {
    id: 'component',
    label: 'component (C guard, metered)',
    hooks: () => [{ name: 'guard', event: 'pre_tool_use', transport: componentTransport({ path: guestById('c').path, cache_dir: CACHE_DIR }) }],
  },
  {
    id: 'subprocess',
    label: "subprocess (sh echo allow)",
    hooks: () => [{ name: 'guard', event: 'pre_tool_use', transport: subprocessTransport({ command: ['/bin/sh', '-c', `cat >/dev/null; echo '{"decision":"allow"}'`] }) }],
    slow: true,
  },
];

/** A wrapped tool against the bare one, one chain. */
export interface FrameworkRow {
  readonly framework: 'ai' | 'openai-agents';
  readonly level: 'tool_call' | 'agent_step';
  readonly chain: Chain['id'];
  readonly label: string;
  readonly bare: Stats;
  readonly wrapped: Stats;
  /** wrapped median − bare median, µs: what the wrapper and its chain add. */
  readonly added_us: number;
  /** wrapped median ÷ bare median. */
  readonly ratio: number;
}

export interface FrameworksResult {
  readonly versions: { readonly ai: string; readonly '@openai/agents': string; readonly node: string };
  readonly quick: boolean;
  /** The machine's 1/5/15-minute load averages when the run started and ended: read the figures against them. */
  readonly loadavg: { readonly start: readonly number[]; readonly end: readonly number[] };
  readonly rows: readonly FrameworkRow[];
}

interface Plan {
  readonly fast: { n: number; warmup: number };
  readonly step: { n: number; warmup: number };
  readonly spawn: { n: number; warmup: number };
}
const FULL: Plan = { fast: { n: 3000, warmup: 500 }, step: { n: 1000, warmup: 200 }, spawn: { n: 30, warmup: 3 } };
const QUICK: Plan = { fast: { n: 100, warmup: 20 }, step: { n: 30, warmup: 5 }, spawn: { n: 3, warmup: 1 } };

function row(framework: FrameworkRow['framework'], level: FrameworkRow['level'], chain: Chain, stats: { bare: Stats; wrapped: Stats }): FrameworkRow {
  return {
    framework,
    level,
    chain: chain.id,
    label: chain.label,
    bare: stats.bare,
    wrapped: stats.wrapped,
    added_us: round(stats.wrapped.median_us - stats.bare.median_us),
    ratio: round(stats.wrapped.median_us / stats.bare.median_us),
  };
}

function progress(message: string): void {
  process.stderr.write(`[bench] ${message}\n`);
}

// ---- AI SDK -----------------------------------------------------------------------------------

function aiShell() {
  let runs = 0;
  const shell = aiTool({ inputSchema: z.object({ command: z.string() }), execute: async ({ command }) => (runs++, `ran: ${command}`) });
  return { shell, runs: () => runs };
}

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};

/** A mock model that calls `shell` once, then answers text: one agent step with one tool call. */
function aiModel(): MockLanguageModelV3 {
  return new MockLanguageModelV3({
    doGenerate: async (options) => {
      const answered = options.prompt.some((m) => m.role === 'tool');
      return answered
        ? { content: [{ type: 'text', text: 'done' }], finishReason: { unified: 'stop', raw: undefined }, usage, warnings: [] }
        : { content: [{ type: 'tool-call', toolCallId: 'call-1', toolName: 'shell', input: ARGS }], finishReason: { unified: 'tool-calls', raw: undefined }, usage, warnings: [] };
    },
  });
}

async function benchAi(chain: Chain, plan: Plan): Promise<FrameworkRow[]> {
  const runner = new HookRunner(chain.hooks());
  try {
    const bare = aiShell();
    const hooked = aiShell();
    const tools = withAiHooks({ shell: hooked.shell }, runner, SCOPE);
    const options: ToolExecutionOptions = { toolCallId: 'call-1', messages: [] };
    const input = { command: COMMAND };
    const execute = (t: typeof bare.shell) => t.execute?.(input, options) as Promise<unknown>;
    if ((await execute(tools.shell)) !== `ran: ${COMMAND}` || hooked.runs() !== 1) throw new Error(`ai, ${chain.label}: the wrapped tool did not run`);

    progress(`ai: tool call, ${chain.label}`);
    const perCall = await measureInterleaved({ bare: () => execute(bare.shell), wrapped: () => execute(tools.shell) }, chain.slow ? plan.spawn : plan.fast);
    const rows = [row('ai', 'tool_call', chain, perCall)];
    if (chain.id === 'empty' || chain.id === 'component') {
      progress(`ai: agent step (generateText), ${chain.label}`);
      const model = aiModel();
      const step = (set: { shell: typeof bare.shell }) => generateText({ model, tools: set, stopWhen: stepCountIs(3), prompt: 'go' });
      const result = await step(tools);
      if (result.text !== 'done' || result.steps.length !== 2) throw new Error(`ai, ${chain.label}: the agent step did not complete`);
      rows.push(row('ai', 'agent_step', chain, await measureInterleaved({ bare: () => step({ shell: bare.shell }), wrapped: () => step(tools) }, plan.step)));
    }
    return rows;
  } finally {
    await runner.close();
  }
}

// ---- OpenAI Agents SDK ------------------------------------------------------------------------

function agentsShell() {
  let runs = 0;
  const shell = agentsTool({ name: 'shell', description: 'Run a shell command', parameters: z.object({ command: z.string() }), execute: async ({ command }) => (runs++, `ran: ${command}`) });
  return { shell, runs: () => runs };
}

/** A `Model` that calls `shell` once, then answers text. */
class OneCallModel implements Model {
  async getResponse(request: Parameters<Model['getResponse']>[0]): Promise<ModelResponse> {
    const answered = Array.isArray(request.input) && request.input.some((i) => i.type === 'function_call_result');
    return {
      usage: new Usage(),
      output: answered
        ? [{ type: 'message', id: 'msg', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'done' }] }]
        : [{ type: 'function_call', id: 'fc', callId: 'call-1', name: 'shell', arguments: ARGS, status: 'completed' }],
    };
  }
  // Streaming is not benchmarked.
  async *getStreamedResponse(): AsyncIterable<StreamEvent> {
    throw new Error('not used');
  }
}

async function benchAgents(chain: Chain, plan: Plan): Promise<FrameworkRow[]> {
  const runner = new HookRunner(chain.hooks());
  try {
    const bare = agentsShell();
    const hooked = agentsShell();
    const [wrapped] = withAgentsHooks([hooked.shell], runner, SCOPE);
    if (wrapped === undefined) throw new Error('no wrapped tool');
    const context = new RunContext();
    const details = { toolCall: { type: 'function_call' as const, callId: 'call-1', name: 'shell', arguments: ARGS } };
    const invoke = (t: typeof bare.shell) => t.invoke(context, ARGS, details);
    if ((await invoke(wrapped)) !== `ran: ${COMMAND}` || hooked.runs() !== 1) throw new Error(`openai-agents, ${chain.label}: the wrapped tool did not run`);

    progress(`openai-agents: tool call, ${chain.label}`);
    const perCall = await measureInterleaved({ bare: () => invoke(bare.shell), wrapped: () => invoke(wrapped) }, chain.slow ? plan.spawn : plan.fast);
    const rows = [row('openai-agents', 'tool_call', chain, perCall)];
    if (chain.id === 'empty' || chain.id === 'component') {
      progress(`openai-agents: agent step (run), ${chain.label}`);
      const model = new OneCallModel();
      const agentRunner = new Runner({ tracingDisabled: true });
      const bareAgent = new Agent({ name: 'bench', model, tools: [bare.shell] });
      const hookedAgent = new Agent({ name: 'bench', model, tools: [wrapped] });
      const result = await agentRunner.run(hookedAgent, 'go');
      if (result.finalOutput !== 'done') throw new Error(`openai-agents, ${chain.label}: the run did not complete`);
      rows.push(row('openai-agents', 'agent_step', chain, await measureInterleaved({ bare: () => agentRunner.run(bareAgent, 'go'), wrapped: () => agentRunner.run(hookedAgent, 'go') }, plan.step)));
    }
    return rows;
  } finally {
    await runner.close();
  }
}

// ---- run and report ---------------------------------------------------------------------------

/** The installed version of a dependency (its manifest in node_modules: not every package exports it). */
function version(pkg: string): string {
  return (JSON.parse(readFileSync(join(ROOT, 'node_modules', pkg, 'package.json'), 'utf8')) as { version: string }).version;
}

/** Measure every case. */
export async function benchFrameworks(quick: boolean): Promise<FrameworksResult> {
  const plan = quick ? QUICK : FULL;
  const start = loadavg().map(round);
  const rows: FrameworkRow[] = [];
  for (const chain of CHAINS) rows.push(...(await benchAi(chain, plan)));
  for (const chain of CHAINS) rows.push(...(await benchAgents(chain, plan)));
  return {
    versions: { ai: version('ai'), '@openai/agents': version('@openai/agents'), node: process.version },
    quick,
    loadavg: { start, end: loadavg().map(round) },
    rows,
  };
}

function fmt(x: number): string {
  return x.toLocaleString('en-US', { maximumFractionDigits: x >= 100 ? 0 : x >= 10 ? 1 : 2 });
}

/** The result as a Markdown table (docs/frameworks.md's), with the versions it ran. */
export function frameworksMarkdown(result: FrameworksResult): string {
  const name = { ai: `AI SDK (\`ai\` ${result.versions.ai})`, 'openai-agents': `Agents SDK (\`@openai/agents\` ${result.versions['@openai/agents']})` };
  const lines = [
    '| framework | measured | chain | bare median µs | wrapped median µs | added µs | wrapped ÷ bare |',
    '| --- | --- | --- | ---: | ---: | ---: | ---: |',
    ...result.rows.map((r) =>
      `| ${name[r.framework]} | ${r.level === 'tool_call' ? 'tool call' : 'agent step'} | ${r.label} | ${fmt(r.bare.median_us)} | ${fmt(r.wrapped.median_us)} | ${fmt(r.added_us)} | ${fmt(r.ratio)}× |`,
    ),
  ];
  return `${lines.join('\n')}\n`;
}

/** The result as a plain-text report. */
export function frameworksReport(result: FrameworksResult): string {
  const load = `load average ${result.loadavg.start.join(' / ')} at start, ${result.loadavg.end.join(' / ')} at end`;
  const head = `Framework wrappers (ai ${result.versions.ai}, @openai/agents ${result.versions['@openai/agents']}, Node ${result.versions.node}; ${load})${result.quick ? ' — QUICK, not worth quoting' : ''}\n`;
  return `${head}${frameworksMarkdown(result)}`;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { quick: { type: 'boolean', default: false }, json: { type: 'boolean', default: false } } });
  const result = await benchFrameworks(values.quick === true);
  if (values.json === true) {
    process.stderr.write(frameworksReport(result));
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  } else {
    process.stdout.write(frameworksReport(result));
  }
}

// Run only when executed directly (scripts/bench.ts imports benchFrameworks).
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().then(
    () => process.exit(0), // jco leaves an I/O thread running
    (error: unknown) => {
      process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exit(1);
    },
  );
}
