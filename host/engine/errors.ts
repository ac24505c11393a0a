/**
 * A component cannot be loaded: unreadable, not a component, refused by the embedder's check of its
 * world, over the memory cap, not transpilable, not meterable, not compilable, a grant that cannot be
 * used. The message names the component and the cause; the embedder maps it to its own error.
 */
export class LoadFailure extends Error {
  override readonly name = 'LoadFailure' as const;
  readonly code = 'load_failed' as const;
}

/** Across realms and bundles: by name. */
export function isLoadFailure(error: unknown): error is LoadFailure {
  return error instanceof Error && error.name === 'LoadFailure';
}
