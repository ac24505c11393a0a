/**
 * The figures the docs print are generated, never copied by hand: the block of docs/performance.md and
 * the cost column of the README's "where a hook can live" table are exactly what
 * bench/results/latest.json renders to (`npx tsx scripts/bench.ts --from bench/results/latest.json
 * --write-docs` writes both). A unit test: it renders the committed results file.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BenchResultSchema } from '../../scripts/bench/result.js';
import { PERFORMANCE_PAGE, SUMMARY_END, SUMMARY_PAGE, SUMMARY_START, markdownReport, replaceBlock, summaryTable } from '../../scripts/bench/report.js';
import { ROOT } from '../helpers/guests.js';

const latest = BenchResultSchema.parse(JSON.parse(readFileSync(join(ROOT, 'bench/results/latest.json'), 'utf8')));

describe('the generated performance figures', () => {
  it(`${PERFORMANCE_PAGE}'s block is what bench/results/latest.json renders to`, () => {
    const page = readFileSync(join(ROOT, PERFORMANCE_PAGE), 'utf8');
    expect(replaceBlock(page, markdownReport(latest))).toBe(page);
  });

  it("the README's table of where a hook can live is what bench/results/latest.json renders to", () => {
    const readme = readFileSync(join(ROOT, SUMMARY_PAGE), 'utf8');
    expect(replaceBlock(readme, summaryTable(latest), SUMMARY_PAGE, SUMMARY_START, SUMMARY_END)).toBe(readme);
  });

  it('a page without the markers is an error naming it, never a silent skip', () => {
    expect(() => replaceBlock('# no block here\n', 'x', 'docs/x.md')).toThrow(/docs\/x\.md has no <!-- bench:start -->/);
  });
});
