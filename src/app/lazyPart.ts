import { l10n } from '../l10n/l10n';

/**
 * A part of the extension loaded on its first use (issue 29: activation loads only what the first view needs):
 * `load` requires the part's module, which the extension's bundle sends to its file in dist/lazy/
 * (scripts/build.mjs); the sources (tests) load the module as it is. A part that cannot be loaded (a damaged
 * install) fails the use that asked for it with its name, and is asked again next time.
 */
export function lazyPart<T>(name: string, load: () => T): () => T {
  let loaded: T | undefined;
  return () => {
    if (loaded === undefined) {
      try {
        loaded = load();
      } catch (error) {
        // Node's "Cannot find module" goes on with the require stack: its first line says what is missing.
        const reason = (error instanceof Error ? error.message : String(error)).split('\n')[0];
        throw new Error(l10n.t("The extension's {0} part could not be loaded: {1}", name, reason));
      }
    }
    return loaded;
  };
}
