/**
 * A WASI `result` error. jco's glue turns a thrown value with an own `payload` property into
 * `err(payload)` for the guest (a thrown `Error` would instead propagate as a host failure), so every
 * sandbox import that answers `err(...)` throws one of these.
 */
export class WasiResultError<T> {
  readonly payload: T;
  constructor(payload: T) {
    this.payload = payload;
  }
}

/** Answer the current WASI call with `err(payload)`. */
export function wasiErr<T>(payload: T): never {
  throw new WasiResultError(payload);
}

/**
 * The guest called `wasi:cli/exit`. Not a `result` error: it unwinds through the guest, the call
 * fails, and the instance is discarded (a guest that exited has nothing left to answer with).
 */
export class GuestExit extends Error {
  override readonly name = 'GuestExit' as const;
  readonly status: number;
  constructor(status: number) {
    super(`the guest called wasi:cli/exit with status ${status}`);
    this.status = status;
  }
}
