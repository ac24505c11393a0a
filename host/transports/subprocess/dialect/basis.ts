import { decodeResponse, encodeRequest } from '../../../codec/wire.js';
import type { Dialect, ProcessExit } from './index.js';

/**
 * The basis hook wire contract: the request JSON on stdin, exactly one response object on stdout.
 * The exit code is only a liveness signal — non-zero (or a signal) has failed whatever it printed —
 * and stdout is decoded by the codec alone (empty is `empty_output`: silence is not consent).
 */
export const basisDialect: Dialect = {
  name: 'basis',
  encode: encodeRequest,
  decide({ exit, stdout, stderr, display }) {
    if (exit.code !== 0) {
      return { ok: false, failure: { code: 'exit_nonzero', message: `hook ${display} ${describeExit(exit)}${stderrExcerpt(stderr)}` } };
    }
    return decodeResponse(stdout);
  },
};

/** "exited with code 3" / "was killed by signal SIGKILL". */
export function describeExit(exit: ProcessExit): string {
  return exit.signal !== null ? `was killed by signal ${exit.signal}` : `exited with code ${String(exit.code)}`;
}

/** The end of stderr, quoted, for a failure message ("" when it said nothing). */
export function stderrExcerpt(text: string): string {
  const trimmed = text.trim();
  if (trimmed === '') return '';
  const tail = trimmed.length > 200 ? `...${trimmed.slice(-197)}` : trimmed;
  return `; stderr: ${JSON.stringify(tail)}`;
}
