/** The body, or undefined as soon as it passes `max` bytes (the rest is not read: the stream is cancelled). */
export async function readAtMost(body: AsyncIterable<Uint8Array>, max: number): Promise<Buffer | undefined> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of body) {
    total += chunk.byteLength;
    if (total > max) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}
