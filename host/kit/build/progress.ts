/** A build step starting: what it does, and how long the build has been running. */
export interface BuildStep {
  readonly step: string;
  readonly elapsed_ms: number;
}

/** Receives each step as it starts (a CLI prints it; long builds then show where they are). */
export type BuildListener = (event: BuildStep) => void;

/** A finished step and how long it took. */
export interface StepTiming {
  readonly step: string;
  readonly ms: number;
}

/** Runs a build's steps in order, announcing each as it starts and recording how long it took. */
export class Steps {
  readonly #listener: BuildListener | undefined;
  readonly #started = performance.now();
  readonly timings: StepTiming[] = [];

  constructor(listener: BuildListener | undefined) {
    this.#listener = listener;
  }

  /** Milliseconds since the build started. */
  elapsed(): number {
    return performance.now() - this.#started;
  }

  /** Run one step. */
  async run<T>(step: string, work: () => Promise<T>): Promise<T> {
    const start = performance.now();
    this.#listener?.({ step, elapsed_ms: start - this.#started });
    try {
      return await work();
    } finally {
      this.timings.push({ step, ms: performance.now() - start });
    }
  }
}
