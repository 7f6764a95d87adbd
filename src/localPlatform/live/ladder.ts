/**
 * The ffmpeg command of a live channel: one process reads the channel's stream from the RTMP server
 * and writes every output group at once. One `split` feeds a `scale` per rendition; every rendition
 * is x264 `veryfast` + `zerolatency` with a fixed GOP of one segment and no scene-cut keyframes, so
 * renditions switch cleanly on segment boundaries (Apple's HLS authoring rules); audio is AAC.
 *
 * - HLS group: `-f hls` with `-var_stream_map`, segments of SEGMENT_SECONDS, a playlist of
 *   PLAYLIST_SEGMENTS (or the time-shift window), older segments deleted; AES-128 with a key file when
 *   the group is encrypted. The master playlist is written by the platform (names it controls).
 * - RTMP group: each rendition published back to the RTMP server as `<stream>_<group>-<n>`, the
 *   default one also as `<stream>_<group>`, and to the third-party address when one is given.
 * - A thumbnail (JPEG, 320 wide) rewritten every THUMBNAIL_SECONDS.
 * - Recording: the incoming stream copied into MPEG-TS, remuxed when the channel stops.
 */
import { join } from 'node:path';

export const SEGMENT_SECONDS = 2;
export const PLAYLIST_SEGMENTS = 6;
export const THUMBNAIL_SECONDS = 3;

export interface Rendition {
  width: number;
  height: number;
  /** kbit/s */
  videoBitrate: number;
  audioBitrate: number;
  frameRate: number;
  isDefault: boolean;
}

export interface LadderGroup {
  id: string;
  kind: 'hls' | 'rtmp';
  renditions: Rendition[];
  /** HLS: segments kept in the playlist (and on disk). */
  listSize?: number;
  /** HLS: an `-hls_key_info_file`. */
  keyInfoFile?: string;
  /** The group's live logo, in source pixels (see `LogoBox`). */
  logo?: LogoBox;
  /** RTMP: where each rendition goes (`urls[n]`), plus extra addresses of the default one. */
  rtmpUrls?: string[];
  rtmpDefaultUrls?: string[];
}

export interface LadderInput {
  source: string;
  hasAudio: boolean;
  /** Frame rate of the source, for the GOP when a template gives none. */
  sourceFrameRate: number;
  dir: string;
  groups: LadderGroup[];
  thumbnailFile: string;
  /** A file to copy the incoming stream to (MPEG-TS), for recording. */
  recordFile?: string;
}

/**
 * A live logo as the platform can draw it: the interface stores only a relative `uri` for its image
 * and no image file reaches the platform, so the logo is a filled box of its size (times `resize`
 * percent), position and opacity. Numbers only go into the filter graph, never text from a request.
 */
export interface LogoBox {
  left: number;
  top: number;
  width: number;
  height: number;
  /** 0-100 */
  opacity: number;
}

/** Name of HLS child playlist `n` (0-based) of a group on disk. */
export function hlsChildFile(groupId: string, n: number): string {
  return `${groupId}_${n}.m3u8`;
}

/** Escapes one slave address of the tee muxer (`|` separates slaves, `\` escapes). */
function teeEscape(url: string): string {
  return url.replace(/[\\|[\]]/g, (c) => `\\${c}`);
}

function int(n: number): number {
  return Math.max(0, Math.round(Number(n) || 0));
}

