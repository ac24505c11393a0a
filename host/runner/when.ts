import { FailureCode, type HookFailure } from '../contract/failure.js';
import { preview } from '../contract/preview.js';
import type { HookRequest } from '../contract/request.js';
import type { CallFilter } from './matcher.js';

/**
 * Ask a hook's `when` whether it runs for `request`: `true`, `false`, or the failure the hook then
 * fails with. Whatever the filter does — answers something else, throws — comes back as one of those
 * three, so a broken filter fails its hook (`internal_error`) rather than silently skipping it.
 */
export function askFilter(filter: CallFilter, request: HookRequest): boolean | HookFailure {
  let verdict: unknown;
  try {
    verdict = filter.test(request);
  } catch (error) {
    return { code: 'internal_error', message: `the hook's when (${preview(filter.source, 120)}) threw: ${preview(error instanceof Error ? `${error.name}: ${error.message}` : error, 300)}` };
  }
  if (verdict === true || verdict === false) return verdict;
  if (verdict !== null && typeof verdict === 'object') {
    const { code, message } = verdict as { code?: unknown; message?: unknown };
    const known = FailureCode.safeParse(code);
    if (known.success && typeof message === 'string') return { code: known.data, message };
  }
  return { code: 'internal_error', message: `the hook's when (${preview(filter.source, 120)}) answered ${preview(verdict, 120)}, not true, false or a failure` };
}
