import { PolicyError, type PolicyProblem } from '../../errors/policy-error.js';
import type { CedarDiagnostic } from './engine.js';

/** 1-based line and column of an offset (UTF-16 units; Cedar counts bytes: see {@link byteToIndex}). */
export function lineColumn(text: string, index: number): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, index)).split('\n');
  return { line: before.length, column: (before.at(-1)?.length ?? 0) + 1 };
}

/** Cedar reports offsets in UTF-8 bytes; the index of that byte in the string. */
export function byteToIndex(text: string, byteOffset: number): number {
  if (byteOffset <= 0) return 0;
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    if (bytes >= byteOffset) return i;
    const code = text.codePointAt(i) ?? 0;
    bytes += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
    if (code >= 0x10000) i++;
  }
  return text.length;
}

/** One diagnostic as `file:line:col: message (help)`, its offsets counted from `base` in `text`. */
export function describeDiagnostic(file: string, text: string | undefined, diagnostic: CedarDiagnostic, base = 0): { text: string; line?: number; column?: number } {
  const help = diagnostic.help === undefined || diagnostic.help === null || diagnostic.help === '' ? '' : ` (${diagnostic.help})`;
  const location = diagnostic.sourceLocations?.[0];
  if (text === undefined || location === undefined) return { text: `${file}: ${diagnostic.message}${help}` };
  const label = location.label === undefined || location.label === null || location.label === '' ? '' : `: ${location.label}`;
  const { line, column } = lineColumn(text, base + byteToIndex(text.slice(base), location.start));
  return { text: `${file}:${line}:${column}: ${diagnostic.message}${label}${help}`, line, column };
}

/** Cedar's diagnostics as one {@link PolicyError}: every one, each on its own line, the first's place as the location. */
export function diagnosticsError(
  problem: PolicyProblem,
  file: string,
  what: string,
  diagnostics: ReadonlyArray<{ readonly text: string; readonly line?: number; readonly column?: number }>,
): PolicyError {
  const [first] = diagnostics;
  const lines = diagnostics.map((d) => `  ${d.text}`).join('\n');
  return new PolicyError(`${file}: ${what}\n${lines}`, {
    problem,
    location: { file, ...(first?.line === undefined ? {} : { line: first.line }), ...(first?.column === undefined ? {} : { column: first.column }) },
  });
}
