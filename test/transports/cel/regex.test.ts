/**
 * `matches` on V8's linear-time engine without touching the process's own regular expressions: the
 * engine's flag is on only while a pattern is compiled (a host regular expression answers the same,
 * and the `l` flag is refused, before and after CEL policies load and run); the fast paths read from a
 * pattern's shape (a literal answered with includes/startsWith/endsWith, a literal every match holds
 * looked for first, captures dropped, `(?i)` folded into the pattern) answer exactly as the plain
 * linear `RegExp` of the pattern does (properties over generated patterns and texts); a pattern's
 * weight stays within the bound the cost model assumes for a pattern known only when the call runs.
 */
import { syncBuiltinESMExports } from 'node:module';
import v8 from 'node:v8';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { celTransport, HookRunner } from '../../../host/index.js';
import { MAX_WEIGHT_PER_CHAR } from '../../../host/transports/cel/cost.js';
import { compilePattern, linearRegExp } from '../../../host/transports/cel/regex.js';

// Observed, not replaced: every V8 flag set from here on goes through to V8 and is recorded. (The
// suite's workers share modules between files, so node:v8's export is rewrapped in place rather than
// mocked: a module imported earlier sees the wrapper too.)
const flagsSet: string[] = [];
const setFlags = v8.setFlagsFromString;
v8.setFlagsFromString = (flags: string): void => {
  flagsSet.push(flags);
  setFlags(flags);
};
syncBuiltinESMExports();
afterAll(() => {
  v8.setFlagsFromString = setFlags;
  syncBuiltinESMExports();
});

function linearFlagAccepted(): boolean {
  try {
    new RegExp('', 'l');
    return true;
  } catch {
    return false;
  }
}

/** What a set of the host's own regular expressions answer (captures, indices, lastIndex included). */
function hostAnswers(): unknown[] {
  const sticky = /a+/gy;
  const answers: unknown[] = [
    /(a|ab)(c|bcd)(d*)/.exec('abcd'),
    /(?:(a)|b)+/.exec('ab'),
    'x-1 y-22 z-333'.match(/(\w)-(\d+)/g),
    [...'k1=v1;k2=v2'.matchAll(/(\w+)=(\w+)/g)].map((m) => [m.index, ...m]),
    sticky.exec('aab'),
    sticky.lastIndex,
    /(?<year>\d{4})-(?<month>\d\d)/.exec('on 2026-12-03')?.groups,
    /^\p{Lu}/u.test('Éa'),
    /(?<=\$)\d+/.exec('cost $42')?.[0],
    /(a)\1/.test('aa'),
    'A-b-C'.replace(/[a-z]/gi, (c) => c.toLowerCase() === c ? c.toUpperCase() : c.toLowerCase()),
    // Backtracks well past V8's 50,000-backtrack fallback threshold on the backtracking engine.
    /^(a|aa)+$/.test(`${'a'.repeat(24)}b`),
  ];
  return JSON.parse(JSON.stringify(answers)) as unknown[];
}

