/**
 * Real hooks for the framework tests: the WAT `guard` and `redact` components (guest-examples/POLICIES.md)
 * and a POSIX sh subprocess hook, each through its real transport.
 */
import { join } from 'node:path';
import { componentTransport, subprocessTransport, type HookDefinition } from '../../host/index.js';
import { ROOT, TEST_CACHE_DIR, ensureGuestsBuilt, guestBuildDir } from '../helpers/guests.js';

export const GUARD_WASM = join(guestBuildDir('wat'), 'guard.wasm');
export const REDACT_WASM = join(guestBuildDir('wat'), 'redact.wasm');
export const NO_RM_SH = join(ROOT, 'test', 'integrations', 'hooks', 'no-rm.sh');

/** Build the two WAT policy guests if this checkout has not built them yet. */
export function ensurePolicyGuests(): Promise<void> {
  return ensureGuestsBuilt('wat', [GUARD_WASM, REDACT_WASM]);
}

/** A 40-character AWS secret the `redact` policy recognises. */
export const AWS_SECRET = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';

/**
 * The chain both frameworks are tested with: the force-push guard (component, pre, `shell` only), the
 * `rm -rf` guard (subprocess, pre, `shell` only) and the secret redactor (component, post, every tool).
 */
export function policyHooks(): HookDefinition[] {
  return [
    { name: 'guard', event: 'pre_tool_use', tools: ['shell'], transport: componentTransport({ path: GUARD_WASM, cache_dir: TEST_CACHE_DIR }) },
    { name: 'no-rm', event: 'pre_tool_use', tools: ['shell'], transport: subprocessTransport({ command: ['sh', NO_RM_SH] }) },
    { name: 'redact', event: 'post_tool_use', transport: componentTransport({ path: REDACT_WASM, cache_dir: TEST_CACHE_DIR }) },
  ];
}

/** What the fake `shell` tool prints for a command: a credential for `cat .env`, else an echo. */
export function shellOutput(command: string): string {
  return command === 'cat .env' ? `AWS_SECRET_ACCESS_KEY=${AWS_SECRET}\n` : `ran: ${command}`;
}
