import { describe, expect, it } from 'vitest';
import { actualOf, type Actual } from '../../host/cases/actual.js';
import type { Outcome } from '../../host/contract/outcome.js';
import { comparable, jsonEqual, meets } from '../../host/cases/compare.js';
import { canonicalJson, diffLines } from '../../host/cases/diff.js';
import { parseCases } from '../../host/cases/parse.js';
import { POLICY_CASES_PATH } from '../helpers/policy-cases.js';
import { readFileSync } from 'node:fs';

const pre = { event: 'pre_tool_use', workspace: '/r', agent_id: 'a', tool_call_id: 'c', tool_name: 't', input: { command: 'ls' } };

describe('cases files', () => {
  it('accept guest-examples/policy-cases.jsonl as it is (its "hook" field included)', () => {
    const parsed = parseCases(readFileSync(POLICY_CASES_PATH, 'utf8'), 'policy-cases.jsonl');
    expect(parsed.ok).toBe(true);
    expect(parsed.ok && parsed.cases.map((c) => c.case.hook)).toContain('redact');
  });

  it('skip blank and comment lines, and keep each case\'s line number', () => {
    const text = `# a comment\n\n// another\n${JSON.stringify({ name: 'n', call: pre, expect: { decision: 'allow' } })}\n`;
    const parsed = parseCases(text, 'x.jsonl');
    expect(parsed.ok && parsed.cases.map((c) => c.line)).toEqual([4]);
  });

  it('refuse an empty file and a case with unknown keys', () => {
    expect(parseCases('\n# nothing\n', 'x.jsonl')).toEqual({ ok: false, problems: ['x.jsonl: no cases (one JSON object per line: {"name", "call", "expect"})'] });
    const parsed = parseCases(`${JSON.stringify({ name: 'n', call: pre, expect: { decision: 'deny', reson: 'typo' }, extra: 1 })}\n`, 'x.jsonl');
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.problems).toEqual(['x.jsonl:1: extra: unknown key', 'x.jsonl:1: expect.reson: unknown key']);
  });
});

describe('comparing an answer with an expectation', () => {
  it('compares only the keys the expectation names, JSON values structurally', () => {
    const actual: Actual = { decision: 'modify', input: { b: [1, { c: null }], a: 'x' }, reason: 'why' };
    expect(meets(actual, { decision: 'modify' })).toBe(true);
    expect(meets(actual, { decision: 'modify', input: { a: 'x', b: [1, { c: null }] } })).toBe(true);
    expect(meets(actual, { decision: 'modify', input: { a: 'x', b: [1, { c: 0 }] } })).toBe(false);
    expect(meets(actual, { decision: 'modify', reason: 'other' })).toBe(false);
    expect(meets(actual, { decision: 'allow' })).toBe(false);
    expect(meets(actual, { failure: 'trap' })).toBe(false);
    expect(meets({ failure: 'trap', message: 'boom' }, { failure: 'trap' })).toBe(true);
    expect(meets({ failure: 'trap', message: 'boom' }, { decision: 'allow' })).toBe(false);
  });

  it('shows what was compared when the decision matches, and everything when it does not', () => {
    const actual: Actual = { decision: 'replace', output: 'x', is_error: false, reason: 'r' };
    expect(comparable(actual, { decision: 'replace', reason: 'q' })).toEqual({ decision: 'replace', reason: 'r' });
    expect(comparable(actual, { decision: 'deny' })).toEqual(actual);
  });

  it('JSON equality: arrays in order, objects in any order, no coercion', () => {
    expect(jsonEqual({ a: 1, b: 2 }, { b: 2, a: 1 })).toBe(true);
    expect(jsonEqual([1, 2], [2, 1])).toBe(false);
    expect(jsonEqual(1, '1')).toBe(false);
    expect(jsonEqual({ a: undefined as never }, {})).toBe(false);
  });

  it('reads a failed hook\'s code from the trail, whatever its on_failure policy did', () => {
    const outcome: Outcome = {
      event: 'pre_tool_use',
      tool_call_id: 'c',
      decision: 'allow',
      input: {},
      modified: false,
      trail: [{ hook: 'h', decision: 'allow', failure: { code: 'timeout', message: 'slow' }, policy: 'allow', ms: 1 }],
    };
    expect(actualOf(outcome, 'h')).toEqual({ failure: 'timeout', message: 'slow' });
    expect(actualOf(outcome, 'other')).toBeUndefined();
  });
});

describe('diffs', () => {
  it('a line diff keeps the common lines and marks the rest', () => {
    const expected = canonicalJson({ reason: 'a', decision: 'deny' });
    const actual = canonicalJson({ decision: 'deny', reason: 'b' });
    expect(expected.split('\n')[1]).toBe('  "decision": "deny",');
    expect(diffLines(expected, actual)).toEqual([
      { op: ' ', text: '{' },
      { op: ' ', text: '  "decision": "deny",' },
      { op: '-', text: '  "reason": "a"' },
      { op: '+', text: '  "reason": "b"' },
      { op: ' ', text: '}' },
    ]);
  });
});
