/**
 * What telemetry may load, and the names it uses:
 * - the library (dist/index.js and the integration entries) imports `@opentelemetry/api` and nothing
 *   else of OpenTelemetry — never an SDK, an exporter or the semantic-conventions package;
 * - the CLI loads the SDK and the exporters only in a lazy chunk, by dynamic import: not one of them
 *   is on a command's start-up path (static imports from the entry);
 * - every semantic-convention name spelled out in telemetry/names.ts is the one the official
 *   `@opentelemetry/semantic-conventions` package defines.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import * as semconv from '@opentelemetry/semantic-conventions/incubating';
import { describe, expect, it } from 'vitest';
import { EXECUTE_TOOL, METRIC, SEMCONV } from '../../host/telemetry/names.js';
import { ROOT } from '../helpers/guests.js';

const OTEL_BEYOND_API = /^@opentelemetry\/(?!api$|api\/)/;

/** Every package specifier reachable from `entry` through relative imports; `dynamic` follows `import()` too. */
function reachable(entry: string, dynamic: boolean): Set<string> {
  const seen = new Set<string>();
  const packages = new Set<string>();
  const pattern = dynamic ? /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"]([^'"]+)['"]/g : /(?:\bfrom\s*|\bimport\s+)['"]([^'"]+)['"]/g;
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const match of readFileSync(file, 'utf8').matchAll(pattern)) {
      const spec = match[1] as string;
      if (spec.startsWith('.')) {
        const target = resolve(dirname(file), spec);
        if (existsSync(target) && target.endsWith('.js')) visit(target);
      } else packages.add(spec);
    }
  };
  visit(entry);
  return packages;
}

describe('what telemetry loads', () => {
  it('the library imports the OpenTelemetry API only: no SDK, exporter or semantic-conventions package', () => {
    for (const entry of ['index.js', 'integrations/mcp/index.js', 'integrations/claude-code/index.js', 'integrations/ai/index.js', 'integrations/openai-agents/index.js']) {
      const file = join(ROOT, 'dist', entry);
      expect(existsSync(file), `${file} missing: run npm run build`).toBe(true);
      const packages = reachable(file, true);
      expect([...packages].filter((p) => OTEL_BEYOND_API.test(p)), entry).toEqual([]);
    }
    expect(reachable(join(ROOT, 'dist', 'index.js'), true).has('@opentelemetry/api')).toBe(true);
  });

  it('the CLI loads the SDK only lazily, when a command exports', () => {
    for (const entry of ['cli/main.js', 'cli/claude-code/main.js']) {
      const file = join(ROOT, 'dist', entry);
      const eager = reachable(file, false);
      expect([...eager].filter((p) => p.startsWith('@opentelemetry/')), entry).toEqual([]);
      const all = reachable(file, true);
      expect(all.has('@opentelemetry/sdk-trace'), entry).toBe(true);
      expect(all.has('@opentelemetry/exporter-trace-otlp-http'), entry).toBe(true);
    }
  });
});

describe('semantic-convention names', () => {
  it('are the official ones', () => {
    const official: Record<keyof typeof SEMCONV, string> = {
      genAiOperationName: semconv.ATTR_GEN_AI_OPERATION_NAME,
      genAiToolName: semconv.ATTR_GEN_AI_TOOL_NAME,
      genAiToolCallId: semconv.ATTR_GEN_AI_TOOL_CALL_ID,
      genAiAgentId: semconv.ATTR_GEN_AI_AGENT_ID,
      genAiToolCallArguments: semconv.ATTR_GEN_AI_TOOL_CALL_ARGUMENTS,
      genAiToolCallResult: semconv.ATTR_GEN_AI_TOOL_CALL_RESULT,
      mcpMethodName: semconv.ATTR_MCP_METHOD_NAME,
      mcpProtocolVersion: semconv.ATTR_MCP_PROTOCOL_VERSION,
      mcpSessionId: semconv.ATTR_MCP_SESSION_ID,
      jsonrpcRequestId: semconv.ATTR_JSONRPC_REQUEST_ID,
      rpcResponseStatusCode: semconv.ATTR_RPC_RESPONSE_STATUS_CODE,
      networkTransport: semconv.ATTR_NETWORK_TRANSPORT,
      errorType: semconv.ATTR_ERROR_TYPE,
    };
    expect(SEMCONV).toEqual(official);
    expect(EXECUTE_TOOL).toBe(semconv.GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL);
    expect(METRIC.mcpServerOperationDuration).toBe(semconv.METRIC_MCP_SERVER_OPERATION_DURATION);
    expect(METRIC.mcpClientOperationDuration).toBe(semconv.METRIC_MCP_CLIENT_OPERATION_DURATION);
  });
});
