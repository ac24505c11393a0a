/** Node's console class (on the global console object; not in the typings of the lib this targets). */
type ConsoleClass = new (options: { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream }) => Console;

/**
 * Keep the CLI's stdout for its output alone. stdout is a protocol channel (`basis-hooks run` prints
 * one outcome per line and nothing else), but a dependency may log through `console` — jco, for one,
 * logs every step of its own wasm tools with `console.debug` when `JCO_DEBUG` is set. From here on
 * `console.log/info/debug/dir/table` write to stderr; the CLI writes its output with
 * `process.stdout.write` directly.
 */
export function guardStdout(): void {
  const ConsoleToStderr = (console as unknown as { Console: ConsoleClass }).Console;
  globalThis.console = new ConsoleToStderr({ stdout: process.stderr, stderr: process.stderr });
}
