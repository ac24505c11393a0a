/**
 * The policy hooks (Cedar, CEL) beside what they are built on, in one run, interleaved sample by
 * sample: a 50-policy Cedar set through `HookRunner.pre` against `@cedar-policy/cedar-wasm`'s own
 * `statefulIsAuthorized` on the same request; the decision cache on a repeat against the JSON floor;
 * a 20-rule CEL hook against the JSON floor and against the library evaluating the same 20 compiled
 * expressions alone (and `cel-js` 0.8.2, the other CEL package, on the rules it can run); and each
 * engine's load time, cold (a fresh process) and warm (a second load in that process).
 *
 *   npx tsx scripts/bench/policies.ts [--quick]     this section alone (npm run bench runs it too)
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { cedarTransport, celTransport, HookRunner, type CelRule, type HookRequest } from '../../host/index.js';
import { loadCedarEngine } from '../../host/transports/cedar/engine.js';
import { actionGroups, contextOf, principalOf, resourceOf } from '../../host/transports/cedar/mapping.js';
import { loadCelEngine } from '../../host/transports/cel/engine.js';
import { jsonFloor } from './baselines.js';
import { ANSWER, CALL, REQUEST, ROOT } from './guests.js';
import type { PoliciesResult } from './result.js';
import { measureInterleaved, round } from './stats.js';

const POLICY_COUNT = 50;
const RULE_COUNT = 20;

/** 50 policies: one permit, and forbids of the usual shapes (a pattern on the command, an agent, an MCP server) the bench call matches none of. */
export function cedarPolicySet(count = POLICY_COUNT): string {
  const out = ['@id("allow")\npermit (principal, action, resource);'];
  for (let i = 1; i < count; i++) {
    const shape = i % 3;
    if (shape === 0) out.push(`@id("no-pattern-${i}")\n@reason("pattern ${i}")\nforbid (principal, action == Action::"shell", resource) when { context.input has command && context.input.command like "*forbidden-${i} *" };`);
    else if (shape === 1) out.push(`@id("agent-${i}")\nforbid (principal == Agent::"blocked-agent-${i}", action, resource);`);
    else out.push(`@id("mcp-${i}")\nforbid (principal, action in Action::"mcp__server${i}", resource) when { context.input has field${i} };`);
  }
  return `${out.join('\n\n')}\n`;
}

/** 20 CEL rules of the usual shapes; the bench call matches none, so all 20 run. */
export function celRules(count = RULE_COUNT): CelRule[] {
  return Array.from({ length: count }, (_, i): CelRule => {
    switch (i % 4) {
      case 0:
        return { when: `tool_name == 'shell' && input.command.contains('forbidden-${i}')`, decision: 'deny', reason: `rule ${i}` };
      case 1:
        return { when: `tool_name.startsWith('mcp__server${i}__') && agent_id != 'bench'`, decision: 'deny', reason: `rule ${i}` };
      case 2:
        return { when: `agent_id == 'blocked-agent-${i}'`, decision: 'deny', reason: `rule ${i}` };
      default:
        return { when: `tool_name == 'shell' && input.command.matches('rm -rf /${i}( |$)')`, decision: 'deny', reason: `rule ${i}` };
    }
  });
}

/** The rules `cel-js` 0.8.2 can run (it has no string methods): equality and `in` over the same fields. */
function celJsExpressions(count = RULE_COUNT): string[] {
  return Array.from({ length: count }, (_, i) => (i % 2 === 0 ? `tool_name == 'tool-${i}' && input.command == 'forbidden-${i}'` : `agent_id in ['blocked-a-${i}', 'blocked-b-${i}']`));
}

async function expectAllow(runner: HookRunner, what: string): Promise<void> {
  const outcome = await runner.pre(CALL);
  if (outcome.decision !== 'allow' || outcome.trail[0]?.failure !== undefined) throw new Error(`${what}: expected allow, got ${JSON.stringify(outcome)}`);
}

