import { fileURLToPath } from 'node:url';
import { subprocessTransport } from '../../host/transports/subprocess/index.js';
import { runTransportSuite, type FixtureLimits } from './suite.js';
import type { Behaviour } from './behaviours.js';

const nodeHook = fileURLToPath(new URL('../fixtures/subprocess/conformance-hook.mjs', import.meta.url));
const shHook = fileURLToPath(new URL('../fixtures/subprocess/conformance-hook.sh', import.meta.url));

/** The oversized behaviour prints twice the cap it is told about. */
function limitsEnv(limits: FixtureLimits): Record<string, string> {
  return { BASIS_CONFORMANCE_MAX_OUTPUT_BYTES: String(limits.max_output_bytes) };
}

/**
 * A Node hook starts in ~90 ms on a quiet machine and took over the suite's 750 ms on a loaded one
 * (CI shares 2 cores): only the `hang` vectors are about the timeout, so only they keep it.
 */
const NODE_START_MS = 10_000;

// The argv form: a real Node program, spawned without a shell.
runTransportSuite('subprocess (node, argv form)', {
  crashCode: 'exit_nonzero',
  create: (behaviour: Behaviour, limits: FixtureLimits) =>
    subprocessTransport({
      command: [process.execPath, nodeHook, behaviour],
      timeout_ms: behaviour === 'hang' ? limits.timeout_ms : Math.max(limits.timeout_ms, NODE_START_MS),
      max_output_bytes: limits.max_output_bytes,
      env: limitsEnv(limits),
    }),
});

// The string form: a POSIX sh script run through `sh -c`.
const needsJson = 'the answer embeds part of the request, and POSIX sh has no JSON parser (jq is not assumed)';
runTransportSuite('subprocess (POSIX sh, string form)', {
  crashCode: 'exit_nonzero',
  unsupported: {
    'modify-wrap': needsJson,
    'replace-wrap': needsJson,
    'deny-if-wrapped': needsJson,
    probe: needsJson,
  },
  create: (behaviour: Behaviour, limits: FixtureLimits) =>
    subprocessTransport({
      command: `sh '${shHook.replaceAll("'", "'\\''")}' ${behaviour}`,
      timeout_ms: limits.timeout_ms,
      max_output_bytes: limits.max_output_bytes,
      env: limitsEnv(limits),
    }),
});
