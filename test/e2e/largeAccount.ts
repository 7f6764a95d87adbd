// A second account on the platform the workbench flows use, holding thousands of channels and videos, as a
// large customer's account does. Seeded straight into the account's store before the platform starts (the
// interface has no operation that creates a video, and 3000 signed calls would only slow the run): one
// durable commit, then the platform opens the account as it finds it (it is not fresh, so no demo data).
import { openAccount } from '../../src/localPlatform/accounts';
import { stableId } from '../../src/localPlatform/store/ids';
import {
  newChannelRecord,
  newOutputGroupRecord,
  newVideoRecord,
  type ChannelRec,
  type LiveTemplateRec,
  type VideoRec,
} from '../../src/localPlatform/store/records';
import { Tx } from '../../src/localPlatform/store/store';
import { renditionsFor } from '../../src/localPlatform/transcoder';

export interface LargeAccountCounts {
  channels: number;
  videos: number;
}

export const LARGE_COUNTS: LargeAccountCounts = { channels: 1500, videos: 1600 };

/** Channel n (1-based) is named "Bulk channel 0001"...; the newest (highest n) is listed first. */
export function bulkChannelName(n: number): string {
  return `Bulk channel ${String(n).padStart(4, '0')}`;
}

export function bulkVideoTitle(n: number): string {
  return `Bulk video ${String(n).padStart(4, '0')}`;
}

const MINUTE = 60_000;

function liveTemplate(now: number): LiveTemplateRec {
  return {
    id: stableId('bulk:liveTemplate:720p'),
    displayName: 'Bulk 720p',
    type: 1,
    transcodeType: 0,
    videoWidth: 1280,
    videoHeight: 720,
    videoBitrate: 2000,
    audioBitrate: 128,
    frameRate: 25,
    videoCodec: 'h264',
    advanced: { rc: 'vbr', refFrame: 3, gopSize: 50, bframe: 3, interlace: -1, gopType: 0, smartBorder: 0 },
    createTime: now,
    updateTime: null,
  };
}

function channel(n: number, templateId: string, at: number): ChannelRec {
  const id = stableId(`bulk:channel:${n}`);
  const group = newOutputGroupRecord({
    id: stableId(`bulk:group:${n}`),
    protocolType: 1,
    createTime: at,
    outputs: [{ id: stableId(`bulk:output:${n}`), templateId, isDefault: '1', createTime: at, updateTime: null }],
  });
  return newChannelRecord({ id, name: bulkChannelName(n), createTime: at, groups: [group] });
}

function video(n: number, at: number): VideoRec {
  const id = stableId(`bulk:video:${n}`);
  const done = n % 2 === 0;
  const duration = 60_000 + (n % 50) * 1000;
  const slug = bulkVideoTitle(n)
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-');
  return newVideoRecord({
    id,
    fileName: `${slug}.mp4`,
    title: bulkVideoTitle(n),
    width: 1920,
    height: 1080,
    bitrate: 6000,
    audioBitrate: 192,
    duration,
    size: Math.round(((duration / 1000) * 6192) / 8),
    status: done ? 2 : 0,
    uploadTime: at,
    streams: done
      ? renditionsFor(
          stableId(`bulk:task:${n}`),
          [
            {
              name: '720p',
              videoWidth: 1280,
              videoHeight: 720,
              videoBitrate: 2500,
              audioBitrate: 128000,
              hls: true,
              mp4: false,
              flv: false,
              ts: false,
              hlsEncryptType: 0,
              mp4EncryptType: 0,
              flvEncryptType: 0,
              tsEncryptType: 0,
              defaultVideo: 1,
            },
          ],
          0,
          id,
          duration,
        )
      : [],
    uri: `/source/${id}/${slug}.mp4`,
  });
}

/**
 * Writes the large account's records into `dataDir` (the folder the platform is then started on) unless it
 * already holds them. The account must then be listed in the platform's accounts.
 */
export async function seedLargeAccount(
  dataDir: string,
  accessKey: string,
  counts: LargeAccountCounts = LARGE_COUNTS,
): Promise<void> {
  const { account } = await openAccount(
    dataDir,
    { accessKey, secretKey: 'unused-here' },
    new Set(),
    1,
    () => undefined,
  );
  const store = account.store;
  try {
    if (store.size('channels') > 0) return;
    const now = Date.now();
    const tx = new Tx();
    const template = liveTemplate(now - 10 * 24 * 60 * MINUTE);
    tx.put('liveTemplates', template);
    const start = now - (counts.channels + counts.videos + 10) * MINUTE;
    for (let n = 1; n <= counts.channels; n++) tx.put('channels', channel(n, template.id, start + n * MINUTE));
    for (let n = 1; n <= counts.videos; n++) tx.put('videos', video(n, start + n * MINUTE));
    await store.commit(tx);
  } finally {
    await store.close();
  }
}
