/**
 * The runaway guests of test/fixtures/hostile/ (tool "run" runs away, any other tool is answered at
 * once): the table of issue 8, one that spends its time waiting in the host, and one that spends it in
 * host calls the glue lifts lists for (issue 20). The acceptance tests
 * (test/engine/runaway-*.test.ts) and `scripts/bench/limits.ts` both run this list.
 */
export interface Runaway {
  readonly guest: string;
  readonly what: string;
}

/** The runaways of issue 8's table (and one that spends its time in the host). */
export const RUNAWAYS: readonly Runaway[] = [
  { guest: 'pointer-chase', what: 'a pointer chase over 60 MiB, one dependent cache miss per load' },
  { guest: 'grow-zero', what: '`memory.grow 0` in a loop' },
  { guest: 'grow-zero-4', what: 'the memory.grow 0 loop spread over 4 core modules' },
  { guest: 'spin-101', what: '101 core modules each spinning ~90% of a slice, in turn' },
  { guest: 'recursion', what: 'recursion 5,000 deep, repeated' },
  { guest: 'table-ops', what: 'empty table.* operations in a loop' },
  { guest: 'grow-at-cap', what: '`memory.grow 1` up to the cap and on' },
  { guest: 'loop-br', what: 'a plain `loop br`' },
  { guest: 'call-indirect', what: '`call_indirect` in a loop' },
  { guest: 'sleeper', what: 'waits on a clock, one after another (host time)' },
  { guest: 'poll-loop', what: '`poll` of 1,024 borrows, the most a call may pass, again and again (host calls)' },
];
