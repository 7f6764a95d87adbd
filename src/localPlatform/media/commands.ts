/**
 * ffmpeg argument arrays for one rendition (never a shell: every value is its own argument, and
 * names from requests never reach a command line; files are named by the platform).
 *
 * A rendition is encoded once to an MP4 (index at the front), then copied without re-encoding into
 * the other formats. Keyframes are forced every KEYFRAME_SECONDS of media time and scene-cut
 * keyframes are off, so every rendition of a video cuts at the same instants (aligned HLS segments,
 * switchable renditions) whatever its size or bitrate.
 */
import type { JobTemplate, LogoItemRec } from '../store/records';
import type { Advanced } from './advanced';
import type { Container } from '../../media/read';

export const KEYFRAME_SECONDS = 2;

/**
 * A stored source (an upload) and the container it was detected as. ffmpeg reads it only as that
 * container and only as a local file (`-f`, `-protocol_whitelist file`): a playlist, a concat list
 * or any other indirection in it is never followed.
 */
export interface SourceInput {
  file: string;
  /** ffmpeg's demuxer name (`sourceDemuxer` of the container the reader found). */
  demuxer: string;
}

/**
 * ffmpeg's demuxer for each container the in-process reader (src/media/read.ts) recognises. A source is read by
 * ffmpeg only as the container its bytes were found to be: never a playlist (hls), a list (concat, ffconcat), an
 * image sequence or a device, which the reader does not recognise in the first place.
 */
const DEMUXERS: Readonly<Record<Container, string>> = {
  mp4: 'mov',
  mov: 'mov',
  mpegts: 'mpegts',
  flv: 'flv',
  matroska: 'matroska',
  webm: 'matroska',
  adts: 'aac',
  mp3: 'mp3',
  ogg: 'ogg',
  wav: 'wav',
  flac: 'flac',
};

/** The demuxer for a container the reader found. */
export function sourceDemuxer(container: Container): string {
  return DEMUXERS[container];
}

/** ffmpeg's input arguments for a stored source. */
export function sourceInputArgs(input: SourceInput): string[] {
  return ['-protocol_whitelist', 'file', '-f', input.demuxer, '-i', input.file];
}

export interface LogoInput {
  file: string;
  item: LogoItemRec;
}

export interface EncodeOptions {
  source: SourceInput;
  output: string;
  template: JobTemplate;
  preset: string;
  /** Source duration in seconds (logo start and end are percentages of it). */
  durationSeconds: number;
  hasAudio: boolean;
  logos: LogoInput[];
  /** Only the first seconds (a trial clip). */
  limitSeconds?: number;
  /** The template's advancedArguments, read (media/advanced.ts). */
  advanced?: Advanced;
}

/** x264 needs even sizes; an odd size asked for is rounded down to even (documented). */
export function evenSize(n: number): number {
  return Math.max(2, n - (n % 2));
}

/** The filter graph: scale to the template's exact size, then each logo overlaid in its window. */
export function filterGraph(o: EncodeOptions): string {
  const w = evenSize(o.template.videoWidth);
  const h = evenSize(o.template.videoHeight);
  // smartBorder: 0 stretches to the exact size, 1 fits inside with black bars, 2 fills and crops.
  const fit =
    o.advanced?.border === 1
      ? `scale=${w}:${h}:force_original_aspect_ratio=decrease,pad=${w}:${h}:(ow-iw)/2:(oh-ih)/2`
      : o.advanced?.border === 2
        ? `scale=${w}:${h}:force_original_aspect_ratio=increase,crop=${w}:${h}`
        : `scale=${w}:${h}`;
  const parts = [`[0:v]${fit},setsar=1[base0]`];
  o.logos.forEach((logo, i) => {
    const l = logo.item;
    const scale = Math.max(1, l.resize) / 100;
    const lw = evenSize(Math.max(2, Math.round(l.width * scale)));
    const lh = evenSize(Math.max(2, Math.round(l.height * scale)));
    const alpha = Math.min(100, Math.max(0, l.opacity)) / 100;
    const x = Math.round((w * Math.min(100, Math.max(0, l.leftPos))) / 100);
    const y = Math.round((h * Math.min(100, Math.max(0, l.topPos))) / 100);
    const from = ((o.durationSeconds * Math.max(0, l.start)) / 100).toFixed(3);
    const to = ((o.durationSeconds * Math.min(100, l.end)) / 100).toFixed(3);
    parts.push(
      `[${i + 1}:v]scale=${lw}:${lh},format=rgba,colorchannelmixer=aa=${alpha.toFixed(3)}[logo${i}]`,
      `[base${i}][logo${i}]overlay=x=${x}:y=${y}:enable='between(t,${from},${to})'[base${i + 1}]`,
    );
  });
  parts.push(`[base${o.logos.length}]format=yuv420p[vout]`);
  return parts.join(';');
}

