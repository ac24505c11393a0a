import type { EngineOutcome } from '../outcome.js';
import { aborted, type CallOptions, type Executor } from './executor.js';

/** What a {@link PoolExecutor} needs of its pool (pool.ts). */
export interface PoolSlots<A, R> {
  warm(slot: number): Promise<void>;
  call(slot: number, args: A, options?: CallOptions): EngineOutcome<R> | Promise<EngineOutcome<R>>;
  remove(slot: number): void;
  close(): Promise<void>;
  readonly size: number;
  readonly closesWhenEmpty: boolean;
}

/** One component's calls on a pool: the {@link Executor} a transport holds. */
export class PoolExecutor<A, R> implements Executor<A, R> {
  readonly #pool: PoolSlots<A, R>;
  readonly slot: number;
  #closed = false;

  constructor(pool: PoolSlots<A, R>, slot: number) {
    this.#pool = pool;
    this.slot = slot;
  }

  get pool(): PoolSlots<A, R> {
    return this.#pool;
  }

  warm(): Promise<void> {
    return this.#pool.warm(this.slot);
  }

  /** One call; answered directly (no promise) when the worker replied within the caller's poll. */
  invoke(args: A, options?: CallOptions): EngineOutcome<R> | Promise<EngineOutcome<R>> {
    if (this.#closed) return aborted('the executor is closed');
    return this.#pool.call(this.slot, args, options);
  }

  /** Forget the component; close the pool when it held nothing else and is one hook's own. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#pool.remove(this.slot);
    if (this.#pool.size === 0 && this.#pool.closesWhenEmpty) await this.#pool.close();
  }
}
