import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { passes, runConformance } from '../../../scripts/conformance/suite.js';
import { ensureGuestsBuilt, guestBuildDir } from '../../helpers/guests.js';
import { EVERYTHING } from '../../helpers/mcp.js';
import { everythingHttp, httpGateway, stopAll } from '../../helpers/mcp-http.js';

/*
 * A peer's test suite: the official @modelcontextprotocol/conformance server scenarios against
 * @modelcontextprotocol/server-everything alone, and against the gateway fronting it over both
 * transports (stdio and Streamable HTTP), with a chain on every call (a subprocess pre hook, the C
 * redactor component as post hook). The gateway must pass every scenario the server passes alone.
 */

let scratch: string;
let config: string;
beforeAll(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'basis-mcp-conformance-'));
  const redactor = path.join(guestBuildDir('c'), 'redact.wasm');
  await ensureGuestsBuilt('c', [redactor]);
  config = path.join(scratch, 'hooks.json');
  await writeFile(
    config,
    JSON.stringify({
      hook_schema: 1,
      hooks: [
        { name: 'allow', event: 'pre_tool_use', command: `cat >/dev/null; echo '{"decision":"allow"}'` },
        { name: 'redact', event: 'post_tool_use', component: redactor },
      ],
    }),
  );
}, 120_000);
afterEach(stopAll);
afterAll(() => rm(scratch, { recursive: true, force: true }));

describe('the MCP conformance suite through the gateway', () => {
  it('passes every server scenario that server-everything passes alone, over both upstream transports', async () => {
    const alone = await everythingHttp();
    const reference = await runConformance(alone.url);
    const overStdio = await runConformance((await httpGateway(config, { server: EVERYTHING })).url);
    const overHttp = await runConformance((await httpGateway(config, { url: alone.url })).url);
    const passedAlone = [...reference].filter(([, result]) => passes(result)).map(([name]) => name);
    expect(passedAlone.length).toBeGreaterThanOrEqual(10);
    for (const name of passedAlone) {
      expect(passes(overStdio.get(name)), `${name} through the gateway to stdio`).toBe(true);
      expect(passes(overHttp.get(name)), `${name} through the gateway to HTTP`).toBe(true);
    }
  }, 600_000);
});
