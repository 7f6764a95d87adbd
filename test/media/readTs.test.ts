/**
 * MPEG-TS segments in memory read in one pass (src/media/readTs.ts) give the very reading mediabunny gives on its
 * own (the same file read from disk, which takes mediabunny's path), packet by packet, on real segments made by
 * ffmpeg: H.264 with B-frames and AAC at two sample rates, video alone, audio alone, each segment after the first
 * cut from the middle of a stream; and a shape it does not read (MP3 audio) is left to mediabunny and still read.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readMedia } from '../../src/media/read';
import { readTsPackets } from '../../src/media/readTs';
import { findMediaTools, runTool, type MediaTools } from '../../src/media/tools';

describe('media reader: MPEG-TS in one pass, as mediabunny reads it', function () {
  this.timeout(120_000);
  let tools: MediaTools;
  let dir: string;

  before(async () => {
    const mode = await findMediaTools({ npmFallback: true });
    if (mode.kind !== 'real') throw new Error(mode.reason);
    tools = mode.tools;
    dir = mkdtempSync(join(tmpdir(), 'vpt-read-ts-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  /** 5 s cut into HLS segments of 2 s by ffmpeg with the given inputs and codec arguments; the segment files. */
  async function segments(name: string, inputs: string[], codecs: string[]): Promise<string[]> {
    const out = join(dir, name);
    mkdirSync(out);
    await runTool(tools.ffmpeg, [
      ...['-hide_banner', '-v', 'error', ...inputs, ...codecs],
      ...['-f', 'hls', '-hls_time', '2', '-hls_playlist_type', 'vod', '-hls_segment_filename'],
      ...[join(out, 's%d.ts'), join(out, 'index.m3u8')],
    ]);
    return readdirSync(out)
      .filter((f) => f.endsWith('.ts'))
      .sort()
      .map((f) => join(out, f));
  }

  const VIDEO = ['-f', 'lavfi', '-i', 'testsrc2=size=640x360:rate=25:duration=5'];
  const audio = (rate: number): string[] => ['-f', 'lavfi', '-i', `sine=duration=5:sample_rate=${rate}`];
  // x264's medium preset: B-frames (presentation order differs from decode order), keyframes every second.
  const H264 = ['-c:v', 'libx264', '-preset', 'medium', '-g', '25', '-pix_fmt', 'yuv420p'];

  async function sameAsMediabunny(files: string[], shape: { video: boolean; audio: boolean }): Promise<void> {
    assert.ok(files.length >= 2, `${files.length} segments`);
    for (const file of files) {
      const bytes = readFileSync(file);
      const fast = readTsPackets(bytes, { verify: true, sampleRate: 48_000 });
      assert.ok(fast, `${file} is read in one pass`);
      assert.equal(Boolean(fast.video), shape.video);
      assert.equal(Boolean(fast.audio), shape.audio);
      for (const verifyKeyframes of [true, false]) {
        const ours = await readMedia(bytes, { packets: true, verifyKeyframes });
        const theirs = await readMedia(file, { packets: true, verifyKeyframes });
        assert.deepEqual(ours, theirs, `${file}, verifyKeyframes ${verifyKeyframes}`);
      }
    }
  }

  it('reads H.264 with B-frames and 48 kHz AAC as mediabunny does', async () => {
    const files = await segments('av48', [...VIDEO, ...audio(48_000)], [...H264, '-c:a', 'aac']);
    await sameAsMediabunny(files, { video: true, audio: true });
    const reading = await readMedia(readFileSync(files[0]!), { packets: true });
    const video = (reading.packets ?? []).filter((p) => p.track === 'video');
    assert.ok(
      video.some((p, i) => i > 0 && p.pts < video[i - 1]!.pts),
      'B-frames: some packet is shown before the one decoded before it',
    );
    assert.deepEqual(reading.video!.keyframes.length, 2, 'a keyframe every second of a 2 s segment');
  });

  it('reads 44.1 kHz AAC (frames not a whole number of 90 kHz ticks), video alone and audio alone', async () => {
    await sameAsMediabunny(await segments('av44', [...VIDEO, ...audio(44_100)], [...H264, '-c:a', 'aac']), {
      video: true,
      audio: true,
    });
    await sameAsMediabunny(await segments('v', VIDEO, H264), { video: true, audio: false });
    await sameAsMediabunny(await segments('a', audio(48_000), ['-c:a', 'aac']), { video: false, audio: true });
  });

  it('leaves a segment it does not read (MP3 audio) to mediabunny, which reads it', async () => {
    const [file] = await segments('mp3', [...VIDEO, ...audio(48_000)], [...H264, '-c:a', 'libmp3lame']);
    const bytes = readFileSync(file!);
    assert.equal(readTsPackets(bytes, { verify: true, sampleRate: 48_000 }), undefined);
    const reading = await readMedia(bytes, { packets: true });
    assert.equal(reading.audio?.codec, 'mp3');
    assert.equal(reading.video?.codec, 'h264');
    assert.deepEqual(reading, await readMedia(file!, { packets: true, verifyKeyframes: true }));
  });
});
