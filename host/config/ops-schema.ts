import * as z from 'zod';
import { HookEvent } from '../contract/event.js';
import { HookMode } from '../contract/mode.js';

/*
 * The config keys of the operations features — pinning, shadow mode, the chain budget and the audit
 * stream — kept apart from schema.ts, which spreads them in, so each reads as one concept.
 */

/** A sha256 digest as 64 hex digits (either case; compared case-insensitively). */
export const Sha256 = z
  .string()
  .regex(/^[0-9a-fA-F]{64}$/, 'must be a sha256 digest: 64 hexadecimal digits')
  .describe(
    'Pin: the sha256 of the hook\'s own code: the component file; a command\'s pin_files, else the script its interpreter runs (the first later argument naming an existing file), else the program itself. Several files: the sha256 of their digests, one hex line each. A mismatch, or a pin that would cover no file of the hook\'s own, fails the hook to load (load_failed). `basis-hooks pin` writes it (docs/operations.md, "Pinned hooks").',
  );

/** Keys every hook has (spread into the common keys of schema.ts). */
export const opsHookKeys = {
  sha256: Sha256.optional(),
  mode: HookMode.optional().describe(
    'enforce (default): the hook\'s decisions take effect. shadow: it runs and its decision is recorded (trail, audit stream, marked shadow) but never changes the outcome, and its failures never deny.',
  ),
};

/** The whole chain's deadline per event. */
export const BudgetConfig = z
  .strictObject(
    Object.fromEntries(
      HookEvent.options.map((event) => [event, z.int().positive().max(2 ** 31 - 1).optional().describe(`Deadline in ms for the whole ${event} chain.`)]),
    ) as Record<HookEvent, z.ZodOptional<z.ZodInt>>,
  )
  .describe(
    'The whole chain\'s deadline per event, in ms. Each hook gets min(its timeout_ms, what is left); a hook whose turn comes after the budget is spent fails budget_exhausted under its own on_failure.',
  );
export type BudgetConfig = z.infer<typeof BudgetConfig>;

/** Top-level keys (spread into the config object of schema.ts). */
export const opsConfigKeys = {
  budget_ms: BudgetConfig.optional(),
  audit: z
    .string()
    .min(1)
    .optional()
    .describe('Append the audit stream (JSON lines, audit_schema 1) to this file, relative to the config file.'),
  audit_payloads: z
    .boolean()
    .optional()
    .describe('Copy tool inputs and outputs into the audit stream (default false: they can hold secrets).'),
  telemetry_payloads: z
    .boolean()
    .optional()
    .describe(
      'Record tool inputs and outputs on the OpenTelemetry chain spans (gen_ai.tool.call.arguments / .result), as the chain left them (after every modify and replace), hook failure messages and reasons (default false: they can hold secrets).',
    ),
  telemetry_reasons: z
    .boolean()
    .optional()
    .describe(
      "Record the hooks' reasons (why a hook denied or rewrote) on the OpenTelemetry spans, without inputs and outputs (default false: a hook may quote a secret it found in its reason). Implied by telemetry_payloads.",
    ),
};

/**
 * A shell command string has no single script file to pin: refuse `sha256` on one rather than pin
 * something that is not what runs; nor has a CEL hook (its rules are in the config). Runs on the whole config (even when other parts are invalid, so
 * one pass reports every problem): the value may be anything, and is read defensively.
 */
export function checkPinnableCommands(config: unknown, ctx: z.RefinementCtx): void {
  const hooks: unknown = (config as { hooks?: unknown } | null)?.hooks;
  if (!Array.isArray(hooks)) return;
  hooks.forEach((hook: unknown, index) => {
    const { command, sha256, pin_files, cel } = (hook ?? {}) as { command?: unknown; sha256?: unknown; pin_files?: unknown; cel?: unknown };
    if (cel !== undefined && sha256 !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['hooks', index, 'sha256'],
        message: 'a CEL hook\'s rules are in the config itself: there is no file to pin (pin the config file instead)',
        input: sha256,
      });
    }
    if (typeof command === 'string' && sha256 !== undefined && pin_files === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['hooks', index, 'sha256'],
        message: 'a shell command string has no single script file to pin; give the command as an argv array (["sh", "hooks/x.sh"]) or list its files in "pin_files"',
        input: sha256,
      });
    }
  });
}
