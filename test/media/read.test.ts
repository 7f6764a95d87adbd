/**
 * The in-process media reader (src/media/read.ts) on real media made by ffmpeg (found as the project finds it: the
 * PATH, else the npm packages): MPEG-TS and fMP4 segments of a 2-variant ladder, a whole MP4 with B-frames, the same
 * as FLV. What it reads is checked against what the encoder was told, and against ffprobe where a working ffprobe
 * is found (the cross-check is skipped, not the test, without one).
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NotMediaError, readMedia, type MediaReading } from '../../src/media/read';
import { findMediaTools, runTool, type MediaTools } from '../../src/media/tools';
import { LADDER_CODECS, makeLadder } from '../inspector/golden';
import { probePackets, workingFfprobe } from './ffprobe';

/** Key packets' presentation times, video packets' PTS and DTS, as the reader gives them (ms, rounded). */
function videoPackets(reading: MediaReading): Array<{ pts: number; dts: number; key: boolean }> {
  return (reading.packets ?? [])
    .filter((p) => p.track === 'video')
    .map((p) => ({ pts: Math.round(p.pts * 1000), dts: Math.round(p.dts * 1000), key: p.key }));
}

/** The reader's packets against ffprobe's: the same PTS and key flags in decode order, DTS off by one constant. */
async function crossCheck(ffprobe: string | undefined, file: string, reading: MediaReading): Promise<void> {
  if (!ffprobe) return;
  const theirs = (await probePackets(ffprobe, file)).map((p) => ({
    pts: Math.round(p.pts * 1000),
    dts: Math.round(p.dts * 1000),
    key: p.key,
  }));
  const ours = videoPackets(reading);
  assert.deepEqual(
    ours.map((p) => [p.pts, p.key]),
    theirs.map((p) => [p.pts, p.key]),
  );
  const offsets = new Set(ours.map((p, i) => p.dts - theirs[i]!.dts));
  assert.ok(offsets.size === 1, `DTS differ from ffprobe's by more than one constant: ${[...offsets].join(', ')}`);
}

