/** Sample counts of the building-block benches. */
export interface MicroPlan {
  readonly fast: { readonly n: number; readonly warmup: number };
  readonly worker: { readonly n: number; readonly warmup: number };
}

export const MICRO_FULL: MicroPlan = { fast: { n: 3000, warmup: 1000 }, worker: { n: 2000, warmup: 300 } };
export const MICRO_QUICK: MicroPlan = { fast: { n: 100, warmup: 20 }, worker: { n: 50, warmup: 10 } };
