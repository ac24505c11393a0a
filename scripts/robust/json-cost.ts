/**
 * What the JSON limits cost: the text scan in front of JSON.parse (hook answers), and the iterative
 * walker that replaced z.json() (calls, answers as values), on small and large realistic JSON.
 * Medians of interleaved runs. `npx tsx scripts/robust/json-cost.ts`.
 */
import { z } from 'zod';
import { scanJsonText } from '../../host/codec/json-text.js';
import { decodeResponse } from '../../host/codec/wire.js';
import { checkJsonValue } from '../../host/contract/json-walk.js';
import { JSON_LIMITS } from '../../host/contract/limits.js';
import { HookCall } from '../../host/contract/call.js';

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1] ?? NaN;
}

/** Median µs per call of each function, measured in interleaved batches. */
function compare(fns: Record<string, () => unknown>, batch: number, rounds = 31): Record<string, number> {
  const times: Record<string, number[]> = Object.fromEntries(Object.keys(fns).map((k) => [k, []]));
  for (const fn of Object.values(fns)) for (let i = 0; i < batch; i++) fn(); // warm up
  for (let r = 0; r < rounds; r++) {
    for (const [name, fn] of Object.entries(fns)) {
      const t = performance.now();
      for (let i = 0; i < batch; i++) fn();
      times[name]?.push(((performance.now() - t) * 1000) / batch);
    }
  }
  return Object.fromEntries(Object.entries(times).map(([k, v]) => [k, median(v)]));
}

function fileList(n: number): unknown {
  return { files: Array.from({ length: n }, (_, i) => ({ path: `src/module-${i}/index.ts`, size: i * 37, mode: '0644', tags: ['ts', i % 2 === 0 ? 'even' : 'odd'], meta: { owner: 'dev', mtime: 1700000000 + i } })) };
}

const answers = {
  'allow (20 B)': '{"decision":"allow"}',
  'modify, small input (60 B)': '{"decision":"modify","input":{"command":"git push"},"reason":"dropped --force"}',
  'replace, 64 KiB output': JSON.stringify({ decision: 'replace', output: fileList(440), reason: 'trimmed' }),
  'replace, 1 MiB output': JSON.stringify({ decision: 'replace', output: fileList(7000), reason: 'trimmed' }),
};

const oldJson = z.json();
const rules = { maxDepth: JSON_LIMITS.max_depth + 1, rejectDuplicateKeys: true };
console.log(`node ${process.version}\n`);
console.log('hook answers (text): µs per answer, median');
console.log('| answer | JSON.parse | scan (depth + duplicate keys) | decodeResponse (scan, parse, schema) |');
console.log('| --- | --- | --- | --- |');
for (const [name, text] of Object.entries(answers)) {
  const batch = text.length > 100_000 ? 5 : text.length > 10_000 ? 50 : 5000;
  const r = compare({ parse: () => JSON.parse(text), scan: () => scanJsonText(text, rules), decode: () => decodeResponse(text) }, batch);
  console.log(`| ${name} | ${r.parse?.toFixed(2)} | ${r.scan?.toFixed(2)} | ${r.decode?.toFixed(2)} |`);
}

const values = {
  'input {command} (small)': { command: 'ls -la /tmp', cwd: '/repo' },
  '64 KiB value': fileList(440),
  '1 MiB value': fileList(7000),
};
console.log('\ntool values (JS): µs per value, median');
console.log('| value | z.json() (before) | checkJsonValue (walk + copy) | walk only |');
console.log('| --- | --- | --- | --- |');
for (const [name, value] of Object.entries(values)) {
  const size = JSON.stringify(value).length;
  const batch = size > 100_000 ? 5 : size > 10_000 ? 50 : 5000;
  const r = compare({ zod: () => oldJson.safeParse(value), walk: () => checkJsonValue(value), nocopy: () => checkJsonValue(value, { copy: false }) }, batch);
  console.log(`| ${name} | ${r.zod?.toFixed(2)} | ${r.walk?.toFixed(2)} | ${r.nocopy?.toFixed(2)} |`);
}

const call = { event: 'pre_tool_use', workspace: '/repo', agent_id: 'agent-1', tool_call_id: 'call-1', tool_name: 'shell', input: { command: 'git push --force', cwd: '/repo' } };
const r = compare({ call: () => HookCall.safeParse(call) }, 5000);
console.log(`\nHookCall.safeParse of a typical call: ${r.call?.toFixed(2)} µs`);
