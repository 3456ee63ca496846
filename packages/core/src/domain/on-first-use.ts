/**
 * `make` run at the first call, its answer kept. For zod schemas: building one runs zod's
 * constructors over every field, and schemas built as their module loads cost every cold start,
 * also where nothing is ever parsed with them (a price table, a pool or a catalog file not set).
 */
export function onFirstUse<T>(make: () => T): () => T {
  let made: T | undefined;
  return () => {
    made ??= make();
    return made;
  };
}