describe('media reader: media read in-process (no ffprobe)', function () {
  this.timeout(120_000);
  let tools: MediaTools;
  let ffprobe: string | undefined;
  let tmp: string;

  before(async () => {
    const mode = await findMediaTools({ npmFallback: true });
    if (mode.kind !== 'real') throw new Error(`these tests make media with ffmpeg: ${mode.reason}`);
    tools = mode.tools;
    ffprobe = await workingFfprobe();
    tmp = mkdtempSync(join(tmpdir(), 'vpt-read-'));
    mkdirSync(join(tmp, 'ts'));
    await makeLadder(tools, join(tmp, 'ts'), { variants: 2 });
    mkdirSync(join(tmp, 'fmp4'));
    await makeLadder(tools, join(tmp, 'fmp4'), { variants: 2, segmentType: 'fmp4' });
    // 3 s of High profile with B-frames and a keyframe every second, then the same remuxed to FLV.
    await runTool(tools.ffmpeg, [
      ...['-hide_banner', '-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=320x180:rate=25:duration=3'],
      ...['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=44100:duration=3', '-c:v', 'libx264'],
      ...['-preset', 'veryfast', '-profile:v', 'high', '-level:v', '3.1', '-g', '25', '-keyint_min', '25'],
      ...['-sc_threshold', '0', '-bf', '2', '-c:a', 'aac', '-movflags', '+faststart', join(tmp, 'clip.mp4')],
    ]);
    await runTool(tools.ffmpeg, [
      '-v',
      'error',
      '-y',
      '-i',
      join(tmp, 'clip.mp4'),
      '-c',
      'copy',
      join(tmp, 'clip.flv'),
    ]);
  });
  after(() => rmSync(tmp, { recursive: true, force: true }));

  it('reads an MPEG-TS segment of each variant: codecs as RFC 6381 writes them, picture, timing, keyframes', async () => {
    for (const [variant, size] of [
      ['v0', [320, 180]],
      ['v1', [256, 144]],
    ] as const) {
      const file = join(tmp, 'ts', `${variant}_001.ts`);
      const reading = await readMedia(readFileSync(file), { packets: true });
      assert.equal(reading.container, 'mpegts');
      assert.equal([reading.video?.codecString, reading.audio?.codecString].join(','), LADDER_CODECS);
      assert.deepEqual([reading.video?.codec, reading.video?.profile, reading.video?.level], ['h264', 'High', 30]);
      assert.deepEqual([reading.video?.width, reading.video?.height], size);
      assert.equal(reading.video?.frameRate, 25);
      assert.equal(reading.video?.packets, 25);
      // One second of video (the segment length), measured from its first and last packets.
      assert.ok(Math.abs(reading.video!.end - reading.video!.start - 1) < 0.001, String(reading.video!.end));
      assert.equal(reading.video?.startsWithKeyframe, true);
      assert.deepEqual(reading.video?.keyframes, [reading.video!.start]);
      // Audio starts with the video, within the two frames the B-frames delay the first picture by (and an AAC frame).
      assert.ok(Math.abs(reading.audio!.start - reading.video!.start) < 0.11, String(reading.audio!.start));
      assert.equal(reading.bytes, readFileSync(file).length);
      await crossCheck(ffprobe, file, reading);
    }
  });

  it('reads an fMP4 segment with its init section (EXT-X-MAP) in front, and not without it', async () => {
    const init = readFileSync(join(tmp, 'fmp4', 'v1_init.mp4'));
    const segment = readFileSync(join(tmp, 'fmp4', 'v1_001.m4s'));
    const reading = await readMedia(segment, { init, packets: true });
    assert.equal(reading.container, 'mp4');
    assert.equal([reading.video?.codecString, reading.audio?.codecString].join(','), LADDER_CODECS);
    assert.deepEqual([reading.video?.width, reading.video?.height], [256, 144]);
    assert.equal(reading.video?.packets, 25);
    assert.equal(reading.video?.startsWithKeyframe, true);
    if (ffprobe) {
      const joined = join(tmp, 'joined.mp4');
      writeFileSync(joined, Buffer.concat([init, segment]));
      await crossCheck(ffprobe, joined, reading);
    }
    await assert.rejects(readMedia(segment), NotMediaError);
  });

  it('reads a whole MP4 with B-frames: every keyframe, PTS and DTS in decode order, duration and bit rate', async () => {
    const file = join(tmp, 'clip.mp4');
    const reading = await readMedia(file, { packets: true });
    assert.equal(reading.container, 'mp4');
    assert.equal(reading.video?.codecString, 'avc1.64001f');
    assert.equal(reading.audio?.codecString, 'mp4a.40.2');
    assert.deepEqual(reading.video?.keyframes, [0, 1, 2]);
    assert.equal(reading.frameCount, 75);
    assert.ok(Math.abs(reading.duration - 3) < 0.05, String(reading.duration));
    const packets = videoPackets(reading);
    assert.ok(
      packets.some((p) => p.dts < p.pts),
      'B-frames: some packets decode before they are shown',
    );
    assert.ok(packets.every((p, i) => p.dts <= p.pts && (i === 0 || p.dts > packets[i - 1]!.dts)));
    assert.ok(reading.bitRate! > 0 && reading.video!.bitRate! < reading.bitRate!);
    await crossCheck(ffprobe, file, reading);
    // The first second only: not complete, the whole length from the container.
    const start = await readMedia(file, { maxSeconds: 1 });
    assert.equal(start.complete, false);
    assert.ok(start.video!.packets < 40, String(start.video!.packets));
    assert.ok(Math.abs(start.wholeDuration! - 3) < 0.05, String(start.wholeDuration));
  });

  it('reads FLV with its own tag reader: the AVC configuration gives the codec string and the picture', async () => {
    const file = join(tmp, 'clip.flv');
    const reading = await readMedia(file, { packets: true });
    const mp4 = await readMedia(join(tmp, 'clip.mp4'));
    assert.equal(reading.container, 'flv');
    assert.equal(reading.video?.codecString, mp4.video?.codecString);
    assert.equal(reading.audio?.codecString, 'mp4a.40.2');
    assert.deepEqual(
      [reading.video?.width, reading.video?.height, reading.video?.profile, reading.video?.level],
      [320, 180, 'High', 31],
    );
    assert.deepEqual([reading.audio?.sampleRate, reading.audio?.channels], [44100, 1]);
    assert.equal(reading.frameCount, 75);
    assert.equal(reading.video?.frameRate, 25);
    // FLV carries DTS in milliseconds and a composition offset: the keyframes one second apart, as in the MP4.
    const keys = reading.video!.keyframes;
    assert.deepEqual(
      keys.map((k) => Math.round((k - keys[0]!) * 1000)),
      [0, 1000, 2000],
    );
    await crossCheck(ffprobe, file, reading);
  });

  it('reads a playlist, a concat list and text as not media: nothing they name is followed', async () => {
    const segment = join(tmp, 'ts', 'v0_000.ts');
    const inputs = [
      `#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:1,\nfile://${segment}\n#EXT-X-ENDLIST\n`,
      `ffconcat version 1.0\nfile '${segment}'\n`,
      'not media at all\n'.repeat(100),
    ];
    for (const text of inputs) {
      const file = join(tmp, 'indirect');
      writeFileSync(file, text);
      await assert.rejects(
        readMedia(file),
        (error: unknown) =>
          error instanceof NotMediaError && /not a media container this reader knows/.test(error.message),
      );
    }
  });
});
