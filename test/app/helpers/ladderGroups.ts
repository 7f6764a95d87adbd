/** Template group documents and a reference clip for the ladder lab's tests. */
import { runTool, type MediaTools } from '../../../src/media/tools';

interface Item {
  name: string;
  size: [number, number];
  kbps: number;
  default?: boolean;
}

export function groupDocument(name: string, items: Item[]): string {
  return JSON.stringify(
    {
      name,
      type: 0,
      trailor: false,
      trailorDuration: 0,
      logoGroupId: 0,
      transcodeTemplates: items.map((item) => ({
        name: item.name,
        videoWidth: item.size[0],
        videoHeight: item.size[1],
        videoBitrate: item.kbps,
        audioBitrate: 96000,
        format: 0,
        encryptType: 0,
        defaultVideo: item.default ? 1 : 0,
      })),
    },
    null,
    2,
  );
}

export const USELESS_TOP = groupDocument('Useless top', [
  { name: '180p', size: [320, 180], kbps: 300 },
  { name: '360p', size: [640, 360], kbps: 1200, default: true },
  { name: '360p-max', size: [640, 360], kbps: 4000 },
  { name: '720p', size: [1280, 720], kbps: 5000 },
]);

export const PLAIN = groupDocument('Plain', [
  { name: 'low', size: [320, 180], kbps: 250 },
  { name: 'high', size: [640, 360], kbps: 900, default: true },
]);

/** A 4 s 640x360 reference: the moving test pattern with a tone, near-lossless. */
export async function makeReference(tools: MediaTools, file: string): Promise<void> {
  await runTool(tools.ffmpeg, [
    ...['-hide_banner', '-nostdin', '-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=s=640x360:r=25:d=4'],
    ...['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000:duration=4', '-c:v', 'libx264', '-preset'],
    ...['veryfast', '-crf', '10', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-movflags', '+faststart', file],
  ]);
}
