let warned = false;

/**
 * Telemetry failed (a tracer or meter threw): reported once per process, on stderr, as a process
 * warning (`BASIS_HOOKS_TELEMETRY`). Never rethrown: what the hooks decide does not depend on it.
 */
export function telemetryFailed(error: unknown): void {
  if (warned) return;
  warned = true;
  const message = error instanceof Error ? error.message : String(error);
  process.emitWarning(`OpenTelemetry recording failed: ${message} (the hooks' decisions are unaffected; later failures are not reported)`, { code: 'BASIS_HOOKS_TELEMETRY' });
}
