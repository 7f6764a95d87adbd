/**
 * Loaded by mocha before any test (.mocharc.json): Node's own fetch is made ready first, as it is in VS Code's
 * extension host before any extension loads. Otherwise, in this one process, loading the npm undici package
 * first (src/api/undici.ts holds the global-dispatcher slot with a placeholder meanwhile, and undici's load
 * wakes Node's built-in fetch, which then installs no dispatcher of its own) leaves Node 20's global fetch
 * failing with "undefined == true" for every later test that uses it (the inspector's, the local platform's).
 */
void (globalThis as { Response?: unknown }).Response;
