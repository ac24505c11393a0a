/**
 * The official MCP conformance suite (`@modelcontextprotocol/conformance`, its server scenarios)
 * against a URL, with each scenario's result. The package needs Node 22's `fs.globSync` for a report
 * it does not make here; `node20-fs.mjs` gives it one on Node 20 (this project's floor).
 *
 *   npx tsx scripts/conformance/mcp-table.ts     (the table in docs/mcp-gateway.md)
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SUITE = join(ROOT, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
const SHIM = join(ROOT, 'scripts/conformance/node20-fs.mjs');

/** One scenario's checks: how many passed, how many failed. */
export interface ScenarioResult {
  readonly passed: number;
  readonly failed: number;
}

/** Run every server scenario against `url`; resolves with each scenario's result, in the suite's order. */
export async function runConformance(url: string, timeoutMs = 300_000): Promise<Map<string, ScenarioResult>> {
  // The suite writes its results under the working directory: a scratch one.
  const cwd = await mkdtemp(join(tmpdir(), 'basis-conformance-'));
  try {
    const output = await new Promise<string>((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', SHIM, SUITE, 'server', '--url', url], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
      let text = '';
      child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      child.stderr.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`the conformance suite did not finish within ${timeoutMs} ms:\n${text}`));
      }, timeoutMs);
      child.once('close', () => {
        clearTimeout(timer);
        resolve(text);
      });
    });
    const results = new Map<string, ScenarioResult>();
    for (const match of output.matchAll(/^[✓✗] ([\w-]+): (\d+) passed, (\d+) failed$/gm)) {
      results.set(match[1] as string, { passed: Number(match[2]), failed: Number(match[3]) });
    }
    if (results.size === 0) throw new Error(`the conformance suite reported no scenario:\n${output}`);
    return results;
  } finally {
    await rm(cwd, { recursive: true, force: true });
  }
}

/** A scenario passes when it has passing checks and no failing one. */
export function passes(result: ScenarioResult | undefined): boolean {
  return result !== undefined && result.failed === 0 && result.passed > 0;
}