describe('the process is unaffected', () => {
  it('a host regular expression answers the same before and after CEL policies load and run; the l flag stays refused', async () => {
    expect(linearFlagAccepted()).toBe(false);
    const before = hostAnswers();
    const runner = new HookRunner([
      {
        name: 'cel',
        event: 'pre_tool_use',
        transport: celTransport({
          rules: [
            { when: "input.command.matches('rm\\\\s+-(rf|fr)')", decision: 'deny', reason: 'no rm -rf' },
            { when: "['^git push', '(?i)DROP TABLE'].exists(p, input.command.matches(p))", decision: 'deny', reason: 'no' },
            { when: "input.command.matches('^(a|aa)+$')", decision: 'deny', reason: 'a' },
          ],
        }),
      },
    ]);
    const call = (command: string) => runner.pre({ workspace: '/w', agent_id: 'a', tool_call_id: 'c', tool_name: 'shell', input: JSON.stringify({ command }) });
    const first = await call('sudo rm  -fr /');
    expect(first, JSON.stringify(first)).toMatchObject({ decision: 'deny', reason: 'no rm -rf' });
    expect(await call('psql -c "drop table x"')).toMatchObject({ decision: 'deny', reason: 'no' });
    expect(await call(`${'a'.repeat(5000)}b`)).toMatchObject({ decision: 'allow' });
    expect(await call('ls')).toMatchObject({ decision: 'allow' });
    expect(hostAnswers()).toEqual(before);
    expect(linearFlagAccepted()).toBe(false);
    // Only ever the linear engine's own flag, each time put back at once; never the process-wide
    // fallback to it for regular expressions that backtrack too much.
    expect(flagsSet.length).toBeGreaterThan(0);
    expect(flagsSet.every((flag, i) => flag === (i % 2 === 0 ? '--enable-experimental-regexp-engine' : '--no-enable-experimental-regexp-engine'))).toBe(true);
    expect(flagsSet.length % 2).toBe(0);
  });

  it('a linear RegExp made while the flag was on keeps running on the linear engine after it is off', () => {
    const regex = linearRegExp('^(a+)+$', '');
    expect(linearFlagAccepted()).toBe(false);
    expect(regex.flags).toContain('l');
    expect(regex.test(`${'a'.repeat(100_000)}b`)).toBe(false);
    expect(regex.test('aaa')).toBe(true);
  });

  it('a pattern the linear engine cannot run is refused, naming the pattern', () => {
    for (const pattern of ['(a)\\1', '(?=a)b', '(?<!x)y', 'a{17}', '(?:a{4}){5}']) {
      const compiled = compilePattern(pattern);
      expect(compiled.ok).toBe(false);
      if (!compiled.ok) expect(compiled.why).toContain(JSON.stringify(pattern));
    }
  });
});

// Generated patterns: JavaScript syntax within what the linear engine runs (anything it refuses is skipped).
const char = fc.constantFrom('a', 'b', 'c', 'A', '-', '/', ' ', 'x');
const atom: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: char },
  { weight: 1, arbitrary: fc.constantFrom('\\.', '\\*', '\\-', '\\/', '\\n', '\\t', '\\x41', '\\u0062') },
  { weight: 2, arbitrary: fc.constantFrom('.', '\\s', '\\S', '\\d', '\\w', '\\W', '\\b', '[ab]', '[^a]', '[a-c]', '[A-Z-]', '[\\s\\S]', '[^\\w/]', '[x\\-]', '[X-c]', '[\\x41-\\x43]', '[+-b]', '[a-]', '[-a]', '[^-B]', '[\\u0061-c]', '[/-\\-a]') },
  { weight: 1, arbitrary: fc.constantFrom('^', '$') },
);
const quantifier = fc.constantFrom('', '', '', '*', '+', '?', '{2}', '{1,3}', '{0,2}', '{2,}', '*?', '+?');
const pattern: fc.Arbitrary<string> = fc.letrec<{ seq: string; group: string; alt: string }>((tie) => ({
  seq: fc.array(fc.tuple(fc.oneof({ weight: 5, arbitrary: atom }, { weight: 1, arbitrary: tie('group') }), quantifier).map(([a, q]) => (['^', '$', '\\b'].includes(a) ? a : a + q)), { maxLength: 6 }).map((parts) => parts.join('')),
  group: fc.tuple(fc.constantFrom('(', '(?:', '(?<g>'), tie('alt')).map(([open, inner]) => `${open}${inner})`),
  alt: fc.array(tie('seq'), { minLength: 1, maxLength: 3 }).map((parts) => parts.join('|')),
})).alt.filter((p) => !p.includes('(?<g>') || p.indexOf('(?<g>') === p.lastIndexOf('(?<g>'));
const text = fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'A', 'B', '-', '/', ' ', 'x', '\n', '.', '*', '1'), maxLength: 24 });

/** The plain result: the pattern as written, on the linear engine, with its captures; undefined if it cannot run. */
function plain(source: string, flags: string): RegExp | undefined {
  try {
    return linearRegExp(source, flags);
  } catch {
    return undefined;
  }
}