export function encodeArgs(o: EncodeOptions): string[] {
  const t = o.template;
  const args = ['-hide_banner', '-nostdin', '-y', '-v', 'error', ...sourceInputArgs(o.source)];
  for (const logo of o.logos) args.push('-loop', '1', '-i', logo.file);
  args.push('-filter_complex', filterGraph(o), '-map', '[vout]');
  if (o.hasAudio) args.push('-map', '0:a:0');
  const a = o.advanced;
  const gop = a?.keyframeSeconds ?? KEYFRAME_SECONDS;
  args.push('-c:v', 'libx264', '-preset', o.preset);
  if (a?.crf !== undefined) {
    args.push('-crf', String(a.crf), '-maxrate', `${t.videoBitrate}k`, '-bufsize', `${t.videoBitrate * 2}k`);
  } else if (a?.cbr) {
    args.push('-b:v', `${t.videoBitrate}k`, '-minrate', `${t.videoBitrate}k`, '-maxrate', `${t.videoBitrate}k`);
    args.push('-bufsize', `${t.videoBitrate}k`, '-x264-params', 'nal-hrd=cbr');
  } else {
    args.push('-b:v', `${t.videoBitrate}k`, '-maxrate', `${Math.round(t.videoBitrate * 1.2)}k`);
    args.push('-bufsize', `${t.videoBitrate * 2}k`);
  }
  args.push('-force_key_frames', `expr:gte(t,n_forced*${gop})`, '-sc_threshold', '0');
  if (a?.bFrames !== undefined) args.push('-bf', String(a.bFrames));
  if (a?.refFrames !== undefined) args.push('-refs', String(a.refFrames));
  if (a?.interlaced) args.push('-flags', '+ildct+ilme');
  if (o.hasAudio) args.push('-c:a', 'aac', '-b:a', String(t.audioBitrate), '-ac', '2');
  // Logos loop forever: the source's length ends the output.
  args.push('-t', String(o.limitSeconds ?? o.durationSeconds));
  args.push('-movflags', '+faststart', '-f', 'mp4', o.output);
  return args;
}

/** HLS from the encoded MP4 (copied): 2 s segments, VOD playlist, AES-128 when a key info file is given. */
export function hlsArgs(mp4: string, playlist: string, segmentPattern: string, keyInfoFile?: string): string[] {
  const args = ['-hide_banner', '-nostdin', '-y', '-v', 'error', '-i', mp4, '-c', 'copy', '-f', 'hls'];
  args.push('-hls_time', String(KEYFRAME_SECONDS), '-hls_playlist_type', 'vod', '-hls_list_size', '0');
  args.push('-hls_flags', 'independent_segments', '-hls_segment_filename', segmentPattern);
  if (keyInfoFile) args.push('-hls_key_info_file', keyInfoFile);
  args.push(playlist);
  return args;
}

export function remuxArgs(mp4: string, output: string, format: 'flv' | 'mpegts'): string[] {
  return ['-hide_banner', '-nostdin', '-y', '-v', 'error', '-i', mp4, '-c', 'copy', '-f', format, output];
}

/** One JPEG frame at `seconds` (a cover or a thumbnail), at most `width` wide. */
export function frameArgs(input: SourceInput, seconds: number, output: string, width?: number): string[] {
  const args = ['-hide_banner', '-nostdin', '-y', '-v', 'error', '-ss', seconds.toFixed(3), ...sourceInputArgs(input)];
  args.push('-frames:v', '1', '-q:v', '3');
  if (width) args.push('-vf', `scale=${width}:-2`);
  args.push('-f', 'image2', '-c:v', 'mjpeg', output);
  return args;
}

/** A generated clip (demo data, tests, the benchmark): a test pattern with a title and a tone. */
export function testClipArgs(output: string, seconds: number, width: number, height: number, title?: string): string[] {
  const filters = title
    ? `,drawtext=text='${drawtextEscape(title)}':fontsize=${Math.max(12, Math.round(height / 10))}:fontcolor=white:box=1:boxcolor=black@0.6:x=(w-text_w)/2:y=h*0.1`
    : '';
  return [
    ...['-hide_banner', '-nostdin', '-y', '-v', 'error'],
    ...['-f', 'lavfi', '-i', `testsrc2=size=${width}x${height}:rate=25,format=yuv420p${filters}`],
    ...['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000'],
    ...['-t', String(seconds), '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'],
    ...['-c:a', 'aac', '-b:a', '96k', '-movflags', '+faststart', '-f', 'mp4', output],
  ];
}

/** drawtext's own quoting: the title is data inside one argument, never a shell word. */
function drawtextEscape(text: string): string {
  return text.replace(/[^A-Za-z0-9 _.,!?()-]/g, '').replace(/([\\:',])/g, '\\$1');
}
