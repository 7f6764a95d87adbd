/** Media for the content checks' tests, made by ffmpeg. */
import { writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { runTool, type MediaTools } from '../../../src/media/tools';

/**
 * The test clip, 20 s of 320x180: black from 4 to 6 s, the picture frozen from 9 to 12 s, silence from 14 to 17 s,
 * and a -10 dBFS 1 kHz tone (about -13 LUFS: 10 dB above EBU R 128's -23). Only filters the npm packages' ffmpeg
 * 4.1 has too (no freezeframes).
 */
export async function makeClip(tools: MediaTools, out: string, extra: string[] = []): Promise<void> {
  const video =
    'testsrc2=s=320x180:r=25:d=20,split=3[a][b][c];' +
    '[a]trim=0:9,setpts=PTS-STARTPTS[a1];' +
    // Frame 225 (9 s) shown 75 times: a picture frozen for 3 s.
    '[b]trim=start_frame=225:end_frame=226,loop=loop=74:size=1:start=0,setpts=N/25/TB[b1];' +
    '[c]trim=12:20,setpts=PTS-STARTPTS[c1];' +
    "[a1][b1][c1]concat=n=3:v=1:a=0,drawbox=x=0:y=0:w=iw:h=ih:color=black:t=fill:enable='between(t,4,6)'";
  const audio = 'aevalsrc=0.3162*sin(2*PI*1000*t)*(1-between(t\\,14\\,17)):s=48000:d=20';
  await runTool(tools.ffmpeg, [
    ...['-hide_banner', '-nostdin', '-v', 'error', '-y', '-f', 'lavfi', '-i', video, '-f', 'lavfi', '-i', audio],
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-g', '25', '-c:a', 'aac', '-b:a', '128k'],
    ...extra,
    '-shortest',
    out,
  ]);
}

/**
 * The renditions of the fMP4 ladder: a folder each, with its size: the clip's own pictures (stream copy), and scaled
 * up at x264 CRF 18 (a frozen picture stays frozen: at a starved bitrate x264 keeps refining it for a second).
 */
export const FMP4_RENDITIONS = [
  { folder: 'r180', width: 320, height: 180, kbps: 400, video: ['-c:v', 'copy'] },
  {
    folder: 'r360',
    width: 640,
    height: 360,
    kbps: 900,
    video: ['-vf', 'scale=640:360', '-c:v', 'libx264', '-preset', 'ultrafast', '-crf', '18', '-g', '50'],
  },
] as const;

/** The clip packaged as an fMP4 HLS ladder of two renditions (2 s segments, init.mp4 each) under `dir/master.m3u8`. */
export async function makeFmp4Ladder(tools: MediaTools, clip: string, dir: string): Promise<void> {
  for (const r of FMP4_RENDITIONS) {
    await mkdir(join(dir, r.folder), { recursive: true });
    await runTool(tools.ffmpeg, [
      ...['-hide_banner', '-nostdin', '-v', 'error', '-y', '-i', clip, ...r.video],
      ...['-c:a', 'aac', '-b:a', '128k', '-f', 'hls', '-hls_time', '2', '-hls_playlist_type', 'vod'],
      ...['-hls_segment_type', 'fmp4', '-hls_fmp4_init_filename', 'init.mp4', join(dir, r.folder, 'index.m3u8')],
    ]);
  }
  const variants = FMP4_RENDITIONS.map(
    (r) =>
      `#EXT-X-STREAM-INF:BANDWIDTH=${(r.kbps + 128) * 1100},RESOLUTION=${r.width}x${r.height}\n${r.folder}/index.m3u8\n`,
  );
  await writeFile(join(dir, 'master.m3u8'), `#EXTM3U\n#EXT-X-INDEPENDENT-SEGMENTS\n${variants.join('')}`);
}
