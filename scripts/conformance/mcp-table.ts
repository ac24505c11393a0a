/**
 * The conformance table of docs/mcp-gateway.md: the official MCP conformance suite's server
 * scenarios against @modelcontextprotocol/server-everything alone, and through `basis-hooks mcp
 * --listen` fronting it over stdio and over Streamable HTTP (a subprocess pre hook and the C redactor
 * component on every call). After `npm run build && npm run build-guests`:
 *
 *   npx tsx scripts/conformance/mcp-table.ts
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { passes, runConformance, type ScenarioResult } from './suite.js';
import { freePort, startReady } from '../lib/processes.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CLI = join(ROOT, 'dist/cli/main.js');
const EVERYTHING = join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const REDACTOR = join(ROOT, 'guest-examples/c/build/redact.wasm');

const children: ChildProcess[] = [];



async function main(): Promise<void> {
  const scratch = await mkdtemp(join(tmpdir(), 'basis-conformance-table-'));
  try {
    const config = join(scratch, 'hooks.json');
    await writeFile(
      config,
      JSON.stringify({
        hook_schema: 1,
        hooks: [
          { name: 'allow', event: 'pre_tool_use', command: `cat >/dev/null; echo '{"decision":"allow"}'` },
          { name: 'redact', event: 'post_tool_use', component: REDACTOR },
        ],
      }),
    );
    const port = await freePort();
    await startReady(children, [process.execPath, EVERYTHING, 'streamableHttp'], /(listening on port)/, { env: { ...process.env, PORT: String(port) }, timeoutMs: 30_000 });
    const alone = `http://127.0.0.1:${port}/mcp`;
    const viaStdio = await startReady(children, [process.execPath, CLI, 'mcp', '--config', config, '--listen', '127.0.0.1:0', '--', process.execPath, EVERYTHING, 'stdio'], /listening on (http:\/\/\S+)/, { timeoutMs: 30_000 });
    const viaHttp = await startReady(children, [process.execPath, CLI, 'mcp', '--config', config, '--listen', '127.0.0.1:0', '--upstream', alone], /listening on (http:\/\/\S+)/, { timeoutMs: 30_000 });
    const columns: Array<[string, Map<string, ScenarioResult>]> = [
      ['server-everything alone', await runConformance(alone)],
      ['gateway → stdio', await runConformance(viaStdio)],
      ['gateway → HTTP', await runConformance(viaHttp)],
    ];
    const show = (result: ScenarioResult | undefined): string => (result === undefined ? '—' : `${passes(result) ? 'pass' : 'FAIL'} (${result.passed}/${result.passed + result.failed})`);
    const lines = [`| scenario | ${columns.map(([name]) => name).join(' | ')} |`, `| --- | ${columns.map(() => '---').join(' | ')} |`];
    for (const name of columns[0]?.[1].keys() ?? []) lines.push(`| \`${name}\` | ${columns.map(([, results]) => show(results.get(name))).join(' | ')} |`);
    const totals = columns.map(([, results]) => `${[...results.values()].filter(passes).length} / ${results.size}`);
    lines.push(`| **scenarios passed** | ${totals.join(' | ')} |`);
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    for (const child of children) child.kill('SIGTERM');
    await rm(scratch, { recursive: true, force: true });
  }
}

await main();
