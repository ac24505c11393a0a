/**
 * CEL expressions compile at load — refused, naming the rule and the column, when they do not parse,
 * do not type-check, read what their event does not have, hold a pattern that cannot run in linear
 * time, or could cost more than their limit — and run metered: past the limit an evaluation stops
 * (`timeout`), even where CEL's error-absorbing `||` would have swallowed the stop.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isPolicyError, type PolicyError } from '../../../host/errors/index.js';
import { CelFailure, compileExpression, DEFAULT_COST_LIMIT, type CelExpression, type CompileOptions } from '../../../host/transports/cel/compile.js';
import { lastCost } from '../../../host/transports/cel/meter.js';
import { loadCelEngine } from '../../../host/transports/cel/engine.js';
import { N } from '../../../host/transports/cel/cost.js';
import { valueAt } from '../../../host/transports/cel/poly.js';

const engine = await loadCelEngine();
const vars = (input: unknown, more: Record<string, unknown> = {}): Record<string, unknown> => ({ tool_name: 'shell', input, agent_id: 'a1', workspace: '/repo', event: 'pre_tool_use', ...more });
/** An expression whose evaluate answers `{ok, value, cost}` or `{ok: false, failure}`, for reading in tests. */
function compile(source: string, options: Partial<CompileOptions> = {}) {
  const expression: CelExpression = compileExpression(engine, source, { where: 'cel[0].when', event: 'pre_tool_use', ...options });
  return {
    ...expression,
    evaluate: (variables: Record<string, unknown>) => {
      const value = expression.evaluate(variables);
      return value instanceof CelFailure ? { ok: false as const, failure: value.failure } : { ok: true as const, value, cost: lastCost() };
    },
  };
}

function refused(source: string, options: Partial<CompileOptions> = {}): PolicyError {
  try {
    compile(source, options);
  } catch (error) {
    if (isPolicyError(error)) return error;
    throw error;
  }
  throw new Error(`${source} compiled`);
}

describe('CEL at load: what is refused, and where', () => {
  it('a syntax error names the rule, the line and the column', () => {
    const error = refused("tool_name == 'shell' &&");
    expect(error.code).toBe('policy_invalid');
    expect(error.problem).toBe('syntax');
    expect(error.location).toEqual({ rule: 'cel[0].when', line: 1, column: 24 });
    expect(error.message).toMatch(/^cel\[0\]\.when, column 24: /);
    const multiline = refused("tool_name == 'shell'\n  && input.command.(", { where: 'cel[3].when' });
    expect(multiline.location).toMatchObject({ rule: 'cel[3].when', line: 2 });
  });

  it('a type error, an unknown variable and a non-bool are validation errors with their column', () => {
    expect(refused("tool_name + 1 == 2")).toMatchObject({ problem: 'validation', location: { column: 1 } });
    expect(refused("tool_name == 'x' && commnd == 'y'")).toMatchObject({ problem: 'validation', location: { column: 21 } });
    expect(refused('tool_name').problem).toBe('validation');
  });

  it('output and is_error do not exist before the call: refused in a pre_tool_use expression, fine after', () => {
    expect(refused("event == 'post_tool_use' && output == 'x'")).toMatchObject({ problem: 'absent_field', location: { column: 29 } });
    expect(refused('is_error').problem).toBe('absent_field');
    expect(compile("output == 'x'", { event: 'post_tool_use' }).evaluate(vars('in', { output: 'x', is_error: false, event: 'post_tool_use' }))).toMatchObject({ ok: true, value: true });
    // A comprehension's own variable of that name is not the request's.
    expect(compile("input.items.exists(output, output == 'x')").evaluate(vars({ items: ['x'] }))).toMatchObject({ ok: true, value: true });
  });

  it('a matches pattern that cannot run in linear time is refused (backreference, lookaround), with its column', () => {
    expect(refused("input.command.matches('(a)\\\\1')")).toMatchObject({ problem: 'regex', location: { column: 23 } });
    expect(refused("input.command.matches('(?<=x)y')").problem).toBe('regex');
    // The message names the pattern; a typed PolicyError, refused before any call.
    const counted = refused("input.command.matches('x{17}')");
    expect(counted).toMatchObject({ code: 'policy_invalid', problem: 'regex' });
    expect(counted.message).toContain(JSON.stringify('x{17}'));
    expect(refused("input.command.matches('(?P<n>x)')").message).toContain('(?P<n>x)');
  });

  it('a cost over the limit is refused: a constant one, one growing with the square of the call, one too steep for a 1 KiB call', () => {
    const ten = '[1,2,3,4,5,6,7,8,9,10]';
    expect(refused(`${ten}.all(x, ${ten}.all(y, ${ten}.all(z, ${ten}.all(w, x + y + z + w > 0))))`).problem).toBe('cost_limit');
    const square = refused("input.items.exists(i, input.items.exists(j, i == j))");
    expect(square.problem).toBe('cost_limit');
    expect(square.message).toContain('n²');
    expect(refused("input.items.exists(i, input.command.contains(i))").problem).toBe('cost_limit');
    expect(refused("input.items.exists(i, i.size() > 100)", { cost_limit: 100 }).message).toContain('over its cost limit 100');
  });

  it('scanning each element is linear in the call, and accepted', () => {
    const rule = compile("input.args.exists(a, a.startsWith('--force'))");
    expect(rule.estimate).toMatch(new RegExp(`^[\\d.]+ \\+ [\\d.]+·${N}$`));
    expect(rule.evaluate(vars({ args: ['push', '--force'] }))).toMatchObject({ ok: true, value: true });
  });
});

