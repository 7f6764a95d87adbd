/** The ffmpeg commands of live channels, as argument arrays (no process runs here). */
import * as assert from 'node:assert/strict';
import { ladderArgs, type Rendition } from '../../../src/localPlatform/live/ladder';
import { pullInputArgs } from '../../../src/localPlatform/live/pullSource';

const R = (width: number, height: number, isDefault = false): Rendition => ({
  width,
  height,
  videoBitrate: 500,
  audioBitrate: 64,
  frameRate: 25,
  isDefault,
});

function after(args: string[], flag: string): string | undefined {
  const i = args.indexOf(flag);
  return i >= 0 ? args[i + 1] : undefined;
}

describe('local platform: live ffmpeg commands', () => {
  it('writes one HLS group with aligned keyframes, a variant map per rendition and the window asked for', () => {
    const args = ladderArgs({
      source: 'rtmp://127.0.0.1:1935/live/abc',
      hasAudio: true,
      sourceFrameRate: 25,
      dir: '/data/live/ch',
      groups: [{ id: 'g1', kind: 'hls', renditions: [R(640, 360, true), R(320, 180)], listSize: 9, keyInfoFile: '/k' }],
      thumbnailFile: '/data/live/ch/thumbnail.jpg',
    });
    assert.equal(after(args, '-var_stream_map'), 'v:0,a:0 v:1,a:1');
    assert.equal(after(args, '-hls_list_size'), '9');
    assert.equal(after(args, '-hls_time'), '2');
    assert.equal(after(args, '-g:v:0'), '50');
    assert.equal(after(args, '-keyint_min:v:1'), '50');
    assert.equal(after(args, '-sc_threshold'), '0');
    assert.equal(after(args, '-hls_key_info_file'), '/k');
    assert.match(after(args, '-filter_complex') ?? '', /scale=640:360.*scale=320:180/);
    assert.ok(args.includes('/data/live/ch/g1_%v.m3u8'));
  });

  it('leaves audio out when the source has none, and draws a logo box with numbers only', () => {
    const args = ladderArgs({
      source: 'rtmp://x/live/s',
      hasAudio: false,
      sourceFrameRate: 30,
      dir: '/d',
      groups: [
        {
          id: 'g',
          kind: 'hls',
          renditions: [R(320, 180)],
          logo: { left: 5, top: 6, width: 40, height: 20, opacity: 50 },
        },
      ],
      thumbnailFile: '/d/t.jpg',
    });
    assert.equal(after(args, '-var_stream_map'), 'v:0');
    assert.ok(!args.includes('0:a:0'));
    assert.match(after(args, '-filter_complex') ?? '', /drawbox=x=5:y=6:w=40:h=20:color=white@0\.50:t=fill/);
  });

  it('publishes an RTMP group per rendition and tees the default one to the third party (escaped)', () => {
    const args = ladderArgs({
      source: 'rtmp://x/live/s',
      hasAudio: true,
      sourceFrameRate: 25,
      dir: '/d',
      groups: [
        {
          id: 'g',
          kind: 'rtmp',
          renditions: [R(320, 180, true)],
          rtmpUrls: ['rtmp://127.0.0.1/live/s_g-1'],
          rtmpDefaultUrls: ['rtmp://127.0.0.1/live/s_g', 'rtmp://cdn/x|y'],
        },
      ],
      thumbnailFile: '/d/t.jpg',
    });
    assert.ok(
      args.includes(
        '[f=flv]rtmp://127.0.0.1/live/s_g-1|[f=flv:onfail=ignore]rtmp://127.0.0.1/live/s_g|[f=flv:onfail=ignore]rtmp://cdn/x\\|y',
      ),
      args.join(' '),
    );
  });

  it('reads the test pattern, files and live addresses each their own way', () => {
    const pattern = pullInputArgs('testsrc://320x180');
    assert.ok(pattern.includes('testsrc2=size=320x180:rate=25'));
    assert.ok(pullInputArgs('testsrc://').includes('testsrc2=size=640x360:rate=25'));
    // Local files are no source (security.pull.test.ts); an on-demand HTTP file loops at its own speed.
    assert.throws(() => pullInputArgs('file:///media/a%20b.mp4'), /pullStream must be a stream address/);
    const onDemand = pullInputArgs('https://host/v.mp4');
    assert.equal(after(onDemand, '-stream_loop'), '-1');
    assert.ok(onDemand.includes('-reconnect'));
    const live = pullInputArgs('rtmp://host/live/x');
    assert.ok(!live.includes('-re'));
    assert.equal(after(live, '-protocol_whitelist'), 'rtmp,tcp');
  });
});
