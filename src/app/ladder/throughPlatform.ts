/**
 * The rungs of an account's template group made by a local platform itself: the first seconds of the reference are
 * cut (stream copy, no re-encode), uploaded as a video of the account with the group as its transcoding group (the
 * upload's `transcodeTemplateGroupId`, facts section 6), the video followed until its transcoding ends, and each
 * rung's rendition fetched by its playback address (bounded). The video stays in the account: it is the platform's
 * own result, playable there, and deleting it is one click in the Videos view.
 */
import { join } from 'node:path';
import type { PlatformClient } from '../../api/client';
import { Codes } from '../../api/errorCodes';
import { ApiError } from '../../api/errors';
import { VideoStatuses, type TranscodedStream, type UploadedVideo, type Video } from '../../api/types';
import { l10n } from '../../l10n/l10n';
import { runTool, type RunOptions } from '../../media/tools';
import { downloadRendition, type FetchGet } from './download';
import { LadderInputError } from './group';
import type { Rung } from './model';

export interface PlatformTranscode {
  readonly client: PlatformClient;
  /** The account's template group (its id on the platform). */
  readonly groupId: number;
  readonly fetch: FetchGet;
  /** Told as soon as the upload made the video (the command says where it is when the user cancels). */
  readonly onVideo?: (video: { id: string; title: string }) => void;
}

export interface PlatformRenditions {
  readonly videoId: string;
  readonly title: string;
  /** Each rung's rendition as a local file, by rung name. */
  readonly files: ReadonlyMap<string, string>;
}

/** How often the video's status is read while the platform transcodes. */
const POLL_MS = 1000;
/** Stops waiting after this long (a 120 s reference in 20 rungs on a busy local platform stays well inside). */
const WAIT_MS = 60 * 60_000;
/** At most this much of one rendition is fetched (120 s at 100 Mb/s is 1.5 GB). */
const MAX_RENDITION_BYTES = 2 * 1024 ** 3;

const FAILED: readonly number[] = [VideoStatuses.failed, VideoStatuses.uploadFailed, VideoStatuses.unknownFileType];

/** The reference's first `seconds`, stream-copied into Matroska (any codec fits): what is uploaded. */
async function cutReference(
  ffmpeg: string,
  file: string,
  seconds: number,
  out: string,
  options: RunOptions,
): Promise<void> {
  await runTool(
    ffmpeg,
    [
      ...['-hide_banner', '-nostdin', '-v', 'error', '-y', '-protocol_whitelist', 'file', '-i', file],
      ...['-t', String(seconds), '-map', '0:v:0', '-map', '0:a:0?', '-c', 'copy', '-f', 'matroska', out],
    ],
    { timeoutMs: 10 * 60_000, ...options },
  );
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      signal.removeEventListener('abort', stop);
      resolve();
    }
    function stop(): void {
      clearTimeout(timer);
      reject(signal.reason as Error);
    }
    signal.addEventListener('abort', stop, { once: true });
  });
}

/** Reads the video until its transcoding is done; a failed one is an error with the status. */
async function transcoded(
  way: PlatformTranscode,
  videoId: string,
  signal: AbortSignal,
  say: (message: string) => void,
): Promise<Video> {
  const until = Date.now() + WAIT_MS;
  for (;;) {
    const video = await way.client.getVideoInfo(videoId, { signal });
    if (video.status === VideoStatuses.completed) return video;
    if (FAILED.includes(video.status)) {
      throw new Error(
        l10n.t('the platform could not transcode the reference (video {0}, status {1})', videoId, video.status),
      );
    }
    if (Date.now() > until)
      throw new Error(l10n.t('the platform did not finish transcoding video {0} within an hour', videoId));
    say(l10n.t('The platform is transcoding the reference (video {0}, status {1})', videoId, video.status));
    await sleep(POLL_MS, signal);
  }
}

/** The rung's rendition in the video's list: its template's name, the full-length one (not a trial clip). */
function renditionOf(video: Video, rung: Rung): TranscodedStream {
  const stream = video.transcodedVideoList.find((s) => s.name === rung.name && s.type !== 1);
  if (!stream) {
    throw new Error(
      l10n.t(
        'the platform listed no rendition "{0}" for video {1} ({2})',
        rung.name,
        video.id,
        video.transcodedVideoList.map((s) => s.name).join(', '),
      ),
    );
  }
  return stream;
}

/** A local platform that simulates media (no ffmpeg there): it takes no uploads, so the lab encodes here. */
export class PlatformSimulatesMedia extends Error {}

async function upload(
  way: PlatformTranscode,
  file: string,
  title: string,
  signal: AbortSignal,
): Promise<UploadedVideo[]> {
  try {
    return await way.client.uploadVideo(
      {
        file,
        fileName: `${title.replace(/[^\w .()-]+/g, '_')}.mkv`,
        isTranscoder: true,
        transcodeTemplateGroupId: way.groupId,
      },
      { signal },
    );
  } catch (error) {
    // The local platform's refusal when it runs without ffmpeg (src/localPlatform/media/upload.ts).
    if (error instanceof ApiError && error.code === Codes.exception && /real media/.test(error.platformMessage)) {
      throw new PlatformSimulatesMedia(error.platformMessage);
    }
    throw error;
  }
}

/** Uploads the reference, has the platform transcode it with the group, fetches each rung's rendition. */
export async function renditionsThroughPlatform(
  way: PlatformTranscode,
  ffmpeg: string,
  reference: { label: string; file: string; seconds: number },
  rungs: readonly Rung[],
  work: { dir: string; signal: AbortSignal; run: RunOptions; say: (message: string, fraction: number) => void },
): Promise<PlatformRenditions> {
  const { dir, signal, run, say } = work;
  const cut = join(dir, 'reference.mkv');
  await cutReference(ffmpeg, reference.file, reference.seconds, cut, run);
  say(l10n.t('Uploading the reference to the platform'), 0);
  const title = l10n.t('Ladder lab: {0}', reference.label).slice(0, 100);
  const uploaded = await upload(way, cut, title, signal);
  const videoId = uploaded[0]?.videoId;
  if (!videoId) throw new LadderInputError(l10n.t('the platform listed no video for the uploaded reference'));
  way.onVideo?.({ id: videoId, title });
  const video = await transcoded(way, videoId, signal, (message) => say(message, 0.1));
  const files = new Map<string, string>();
  for (const [i, rung] of rungs.entries()) {
    say(
      l10n.t('Fetching "{0}" from the platform ({1} of {2})', rung.name, i + 1, rungs.length),
      0.3 + (0.2 * i) / rungs.length,
    );
    const file = join(dir, `platform-${i}`);
    await downloadRendition(way.fetch, renditionOf(video, rung), file, MAX_RENDITION_BYTES, signal);
    files.set(rung.name, file);
  }
  return { videoId, title, files };
}
