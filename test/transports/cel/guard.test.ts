/**
 * A rule's guard (its top-level `tool_name == '…'`-like conditions, checked in JavaScript) is a safe
 * shortcut: whenever it is false, evaluating the whole rule gives false — not true, not an error —
 * so skipping the rule changes nothing. Random rules (guards mixed with conditions that hold, fail or
 * error, under `&&`, `||` and `!`) over random requests.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { HookRequest } from '../../../host/index.js';
import { CelFailure, compileExpression } from '../../../host/transports/cel/compile.js';
import { loadCelEngine } from '../../../host/transports/cel/engine.js';
import { variablesOf } from '../../../host/transports/cel/variables.js';

const engine = await loadCelEngine();

const guardLike = fc.constantFrom("tool_name == 'shell'", "'shell' == tool_name", "agent_id != 'ci'", "tool_name.startsWith('mcp__')", "tool_name.endsWith('_file')", "tool_name in ['shell', 'read_file']", "event == 'pre_tool_use'", "workspace == '/repo'");
const other = fc.constantFrom("input.command.contains('rm')", 'input.n > 2', 'true', 'false', "type(input) == map && 'command' in input", "input.command.matches('^git')");
const leaf = fc.oneof(guardLike, other);
const expression = fc.letrec<{ expr: string }>((tie) => ({
  expr: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.tuple(tie('expr'), tie('expr')).map(([a, b]) => `(${a}) && (${b})`),
    fc.tuple(tie('expr'), tie('expr')).map(([a, b]) => `(${a}) || (${b})`),
    tie('expr').map((a) => `!(${a})`),
  ),
})).expr;
const request = fc.record({
  tool_name: fc.constantFrom('shell', 'read_file', 'mcp__github__x', 'deploy'),
  agent_id: fc.constantFrom('a1', 'ci'),
  workspace: fc.constantFrom('/repo', '/other'),
  input: fc.constantFrom<unknown>({ command: 'rm -rf x' }, { command: 'git push' }, { n: 3 }, 'raw text', null),
});

describe('CEL rule guards', () => {
  it('a false guard means the whole rule is false; a true one, that the rest alone answers as the whole (property)', () => {
    let guarded = 0;
    fc.assert(
      fc.property(expression, fc.array(request, { minLength: 1, maxLength: 8 }), (source, requests) => {
        const compiled = compileExpression(engine, source, { where: 'r', event: 'pre_tool_use', cost_limit: 1e9 });
        for (const r of requests) {
          const call: HookRequest = { hook_schema: 1, event: 'pre_tool_use', tool_call_id: 'c', ...r, input: r.input as never };
          if (compiled.guard === undefined) continue;
          const whole = compiled.evaluate(variablesOf(call));
          const plain = (value: unknown): unknown => (value instanceof CelFailure ? value.failure : value);
          if (compiled.guard(call)) {
            // The guard held: the rest evaluated alone answers as the whole expression (failures named as the whole's).
            expect(plain(compiled.afterGuard?.(variablesOf(call))), source).toEqual(plain(whole));
            continue;
          }
          guarded++;
          expect(plain(whole), source).toBe(false);
        }
      }),
      { numRuns: 400 },
    );
    expect(guarded).toBeGreaterThan(50);
  });

  it('finds the guards of a top-level && chain only', () => {
    const guard = (source: string) => compileExpression(engine, source, { where: 'r' }).guard;
    expect(guard("tool_name == 'shell' && input.command.contains('x')")).toBeDefined();
    expect(guard("tool_name == 'shell' || input.command.contains('x')")).toBeUndefined();
    expect(guard("!(tool_name == 'shell')")).toBeUndefined();
    expect(guard("input.items.exists(tool_name, tool_name == 'x')")).toBeUndefined();
  });
});

describe('CEL plain tests', () => {
  it('a string operation on a request field answers in JavaScript exactly as CEL does (property)', () => {
    const shapes = ["input.a.contains('x')", "input.a.b.startsWith('ab')", "input.a.matches('^x+y')", "tool_name.endsWith('_file')", "output.a.endsWith('z')"];
    const value = fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom('xxy', 'abc', 'x'), fc.integer(), fc.constant(null), fc.array(fc.string(), { maxLength: 2 }));
    const input = fc.oneof(fc.record({ a: fc.oneof(value, fc.record({ b: value })) }), fc.constant({}), fc.string(), fc.constant(null));
    fc.assert(
      fc.property(fc.constantFrom(...shapes), input, fc.constantFrom('read_file', 'shell'), (shape, value, tool) => {
        const event = shape.startsWith('output') ? 'post_tool_use' : 'pre_tool_use';
        const plain = compileExpression(engine, shape, { where: 'r', event });
        // `true && x` is x, errors included, and is never a plain test: the library's own answer.
        const library = compileExpression(engine, `true && ${shape}`, { where: 'r', event });
        const variables = { tool_name: tool, input: value, output: value, is_error: false, agent_id: 'a', workspace: '/w', event };
        const answer = (v: unknown): unknown => (v instanceof CelFailure ? v.failure.code : v);
        expect(answer(plain.evaluate(variables)), `${shape} on ${JSON.stringify(value)}`).toEqual(answer(library.evaluate(variables)));
      }),
      { numRuns: 600 },
    );
  });
});