describe('the fast paths answer as the plain linear RegExp (properties)', () => {
  it('literal shortcuts, the required-literal prefilter and captureless compilation', () => {
    fc.assert(
      fc.property(pattern, fc.array(text, { minLength: 1, maxLength: 6 }), fc.constantFrom('', 's', 'm'), (source, texts, flag) => {
        const reference = plain(source, flag);
        const compiled = compilePattern(flag === '' ? source : `(?${flag})${source}`);
        if (reference === undefined) {
          expect(compiled.ok).toBe(false);
          return;
        }
        if (!compiled.ok) throw new Error(`${source}: ${compiled.why}`);
        for (const t of texts) {
          const expected = reference.test(t);
          expect(compiled.pattern.test(t), `${source} on ${JSON.stringify(t)}`).toBe(expected);
          expect(compiled.pattern.engine(t)).toBe(expected);
          const quick = compiled.pattern.quick(t);
          if (quick !== undefined) expect(quick).toBe(expected);
        }
      }),
      { numRuns: 1500 },
    );
  });

  it('plain literals, anchored or not, answer without the engine on every text', () => {
    const literal = fc.string({ unit: fc.constantFrom('a', 'b', '-', ' ', '/'), maxLength: 5 });
    fc.assert(
      fc.property(literal, fc.constantFrom('', '^', '$', '^$'), fc.array(fc.string({ unit: fc.constantFrom('a', 'b', '-', ' ', '/'), maxLength: 10 }), { maxLength: 6 }), (body, anchors, texts) => {
        const source = `${anchors.startsWith('^') ? '^' : ''}${body}${anchors.endsWith('$') ? '$' : ''}`;
        const compiled = compilePattern(source);
        if (!compiled.ok) throw new Error(compiled.why);
        const reference = linearRegExp(source, '');
        for (const t of [...texts, body, `x${body}`, `${body}x`]) {
          expect(compiled.pattern.quick(t)).toBe(reference.test(t));
        }
      }),
      { numRuns: 500 },
    );
  });

  it('(?i) folds ASCII letters: as JavaScript\'s own case-insensitive match on ASCII text', () => {
    fc.assert(
      fc.property(pattern, fc.array(text, { minLength: 1, maxLength: 6 }), (source, texts) => {
        const reference = plain(source, '');
        if (reference === undefined) return;
        const compiled = compilePattern(`(?i)${source}`);
        if (!compiled.ok) throw new Error(`${source}: ${compiled.why}`);
        const insensitive = new RegExp(source, 'i');
        for (const t of texts) expect(compiled.pattern.test(t), `(?i)${source} on ${JSON.stringify(t)}`).toBe(insensitive.test(t));
      }),
      { numRuns: 1000 },
    );
  });
});

describe('a pattern\'s weight', () => {
  const heavy = fc.oneof(pattern, fc.constantFrom('\\S{16}', '[\\S\\W\\s\\w\\D\\d]{0,16}', '(?:\\S|\\S|\\S){0,16}', '(?:\\S\\S\\S\\S\\S\\S\\S\\S\\S\\S){0,16}', '(?:(?:\\S+)+)+', '(?:\\S*){0,16}', '((((\\S+)+)+)+)', '(?:[^\\S]){16}', '.{16}', '(?:||||||){16}'));
  it('is at most MAX_WEIGHT_PER_CHAR per character of the pattern (and one more), and at least its length', () => {
    fc.assert(
      fc.property(heavy, fc.constantFrom('', '(?i)', '(?s)'), (source, prefix) => {
        const compiled = compilePattern(prefix + source);
        if (!compiled.ok) return;
        expect(compiled.pattern.weight).toBeLessThanOrEqual(MAX_WEIGHT_PER_CHAR * ((prefix + source).length + 1));
        expect(compiled.pattern.weight).toBeGreaterThanOrEqual(source.length);
      }),
      { numRuns: 2000 },
    );
  });
});
