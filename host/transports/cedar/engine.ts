/**
 * The Cedar engine: the official `@cedar-policy/cedar-wasm` package (the Rust implementation built to
 * WebAssembly), an optional peer dependency loaded on first use — a config without Cedar hooks never
 * loads it, and without the package a Cedar hook fails to load with the command that installs it.
 *
 * Only the functions used here are typed, structurally: the package is optional, so no declaration
 * of ours names its types. What comes back across its boundary is checked (answer.ts).
 */
import { importOptional, installCommand } from '../../errors/package-missing-error.js';

/** Cedar's own diagnostic: the message, a hint, and where in the text it points. */
export interface CedarDiagnostic {
  readonly message: string;
  readonly help?: string | null | undefined;
  readonly sourceLocations?: ReadonlyArray<{ readonly start: number; readonly end: number; readonly label?: string | null | undefined }> | undefined;
}

/** A Cedar policy set: policy id → policy text. */
export type CedarPolicies = { readonly staticPolicies: Readonly<Record<string, string>> };

export type CheckAnswer = { readonly type: 'success' } | { readonly type: 'failure'; readonly errors: readonly CedarDiagnostic[] };

/** An entity uid in Cedar's JSON form. */
export interface CedarUid {
  readonly type: string;
  readonly id: string;
}

/** An entity in Cedar's JSON form. */
export interface CedarEntity {
  readonly uid: CedarUid;
  readonly attrs: Readonly<Record<string, unknown>>;
  readonly parents: readonly CedarUid[];
  readonly tags?: Readonly<Record<string, unknown>>;
}

/** The functions of `@cedar-policy/cedar-wasm` this transport calls. */
export interface CedarEngine {
  getCedarVersion(): string;
  policySetTextToParts(text: string): { readonly type: 'success'; readonly policies: readonly string[]; readonly policy_templates: readonly string[] } | { readonly type: 'failure'; readonly errors: readonly CedarDiagnostic[] };
  policyToJson(policy: string):
    | { readonly type: 'success'; readonly json: { readonly effect: string; readonly annotations?: Readonly<Record<string, string | null>>; readonly principal?: unknown; readonly action?: unknown; readonly resource?: unknown } }
    | { readonly type: 'failure'; readonly errors: readonly CedarDiagnostic[] };
  checkParseSchema(schema: unknown): CheckAnswer;
  checkParseEntities(call: { readonly entities: readonly unknown[]; readonly schema?: unknown }): CheckAnswer;
  schemaToJson(schema: unknown): { readonly type: 'success'; readonly json: Readonly<Record<string, { readonly actions?: Readonly<Record<string, { readonly memberOf?: readonly { readonly id: string; readonly type?: string }[] }>> }>> } | { readonly type: 'failure'; readonly errors: readonly CedarDiagnostic[] };
  validate(call: { readonly schema: unknown; readonly policies: CedarPolicies; readonly validationSettings?: { readonly mode: 'strict' } }):
    | { readonly type: 'success'; readonly validationErrors: ReadonlyArray<{ readonly policyId: string; readonly error: CedarDiagnostic }>; readonly validationWarnings: ReadonlyArray<{ readonly policyId: string; readonly error: CedarDiagnostic }> }
    | { readonly type: 'failure'; readonly errors: readonly CedarDiagnostic[] };
  preparsePolicySet(id: string, policies: CedarPolicies): CheckAnswer;
  preparseSchema(name: string, schema: unknown): CheckAnswer;
  statefulIsAuthorized(call: {
    readonly principal: CedarUid;
    readonly action: CedarUid;
    readonly resource: CedarUid;
    readonly context: Readonly<Record<string, unknown>>;
    readonly preparsedPolicySetId: string;
    readonly preparsedSchemaName?: string;
    readonly validateRequest?: boolean;
    readonly entities: readonly CedarEntity[];
  }): unknown;
}

/** The package the engine is. */
export const CEDAR_PACKAGE = '@cedar-policy/cedar-wasm';

let engine: Promise<CedarEngine> | undefined;

function checked(module: unknown): CedarEngine {
  const candidate = ((module as { default?: unknown }).default ?? module) as Partial<CedarEngine>;
  if (typeof candidate.statefulIsAuthorized !== 'function' || typeof candidate.preparsePolicySet !== 'function') {
    throw new Error(`${CEDAR_PACKAGE} has no statefulIsAuthorized/preparsePolicySet: install a version this release supports (${installCommand(CEDAR_PACKAGE)})`);
  }
  return candidate as CedarEngine;
}

/**
 * Load the Cedar engine once per process (its Node build compiles a 4 MB WebAssembly module
 * synchronously when imported: tens of ms). Rejects with a `PackageMissingError` naming the install
 * command when the package is not installed (tested where it is not: test/cli/install.test.ts).
 */
export function loadCedarEngine(): Promise<CedarEngine> {
  engine ??= importOptional(CEDAR_PACKAGE, () => import('@cedar-policy/cedar-wasm/nodejs')).then(checked, (error: unknown) => {
    engine = undefined;
    throw error;
  });
  return engine;
}
