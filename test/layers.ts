/**
 * The test suite in layers: every `*.test.ts` file under `test/` is listed in exactly one of them
 * (test/layers.test.ts fails otherwise), and vitest.config.ts makes a vitest project of each.
 * Files stay where they are (the folder says what a file tests; this says what it costs to run).
 *
 * - `unit`: the library in the test's own process, nothing else: no child process, no worker thread,
 *   no built guest (a `.wasm` under guest-examples/<lang>/build/), no toolchain, and not the built
 *   `dist/` (the unit layer is not preceded by `npm run build`, so that an edit costs no rebuild). In-process servers
 *   on loopback sockets are allowed (an HTTP listener, the MCP SDK's in-memory transports). Checked
 *   statically (test/layers.test.ts) and at run time (test/setup/unit-guard.ts makes those calls
 *   throw). `npm run test:unit`, the inner loop: ≤ 30 s.
 * - `integration`: the library in-process with real components: subprocess hooks, guests built by
 *   the real toolchains, worker threads, the kit building guests, fuzzing and properties over them.
 * - `e2e`: the product driven from outside, as a user drives it: the built CLI (`dist/cli/main.js`)
 *   and entries (their exports, their import graphs), the packed package installed into an empty app, the demo and bench scripts, the MCP gateway
 *   between the reference servers and clients, a browser, HAProxy and nginx, the agent clients.
 * - `timed`: files holding a wall-clock bound (a deadline plus a margin, an answer before a
 *   runaway's deadline, "well before the other hook's timeout"), or whose guests must finish real
 *   work within a short deadline (a memory bomb writing its pages, a leaking guest run into its
 *   deadline). They run after every other file, so that no other file competes with them for
 *   the CPU, and a failed test is retried once with its first failure printed
 *   (test/helpers/timed-retry.ts). `TIMED_IN_PAIRS` spin one guest at a time, on one core: two of
 *   them run side by side; `TIMED_ALONE` spin several guests at once, or time a pool or a chain: one
 *   at a time, last. Measured so, the worst runaway ended 7.5 ms past its deadline (the bound is
 *   100 ms); beside the rest of the suite it was 96 ms (and in CI a throw-and-catch runaway of
 *   metered-instrument, then in the suite, took 218 ms).
 *
 * A new test file goes in the cheapest layer it fits; when unsure, list it under `UNIT` and run
 * `npx vitest run --project unit <file>`: the guard names what it started.
 */

/** No process, no worker, no built guest: the inner loop. */
export const UNIT: readonly string[] = [
  'test/api/zod-namespace.test.ts',
  'test/cli/mcp-flags.test.ts',
  'test/cli/project-dirs.test.ts',
  'test/codec/json-text.test.ts',
  'test/config/did-you-mean.test.ts',
  'test/config/json-schema.test.ts',
  'test/config/load.test.ts',
  'test/config/options.test.ts',
  'test/config/parse.test.ts',
  'test/config/resolve.test.ts',
  'test/conformance/cedar.test.ts',
  'test/conformance/cel.test.ts',
  'test/conformance/in-process.test.ts',
  'test/conformance/policies-in-process.test.ts',
  'test/contract/json-walk.test.ts',
  'test/docs/performance-blocks.test.ts',
  'test/docs/shipped-docs.test.ts',
  'test/engine/layering.test.ts',
  'test/guests/c-prebuilt.test.ts',
  'test/guests/catalog.test.ts',
  'test/integrations/agents/dialects.test.ts',
  'test/integrations/agents/install-merge.test.ts',
  'test/integrations/agents/tool-names.test.ts',
  'test/integrations/check-input.test.ts',
  'test/integrations/claude-code/http-hostile.test.ts',
  'test/integrations/mcp/fast-read.test.ts',
  'test/integrations/mcp/sse.test.ts',
  'test/integrations/mcp/tool-call.test.ts',
  'test/kit/cases.test.ts',
  'test/kit/package-files.test.ts',
  'test/kit/templates.test.ts',
  'test/layers.test.ts',
  'test/ops/policies.test.ts',
  'test/ops/schema.test.ts',
  'test/ops/timeline.test.ts',
  'test/perf/fast-validators.test.ts',
  'test/perf/interceptor-fast.test.ts',
  'test/properties/codec.test.ts',
  'test/runner/close.test.ts',
  'test/runner/validation.test.ts',
  'test/runner/when.test.ts',
  'test/telemetry/clock.test.ts',
  'test/telemetry/execute-tool.test.ts',
  'test/telemetry/otlp-receiver.test.ts',
  'test/telemetry/propagation.test.ts',
  'test/transports/cedar/head.test.ts',
  'test/transports/cedar/json-position.test.ts',
  'test/transports/cedar/preparsed.test.ts',
  'test/transports/cedar/scope.test.ts',
  'test/transports/cedar/slice.test.ts',
  'test/transports/cedar/transport.test.ts',
  'test/transports/cel/compile.test.ts',
  'test/transports/cel/guard.test.ts',
  'test/transports/cel/regex.test.ts',
  'test/transports/cel/transport.test.ts',
  'test/transports/component/wit-codec.test.ts',
  'test/transports/component/result-bytes.test.ts',
];

