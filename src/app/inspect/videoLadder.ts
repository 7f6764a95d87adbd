/**
 * A transcoded video's whole HLS ladder for Inspect Stream. The platform lists each rendition's playlist but no
 * master for a video, so the inspector would check one rendition and none of the checks across variants (keyframe
 * alignment, bandwidth order). A master playlist listing every HLS rendition, as a master would (BANDWIDTH and
 * RESOLUTION from the record), is written to a temporary file and inspected instead.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { TranscodedStream, Video } from '../../api/types';
import { l10n } from '../../l10n/l10n';
import type { StreamTarget } from './streamTargets';

export interface LadderTarget {
  readonly target: StreamTarget;
  /** What the report says about the master (it is not the platform's). */
  readonly note: string;
  /** Removes the temporary master (when the report panel closes). */
  dispose(): Promise<void>;
}

/** The renditions with an http(s) HLS playlist, highest bandwidth first. */
function hlsRenditions(video: Video): TranscodedStream[] {
  return video.transcodedVideoList
    .filter((stream) => stream.hlsUrl && /^https?:\/\//i.test(stream.hlsUrl))
    .sort((a, b) => bandwidth(b) - bandwidth(a));
}

/** Bits per second: the record's video bitrate is in kbps, its audio bitrate in bits per second. */
function bandwidth(stream: TranscodedStream): number {
  return stream.videoBitrate * 1000 + stream.audioBitrate;
}

/** The master playlist text for the renditions (RFC 8216 section 4.3.4.2: BANDWIDTH required, RESOLUTION given). */
export function ladderMaster(renditions: readonly TranscodedStream[]): string {
  const lines = ['#EXTM3U', '#EXT-X-VERSION:3'];
  for (const stream of renditions) {
    lines.push(
      `#EXT-X-STREAM-INF:BANDWIDTH=${bandwidth(stream)},RESOLUTION=${stream.videoWidth}x${stream.videoHeight}`,
      stream.hlsUrl!,
    );
  }
  return `${lines.join('\n')}\n`;
}

/** The video's ladder as a master in a temporary file; undefined when it has fewer than two HLS renditions. */
export async function videoLadder(video: Video): Promise<LadderTarget | undefined> {
  const renditions = hlsRenditions(video);
  if (renditions.length < 2) return undefined;
  const dir = await mkdtemp(join(tmpdir(), 'vp-ladder-'));
  const file = join(dir, 'master.m3u8');
  await writeFile(file, ladderMaster(renditions), { mode: 0o600 });
  const title = video.title || video.fileName;
  return {
    target: { address: pathToFileURL(file).href, name: l10n.t('the HLS ladder of "{0}"', title), single: false },
    note: l10n.t(
      "The platform lists no master playlist for a video: this report reads one written from its {0} HLS renditions (BANDWIDTH is the record's video plus audio bitrate, RESOLUTION its size; the record names no CODECS).",
      renditions.length,
    ),
    dispose: () => rm(dir, { recursive: true, force: true }),
  };
}