describe('CEL on a call: errors and the cost limit', () => {
  it('an evaluation error is a policy_error naming the rule and the column', () => {
    expect(compile('input.command == 1').evaluate(vars({ other: 1 }))).toEqual({ ok: false, failure: { code: 'policy_error', message: 'cel[0].when, column 7: No such key: command' } });
  });

  it('matches runs a pattern compiled when the call runs on the linear engine too, and refuses one that cannot', () => {
    // A pattern made when the call runs (here of literals: its length is known at load).
    const rule = compile("['rm\\\\s+-rf', 'git push'].exists(p, input.text.matches(p))");
    expect(rule.evaluate(vars({ text: 'rm  -rf /' }))).toMatchObject({ ok: true, value: true });
    expect(rule.evaluate(vars({ text: 'rm -r /' }))).toMatchObject({ ok: true, value: false });
    const bad = compile("cel.bind(p, '(a)' + '\\\\1', input.text.matches(p))", { cost_limit: 1_000_000 }).evaluate(vars({ text: 'x' }));
    expect(bad).toMatchObject({ ok: false, failure: { code: 'policy_error' } });
    // A pattern read from the call: a match costs the text's length times the pattern's, the square of the call.
    expect(refused('input.text.matches(input.pattern)').message).toContain('n²');
    // (?i) folds ASCII letters (the linear engine has no case-insensitive mode).
    expect(compile("input.text.matches('(?i)RM -RF')").evaluate(vars({ text: 'sudo rm -rf /' }))).toMatchObject({ ok: true, value: true });
  });

  it('a pattern that backtracks exponentially elsewhere answers on a long text (linear engine)', () => {
    const rule = compile("input.text.matches('^(a+)+$')");
    expect(rule.evaluate(vars({ text: `${'a'.repeat(5000)}b` }))).toMatchObject({ ok: true, value: false });
  });

  it('past its cost limit an evaluation stops as a timeout — also under an || that would absorb the error', () => {
    const rule = compile("input.items.exists(i, i == 'needle')", { cost_limit: 10_000 });
    const items = Array.from({ length: 5000 }, (_, i) => `item-${i}`);
    const result = rule.evaluate(vars({ items }));
    expect(result).toMatchObject({ ok: false, failure: { code: 'timeout' } });
    if (!result.ok) expect(result.failure.message).toContain('cost limit 10000');
    // It stopped there: `exists` holds a body's error and goes on, but past the limit the body ends the loop.
    expect(lastCost()).toBeLessThan(10_000 + 50);
    const absorbed = compile("input.items.exists(i, i == 'needle') || true", { cost_limit: 10_000 });
    expect(absorbed.evaluate(vars({ items }))).toMatchObject({ ok: false, failure: { code: 'timeout' } });
    expect(lastCost()).toBeLessThan(10_000 + 50);
    const all = compile("input.items.all(i, i != 'needle')", { cost_limit: 10_000 });
    expect(all.evaluate(vars({ items }))).toMatchObject({ ok: false, failure: { code: 'timeout' } });
    expect(lastCost()).toBeLessThan(10_000 + 50);
    expect(rule.evaluate(vars({ items: ['needle'] }))).toMatchObject({ ok: true, value: true });
  });

  it('hostile calls stop at the default cost limit: a huge string, a deep value compared whole, a match on a long text', () => {
    const huge = 'a'.repeat(1_100_000);
    expect(compile("input.text.contains('needle')").evaluate(vars({ text: huge }))).toMatchObject({ ok: false, failure: { code: 'timeout' } });
    expect(compile("(input.text + input.text).size() > 3").evaluate(vars({ text: huge }))).toMatchObject({ ok: false, failure: { code: 'timeout' } });
    // Nested comprehensions (the inner one over a literal: linear in the call) stop inside the inner loop.
    const nested = compile("input.items.exists(i, ['a', 'b', 'c', 'd'].exists(j, i + j == 'zz'))");
    expect(nested.evaluate(vars({ items: Array.from({ length: 200_000 }, (_, i) => `item-${i}`) }))).toMatchObject({ ok: false, failure: { code: 'timeout' } });
    expect(lastCost()).toBeLessThan(DEFAULT_COST_LIMIT + 50);
    // An equality reads all of both sides: a list of many short strings is charged for everything in it.
    const many = Array.from({ length: 400_000 }, () => 'ab');
    expect(compile("input.items == ['x']").evaluate(vars({ items: many }))).toMatchObject({ ok: false, failure: { code: 'timeout' } });
    // A match the engine would run is paid, text × pattern weight, before it starts: refused, never run.
    const exponential = compile("input.text.matches('^(a+)+$')");
    expect(exponential.evaluate(vars({ text: `${'a'.repeat(200_000)}b` }))).toMatchObject({ ok: false, failure: { code: 'timeout' } });
    expect(exponential.evaluate(vars({ text: `${'a'.repeat(2_000)}b` }))).toMatchObject({ ok: true, value: false });
    // A literal every match holds (here `z`), absent, answers without the engine: only the scan is paid.
    const required = compile("input.text.matches('(a|b)+z')");
    expect(required.evaluate(vars({ text: 'ab'.repeat(200_000) }))).toMatchObject({ ok: true, value: false });
    expect(lastCost()).toBeLessThan(50_000);
    expect(required.evaluate(vars({ text: `${'ab'.repeat(200_000)}z`.replace('ab', 'zc') }))).toMatchObject({ ok: false, failure: { code: 'timeout' } });
  });

  it('the estimate bounds what a call is charged (property, random calls)', () => {
    const expressions = [
      "input.items.exists(i, i.contains('z'))",
      'input.items.map(i, i + i).size() > 0',
      "input.items.filter(i, i.startsWith('a')).size() >= 0 && input.text.contains('q')",
      "input.text.split(' ').exists(w, w == 'x') || input.items.all(i, i.size() < 100)",
      "cel.bind(t, input.text + input.text, t.size() > 1 && t.endsWith('z'))",
      "input.text.matches('(?i)a[b-d]+\\\\s*z') || input.items.exists(i, i.matches('^x'))",
      "['q+', '^a.c$'].exists(p, input.text.matches(p))",
    ].map((source) => compile(source, { cost_limit: 1e12 }));
    fc.assert(
      fc.property(fc.record({ items: fc.array(fc.string(), { maxLength: 40 }), text: fc.string({ maxLength: 200 }) }), (input) => {
        const n = JSON.stringify(input).length;
        for (const expression of expressions) {
          const result = expression.evaluate(vars(input));
          if (!result.ok) throw new Error(`${expression.source}: ${result.failure.message}`);
          expect(result.cost).toBeLessThanOrEqual(valueAt(expression.bound, N, n) + 1e-9);
        }
      }),
      { numRuns: 200 },
    );
  });
});
