/** What every per-language guest builder receives. */
export interface GuestBuildContext {
  /** Repository root, with a trailing slash. */
  readonly root: string;
  /** Rebuild even when the output is up to date. */
  readonly force: boolean;
  /** Progress for humans (stderr). */
  log(message: string): void;
}

/** One language's guest builder: `scripts/guests/<name>.ts` default-exports one. */
export interface GuestBuilder {
  readonly name: string;
  /** Build every guest of this language into `guest-examples/<lang>/build/`, skipping up-to-date ones. */
  build(context: GuestBuildContext): Promise<void>;
}
