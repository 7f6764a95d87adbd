/**
 * Input arguments of ffmpeg for a pull channel's `pullStream`.
 *
 * The built-in test pattern: `testsrc://` (or `testsrc://WIDTHxHEIGHT`, default 640x360, 25 fps) is
 * ffmpeg's `testsrc2` picture with a 440 Hz tone and the clock burnt in, generated locally: a pull
 * channel to try offline. Files (`file:///path`) and on-demand HTTP addresses (`.mp4`, `.flv`, ...)
 * are read at their own speed (`-re`) and loop; live addresses (rtmp, rtsp, srt, udp, HLS, HTTP-FLV)
 * are read as they come. What is not H.264 + AAC is encoded (ultrafast) for the RTMP server.
 */
export const TEST_PATTERN_SCHEME = 'testsrc://';

const ENCODE = [
  '-c:v',
  'libx264',
  '-preset',
  'ultrafast',
  '-tune',
  'zerolatency',
  '-pix_fmt',
  'yuv420p',
  '-g',
  '50',
  '-c:a',
  'aac',
  '-b:a',
  '96k',
  '-ar',
  '44100',
];

/** The picture size of a `testsrc://` address (`WIDTHxHEIGHT`); undefined for any other address. */
export function testPatternSize(pullStream: string): string | undefined {
  if (!pullStream.toLowerCase().startsWith(TEST_PATTERN_SCHEME)) return undefined;
  const m = /^(\d{2,4})x(\d{2,4})/.exec(pullStream.slice(TEST_PATTERN_SCHEME.length));
  return m ? `${m[1]}x${m[2]}` : '640x360';
}

export function pullInputArgs(pullStream: string): string[] {
  const size = testPatternSize(pullStream);
  if (size) {
    return [
      '-re',
      '-f',
      'lavfi',
      '-i',
      `testsrc2=size=${size}:rate=25`,
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=440:sample_rate=44100',
      '-map',
      '0:v',
      '-map',
      '1:a',
      ...ENCODE,
      '-b:v',
      '800k',
    ];
  }
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(pullStream)?.[1]?.toLowerCase() ?? '';
  const isFile = scheme === 'file';
  const live =
    ['rtmp', 'rtmps', 'rtsp', 'srt', 'udp', 'rtp'].includes(scheme) || /\.(m3u8|flv)(\?|$)/i.test(pullStream);
  const input = isFile ? decodeURIComponent(new URL(pullStream).pathname) : pullStream;
  const before: string[] = ['-rw_timeout', '10000000'];
  if (scheme === 'http' || scheme === 'https')
    before.push('-reconnect', '1', '-reconnect_streamed', '1', '-reconnect_delay_max', '5');
  if (isFile) before.length = 0;
  if (!live) before.push('-re', '-stream_loop', '-1');
  return [...before, '-i', input, '-map', '0:v:0', '-map', '0:a:0?', ...ENCODE, '-b:v', '2000k'];
}