/** In-process, with real subprocess hooks, guests, worker threads or toolchains. */
export const INTEGRATION: readonly string[] = [
  'test/bench/extism-guard.test.ts',
  'test/config/command-files.test.ts',
  'test/config/policies.test.ts',
  'test/config/runner.test.ts',
  'test/config/tools.test.ts',
  'test/conformance/component-assemblyscript.test.ts',
  'test/conformance/component-c.test.ts',
  'test/conformance/component-js-quickjs.test.ts',
  'test/conformance/component-js.test.ts',
  'test/conformance/component-metered.test.ts',
  'test/conformance/component-rust.test.ts',
  'test/conformance/component-wat.test.ts',
  'test/conformance/subprocess.test.ts',
  'test/docs/readme-example.test.ts',
  'test/engine/binary.test.ts',
  'test/engine/cache.test.ts',
  'test/engine/call-path.test.ts',
  'test/engine/file-grants.test.ts',
  'test/engine/glue-patch.test.ts',
  'test/engine/imports.test.ts',
  'test/engine/metered-cache.test.ts',
  'test/engine/metered-fuel.test.ts',
  'test/engine/sandbox.test.ts',
  'test/engine/stdio.test.ts',
  'test/engine/tenant-reset.test.ts',
  'test/engine/tenant-state.test.ts',
  'test/engine/trap.test.ts',
  'test/engine/utf8.test.ts',
  'test/errors/package-missing.test.ts',
  'test/fuzz/component-bytes.test.ts',
  'test/fuzz/guest-strings.test.ts',
  'test/fuzz/subprocess-stdout.test.ts',
  'test/guests/assemblyscript.test.ts',
  'test/guests/c-builder.test.ts',
  'test/guests/c.test.ts',
  'test/guests/js-glue.test.ts',
  'test/guests/js-quickjs.test.ts',
  'test/guests/js.test.ts',
  'test/guests/prebuilt-fresh.test.ts',
  'test/guests/rust.test.ts',
  'test/guests/wat.test.ts',
  'test/integrations/ai.test.ts',
  'test/integrations/claude-code/settings.test.ts',
  'test/integrations/mcp/gateway-properties.test.ts',
  'test/integrations/openai-agents.test.ts',
  'test/integrations/package-exports.test.ts',
  'test/kit/assemblyscript.test.ts',
  'test/kit/build-errors.test.ts',
  'test/kit/c.test.ts',
  'test/kit/init.test.ts',
  'test/kit/inspect.test.ts',
  'test/kit/js.test.ts',
  'test/kit/rust.test.ts',
  'test/kit/test-command.test.ts',
  'test/kit/test-logs.test.ts',
  'test/kit/ts.test.ts',
  'test/kit/typescript-versions.test.ts',
  'test/ops/arm.test.ts',
  'test/ops/audit-stream.test.ts',
  'test/ops/pin.test.ts',
  'test/perf/direct-call.test.ts',
  'test/properties/chain-model.test.ts',
  'test/runner/failure-reason.test.ts',
  'test/runner/limits.test.ts',
  'test/runner/signal-listeners.test.ts',
  'test/transports/component/err.test.ts',
  'test/transports/component/load-errors.test.ts',
  'test/transports/component/output.test.ts',
  'test/transports/component/wrong-event.test.ts',
  'test/transports/subprocess/agent-dialects.test.ts',
  'test/transports/subprocess/busy-host.test.ts',
  'test/transports/subprocess/claude-code-dialect.test.ts',
  'test/transports/subprocess/command-forms.test.ts',
  'test/transports/subprocess/cwd.test.ts',
  'test/transports/subprocess/env.test.ts',
  'test/transports/subprocess/escape.test.ts',
  'test/transports/subprocess/exit-status.test.ts',
  'test/transports/subprocess/options.test.ts',
  'test/transports/subprocess/output-cap.test.ts',
  'test/transports/subprocess/output-decoding.test.ts',
  'test/transports/subprocess/spawn-failure.test.ts',
  'test/transports/subprocess/stderr.test.ts',
  'test/transports/subprocess/stdin.test.ts',
];

