/**
 * What an embedder tells the worker executor about its calls: how a call's arguments become bytes in
 * the mailbox (and back, in the worker), and how its result becomes a JSON value (and back, in the
 * caller). The executor carries bytes and an outcome envelope; what is inside is the codec's, which
 * validates what it reads (a worker is another thread: nothing it sends is taken on trust).
 */
export interface Codec<A, R> {
  /** Write `args` into `into`: the bytes written, or -1 when they do not fit. */
  encodeArgs(args: A, into: Uint8Array): number;
  /** The most bytes {@link encodeArgs} can write for `args` (the size of a buffer it surely fits in). */
  maxArgsBytes(args: A): number;
  /** Read what {@link encodeArgs} wrote; throws when the bytes are not such arguments. */
  decodeArgs(bytes: Uint8Array): A;
  /** The result as a JSON value (what crosses back). */
  resultToJson(value: R): unknown;
  /** The result from its JSON value, validated: undefined when it is not one. */
  resultFromJson(value: unknown): R | undefined;
  /**
   * Optional, for the common results: write `value` as bytes into `into` (the bytes written, or -1:
   * then it crosses as JSON). Saves the reply's JSON text on every call.
   */
  encodeResult?(value: R, into: Uint8Array): number;
  /**
   * Read what {@link encodeResult} wrote, as the result's JSON form (which {@link resultFromJson} then
   * validates as any result); throws when the bytes are not such a result.
   */
  decodeResult?(bytes: Uint8Array): unknown;
}