export function ladderArgs(input: LadderInput): string[] {
  // The input is the platform's own RTMP server, whose FLV starts with the metadata and both codec
  // configurations: no frames are needed to learn the streams. By default ffmpeg also waits for 40 video frames
  // (1.6 s at 25 fps, arriving in real time) to estimate the frame rate before it encodes anything, then catches
  // up: that wait was most of the delay from the first pushed frame to the first segment (issue 29). The
  // frame rate is the ladder's own (the `fps` filter below).
  // `-y`: the files of an earlier run stay in the channel's folder (the thumbnail until the channel stops), and
  // without it ffmpeg asks on its standard input whether to overwrite them and waits there for good (an encoder
  // that reconnected got a ladder that never wrote a segment). Standard input stays open for the stop's `q`.
  const args = [
    '-hide_banner',
    '-loglevel',
    'error',
    '-nostats',
    '-y',
    '-rw_timeout',
    '10000000',
    '-fpsprobesize',
    '0',
  ];
  args.push('-i', input.source);
  const renditions = input.groups.flatMap((g) => g.renditions.map((r) => ({ r, logo: g.logo })));
  const graph: string[] = [];
  graph.push(`[0:v]split=${renditions.length + 1}${renditions.map((_, i) => `[s${i}]`).join('')}[sthumb]`);
  renditions.forEach(({ r, logo }, i) => {
    const box = logo
      ? `drawbox=x=${int(logo.left)}:y=${int(logo.top)}:w=${int(logo.width)}:h=${int(logo.height)}:color=white@${(Math.min(100, Math.max(0, logo.opacity)) / 100).toFixed(2)}:t=fill,`
      : '';
    graph.push(
      `[s${i}]${box}fps=${r.frameRate || input.sourceFrameRate || 25},scale=${r.width}:${r.height},setsar=1[v${i}]`,
    );
  });
  graph.push(`[sthumb]fps=1/${THUMBNAIL_SECONDS},scale=320:-2[thumb]`);
  args.push('-filter_complex', graph.join(';'));

  const videoCodec = (k: number, r: Rendition): string[] => {
    const fps = r.frameRate || input.sourceFrameRate || 25;
    const gop = String(Math.max(1, Math.round(fps * SEGMENT_SECONDS)));
    return [
      `-c:v:${k}`,
      'libx264',
      `-b:v:${k}`,
      `${r.videoBitrate}k`,
      `-maxrate:v:${k}`,
      `${r.videoBitrate}k`,
      `-bufsize:v:${k}`,
      `${r.videoBitrate * 2}k`,
      `-g:v:${k}`,
      gop,
      `-keyint_min:v:${k}`,
      gop,
    ];
  };
  const common = ['-preset', 'veryfast', '-tune', 'zerolatency', '-sc_threshold', '0', '-pix_fmt', 'yuv420p'];
  let index = 0;
  for (const g of input.groups) {
    if (g.kind === 'hls') {
      const maps: string[] = [];
      const varMap: string[] = [];
      g.renditions.forEach((r, k) => {
        maps.push('-map', `[v${index + k}]`);
        if (input.hasAudio) maps.push('-map', '0:a:0');
        maps.push(...videoCodec(k, r));
        if (input.hasAudio) maps.push(`-c:a:${k}`, 'aac', `-b:a:${k}`, `${r.audioBitrate || 64}k`);
        varMap.push(input.hasAudio ? `v:${k},a:${k}` : `v:${k}`);
      });
      args.push(...maps, ...common);
      args.push(
        '-f',
        'hls',
        '-hls_time',
        String(SEGMENT_SECONDS),
        '-hls_list_size',
        String(g.listSize ?? PLAYLIST_SEGMENTS),
        '-hls_flags',
        'delete_segments+independent_segments+omit_endlist',
        '-hls_delete_threshold',
        '2',
        // Sequence numbers from the clock: a restarted process never reuses a segment name.
        '-hls_start_number_source',
        'epoch',
        '-hls_segment_filename',
        join(input.dir, `${g.id}_%v_%d.ts`),
        '-var_stream_map',
        varMap.join(' '),
      );
      if (g.keyInfoFile) args.push('-hls_key_info_file', g.keyInfoFile);
      args.push(join(input.dir, `${g.id}_%v.m3u8`));
    } else {
      g.renditions.forEach((r, k) => {
        args.push('-map', `[v${index + k}]`);
        if (input.hasAudio) args.push('-map', '0:a:0', '-c:a', 'aac', '-b:a', `${r.audioBitrate || 64}k`);
        args.push(...videoCodec(0, r), ...common);
        const urls = [g.rtmpUrls?.[k], ...(r.isDefault ? (g.rtmpDefaultUrls ?? []) : [])].filter(
          (u): u is string => !!u,
        );
        // A third-party address that fails does not stop the platform's own outputs.
        args.push(
          '-f',
          'tee',
          '-flags',
          '+global_header',
          urls.map((u, i) => `[f=flv${i > 0 ? ':onfail=ignore' : ''}]${teeEscape(u)}`).join('|'),
        );
      });
    }
    index += g.renditions.length;
  }
  args.push('-map', '[thumb]', '-f', 'image2', '-update', '1', '-q:v', '5', input.thumbnailFile);
  if (input.recordFile) {
    args.push('-map', '0:v:0');
    if (input.hasAudio) args.push('-map', '0:a:0');
    args.push('-c', 'copy', '-f', 'mpegts', input.recordFile);
  }
  return args;
}
