/** Types of scripts/build.mjs, for the TypeScript scripts and tests that ask whether dist/ is fresh. */
/** The hash of every input of dist/ (paths and contents). */
export function inputsHash(): string;
/** dist/ was built from the inputs as they are now. */
export function libraryIsFresh(): boolean;
/** Build dist/ from scratch and stamp it; a failing step exits the process with its code. */
export function buildLibrary(): void;