/** From outside: the built CLI, the packed package, the scripts, third-party servers, clients, a browser. */
export const E2E: readonly string[] = [
  'test/api/public-surface.test.ts',
  'test/bench/bench-smoke.test.ts',
  'test/cli/check.test.ts',
  'test/cli/component-stdout.test.ts',
  'test/cli/demo.test.ts',
  'test/cli/install.test.ts',
  'test/cli/interrupt.test.ts',
  'test/cli/limits.test.ts',
  'test/cli/package.test.ts',
  'test/cli/policies.test.ts',
  'test/cli/polish.test.ts',
  'test/cli/run.test.ts',
  'test/cli/stdout-and-cleanup.test.ts',
  'test/cli/test-hook-event.test.ts',
  'test/engine/cache-trust.test.ts',
  'test/engine/stdin-exit.test.ts',
  'test/examples/policies.test.ts',
  'test/integrations/agents/client-script.test.ts',
  'test/integrations/agents/server.test.ts',
  'test/integrations/bench-frameworks.test.ts',
  'test/integrations/claude-code/bridge.test.ts',
  'test/integrations/claude-code/http.test.ts',
  'test/integrations/mcp/conformance.test.ts',
  'test/integrations/mcp/eras-input.test.ts',
  'test/integrations/mcp/everything.test.ts',
  'test/integrations/mcp/filesystem.test.ts',
  'test/integrations/mcp/hostile.test.ts',
  'test/integrations/mcp/http-bad-input.test.ts',
  'test/integrations/mcp/http-eras.test.ts',
  'test/integrations/mcp/http-identity.test.ts',
  'test/integrations/mcp/http-matrix.test.ts',
  'test/integrations/mcp/protocol.test.ts',
  'test/integrations/mcp/replicas.test.ts',
  'test/kit/entry-points.test.ts',
  'test/ops/audit-html.test.ts',
  'test/ops/audit-large.test.ts',
  'test/ops/cli.test.ts',
  'test/telemetry/agent-client-trace.test.ts',
  'test/telemetry/boundaries.test.ts',
  'test/telemetry/cli-export.test.ts',
  'test/telemetry/otlp-gateway.test.ts',
  'test/telemetry/secrets.test.ts',
  'test/telemetry/serve-export.test.ts',
];

/** Wall-clock bounds, one guest at a time: two files side by side, after the layers above. */
export const TIMED_IN_PAIRS: readonly string[] = [
  'test/engine/metered-instrument.test.ts',
  'test/engine/metered-local.test.ts',
  'test/engine/runaway-metered.test.ts',
  'test/engine/runaway-worker.test.ts',
  'test/engine/start-function.test.ts',
  'test/engine/start-function-load.test.ts',
  'test/engine/host-calls.test.ts',
  'test/engine/resources.test.ts',
  'test/engine/memory.test.ts',
  'test/engine/metered-trap.test.ts',
  'test/engine/memory-cap.test.ts',
  'test/ops/shadow.test.ts',
  'test/transports/subprocess/abort.test.ts',
  'test/perf/mailbox.test.ts',
  'test/telemetry/runner.test.ts',
];

/** Wall-clock bounds over several guests, a pool or a chain: one file at a time, last. */
export const TIMED_ALONE: readonly string[] = [
  'test/engine/concurrency.test.ts',
  'test/engine/metered-pool.test.ts',
  'test/engine/metered-runaway.test.ts',
  'test/engine/metered-sandbox.test.ts',
  'test/engine/timeout.test.ts',
  'test/engine/signals.test.ts',
  'test/transports/component/hop.test.ts',
  'test/transports/component/caller-poll.test.ts',
  'test/runner/concurrency.test.ts',
  'test/ops/budget.test.ts',
  'test/transports/subprocess/orphans.test.ts',
  'test/transports/subprocess/timeout.test.ts',
];

/** Each layer's files by vitest project name (the timed layer is two projects, `timed-pairs` then `timed`). */
export const LAYERS = {
  unit: UNIT,
  integration: INTEGRATION,
  e2e: E2E,
  'timed-pairs': TIMED_IN_PAIRS,
  timed: TIMED_ALONE,
} as const satisfies Record<string, readonly string[]>;