export async function benchPolicies(plan: { readonly n: number; readonly warmup: number }, quick = false): Promise<PoliciesResult> {
  const floor = jsonFloor(REQUEST, ANSWER);
  const dir = await mkdtemp(join(tmpdir(), 'basis-bench-policies-'));
  try {
    // Cedar: our path against the package's own stateful call on the same, prebuilt request.
    const policies = join(dir, 'bench.cedar');
    await writeFile(policies, cedarPolicySet());
    const cedar = cedarTransport({ policies });
    const info = await cedar.load();
    const cached = cedarTransport({ policies, decision_cache: 1024 });
    await cached.load();
    const cedarRunner = new HookRunner([{ name: 'cedar', event: 'pre_tool_use', transport: cedar }]);
    const cacheRunner = new HookRunner([{ name: 'cedar', event: 'pre_tool_use', transport: cached }]);
    await expectAllow(cedarRunner, 'cedar');
    await expectAllow(cacheRunner, 'cedar with its decision cache');
    const engine = await loadCedarEngine();
    const request: HookRequest = REQUEST;
    const raw = {
      principal: principalOf(request),
      action: { type: 'Action', id: request.tool_name },
      resource: resourceOf(request),
      context: contextOf(request),
      preparsedPolicySetId: info.preparsed_id,
      entities: [{ uid: { type: 'Action', id: request.tool_name }, attrs: {}, parents: actionGroups(request.tool_name, request.event) }],
    };
    const answer = engine.statefulIsAuthorized(raw) as { type?: string; response?: { decision?: string } };
    if (answer.type !== 'success' || answer.response?.decision !== 'allow') throw new Error(`statefulIsAuthorized: expected allow, got ${JSON.stringify(answer)}`);
    const cedarPlan = quick ? plan : { n: Math.max(200, Math.round(plan.n / 5)), warmup: Math.max(100, Math.round(plan.warmup / 10)) };
    const cedarStats = await measureInterleaved({ runner: () => cedarRunner.pre(CALL), package: () => engine.statefulIsAuthorized(raw) }, cedarPlan);
    const cacheStats = await measureInterleaved({ repeat: () => cacheRunner.pre(CALL), floor }, plan);

    // CEL: the hook through the runner, the library alone on the same compiled rules, the JSON floor.
    const rules = celRules();
    const cel = celTransport({ rules, event: 'pre_tool_use' });
    await cel.load();
    const celRunner = new HookRunner([{ name: 'cel', event: 'pre_tool_use', transport: cel }]);
    await expectAllow(celRunner, 'cel');
    const { env } = await loadCelEngine();
    const compiled = rules.map((rule) => env.parse(rule.when));
    for (const expression of compiled) expression.check();
    const variables = { tool_name: REQUEST.tool_name, input: REQUEST.input, agent_id: REQUEST.agent_id, workspace: REQUEST.workspace, event: REQUEST.event };
    const library = (): boolean => {
      for (const expression of compiled) if (expression(variables) === true) return true;
      return false;
    };
    const celJs = await import('cel-js');
    const celJsParsed = celJsExpressions().map((source) => {
      const parsed = celJs.parse(source);
      if (!parsed.isSuccess) throw new Error(`cel-js cannot parse ${source}`);
      return parsed.cst;
    });
    const mbExpressions = celJsExpressions().map((source) => env.parse(source));
    for (const expression of mbExpressions) expression.check();
    // Three interleaved runs: the hook and its floor (the target), the library alone beside it, and
    // the two packages on the rules both run (cel-js, 25× slower, is kept out of the others' samples).
    const celStats = await measureInterleaved({ runner: () => celRunner.pre(CALL), floor }, plan);
    const libraryStats = await measureInterleaved({ library, floor }, plan);
    const comparison = await measureInterleaved(
      {
        same_rules_marcbachmann: () => mbExpressions.every((e) => e(variables) !== true),
        same_rules_cel_js: () => celJsParsed.every((cst) => celJs.evaluate(cst, variables) !== true),
      },
      plan,
    );
    await Promise.all([cedarRunner.close(), cacheRunner.close(), celRunner.close()]);

    return {
      engines: { cedar: engine.getCedarVersion(), cel: await packageVersion('@marcbachmann/cel-js'), cel_js: await packageVersion('cel-js') },
      cedar: { policies: POLICY_COUNT, runner: cedarStats.runner, package: cedarStats.package, cache_repeat: cacheStats.repeat, cache_floor: cacheStats.floor },
      cel: {
        rules: RULE_COUNT,
        runner: celStats.runner,
        floor: celStats.floor,
        library: libraryStats.library,
        library_floor: libraryStats.floor,
        comparison: { marcbachmann: comparison.same_rules_marcbachmann, cel_js: comparison.same_rules_cel_js },
      },
      load: await loadTimes(quick),
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function packageVersion(name: string): Promise<string> {
  const { readFile } = await import('node:fs/promises');
  const pkg = JSON.parse(await readFile(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { version?: string };
  return pkg.version ?? 'unknown';
}

const CHILD = join(ROOT, 'scripts/bench/policies-cold-child.ts');

/** Cold (a fresh process: the engine imported, the policy loaded, the first call) and warm (a second load in it), best of a few processes. */
async function loadTimes(quick: boolean): Promise<PoliciesResult['load']> {
  const run = promisify(execFile);
  const rows: PoliciesResult['load'] = [];
  for (const kind of ['cedar', 'cel'] as const) {
    let best: { cold_ms: number; warm_ms: number; import_ms: number } | undefined;
    for (let i = 0; i < (quick ? 1 : 3); i++) {
      const { stdout } = await run(process.execPath, ['--import', 'tsx', '--import', join(ROOT, 'scripts/bench/use-dist.mjs'), CHILD, kind], { cwd: ROOT });
      const sample = JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as { cold_ms: number; warm_ms: number; import_ms: number };
      if (best === undefined || sample.cold_ms < best.cold_ms) best = sample;
    }
    if (best === undefined) continue;
    rows.push({ kind, label: kind === 'cedar' ? `Cedar (${POLICY_COUNT} policies)` : `CEL (${RULE_COUNT} rules)`, cold_ms: round(best.cold_ms), warm_ms: round(best.warm_ms), import_ms: round(best.import_ms) });
  }
  return rows;
}

if (process.argv[1] !== undefined && import.meta.url.endsWith(process.argv[1].split('/').pop() ?? '\u0000')) {
  const quick = process.argv.includes('--quick');
  const result = await benchPolicies(quick ? { n: 200, warmup: 100 } : { n: 5000, warmup: 5000 }, quick);
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
}
