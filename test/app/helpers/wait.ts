/** Waits (not a timed assertion) until `condition` holds, for work that finishes in the background. */
export async function waitFor(condition: () => boolean, what = 'condition'): Promise<void> {
  for (let i = 0; i < 1000; i++) {
    if (condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`gave up waiting for ${what}`);
}
