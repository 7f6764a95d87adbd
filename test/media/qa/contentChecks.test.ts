/**
 * The content checks (src/media/qa) on real media made here by ffmpeg (found as the project finds it: the PATH,
 * else the npm packages' 4.1): a 20 s clip with black at 4–6 s, a frozen picture at 9–12 s, silence at 14–17 s and
 * a 1 kHz tone at -10 dBFS, which reads -13 LUFS: 10 LU louder than EBU R 128's -23.
 *
 * Tolerance of the times: 0.1 s. Pictures come every 40 ms (25 fps) and blackdetect/freezedetect report frame
 * times; silencedetect reports sample times, but the AAC encoder works in 1024-sample frames (21 ms at 48 kHz) and
 * smears an edge over one of them. 0.1 s is two and a half video frames: wider than either, narrower than any
 * mistake that would put a finding in the wrong place.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkContent, TARGETS, type QaFinding } from '../../../src/media/qa/checks';
import { parseQaArgs } from '../../../src/media/qa/cli';
import { measureContent, QaInputError } from '../../../src/media/qa/measure';
import type { ContentMeasurement } from '../../../src/media/qa/model';
import { stillsFor } from '../../../src/media/qa/stills';
import { findMediaTools, runTool, type MediaTools } from '../../../src/media/tools';
import { makeClip } from './fixtures';

const TOLERANCE = 0.1;

function near(actual: number, expected: number, what: string): void {
  assert.ok(
    Math.abs(actual - expected) <= TOLERANCE,
    `${what}: ${actual.toFixed(3)} s, expected ${expected} s ± ${TOLERANCE}`,
  );
}

function only(findings: readonly QaFinding[], code: string): QaFinding {
  const found = findings.filter((f) => f.code === code);
  assert.equal(found.length, 1, `one ${code}, got ${JSON.stringify(findings, null, 1)}`);
  return found[0]!;
}

function expectTheClipsFindings(m: ContentMeasurement): QaFinding[] {
  const findings = checkContent(m, TARGETS.ebu);
  const black = only(findings, 'QA-BLACK');
  near(black.range!.start, 4, 'black start');
  near(black.range!.end, 6, 'black end');
  const frozen = only(findings, 'QA-FROZEN');
  near(frozen.range!.start, 9, 'freeze start');
  near(frozen.range!.end, 12, 'freeze end');
  const silence = only(findings, 'QA-SILENCE');
  near(silence.range!.start, 14, 'silence start');
  near(silence.range!.end, 17, 'silence end');
  const loud = only(findings, 'QA-LOUDNESS-HIGH');
  assert.equal(loud.severity, 'error');
  assert.ok(Math.abs(m.loudness!.integrated - -13) <= 0.5, `integrated ${m.loudness!.integrated} LUFS`);
  assert.match(loud.message, /LU above the EBU R 128 target of -23 LUFS/);
  assert.match(loud.clause, /EBU R 128/);
  // A -10 dBFS sine's true peak is about -10 dBTP (AAC adds a little): below every ceiling.
  assert.ok(m.loudness!.truePeak! < -8 && m.loudness!.truePeak! > -11, `true peak ${m.loudness!.truePeak}`);
  assert.ok(!findings.some((f) => f.code === 'QA-TRUE-PEAK-HIGH'));
  return findings;
}

describe('content checks: loudness, black, frozen, silence on real media', function () {
  this.timeout(180_000);
  let tools: MediaTools;
  let tmp: string;
  let clip: string;

  before(async () => {
    const mode = await findMediaTools({ npmFallback: true });
    if (mode.kind !== 'real') throw new Error(`these tests make media with ffmpeg: ${mode.reason}`);
    tools = mode.tools;
    tmp = mkdtempSync(join(tmpdir(), 'vpt-qa-test-'));
    clip = join(tmp, 'clip.mp4');
    await makeClip(tools, clip);
  });

  after(() => rmSync(tmp, { recursive: true, force: true }));

  it('finds the black gap, the frozen stretch, the silence and the 10 LU too loud audio, each at its time', async () => {
    const m = await measureContent(tools.ffmpeg, clip);
    assert.ok(Math.abs(m.duration - 20) < 0.2, `duration ${m.duration}`);
    assert.equal(m.complete, true);
    const findings = expectTheClipsFindings(m);
    // The black stretch is also a still picture: reported as black only.
    assert.equal(findings.filter((f) => f.code === 'QA-FROZEN').length, 1);
    // MP4 with AAC: the audio starts within EBU R 37's window of the video.
    assert.ok(!findings.some((f) => f.code === 'QA-AV-OFFSET'));
  });

  it('judges the same loudness against the chosen target', async () => {
    const m = await measureContent(tools.ffmpeg, clip);
    // -13 LUFS is within ±1 LU of the -14 LUFS streaming target, and 11 LU above ATSC's -24 LKFS.
    assert.ok(!checkContent(m, TARGETS['stream-14']).some((f) => f.code.startsWith('QA-LOUDNESS')));
    assert.match(only(checkContent(m, TARGETS.atsc), 'QA-LOUDNESS-HIGH').message, /above the ATSC A\/85 target of -24/);
    assert.match(only(checkContent(m, TARGETS['stream-16']), 'QA-LOUDNESS-HIGH').message, /-16 LUFS/);
  });

  it('measures segment files in playing order as one timeline', async () => {
    const segments = join(tmp, 'segments');
    rmSync(segments, { recursive: true, force: true });
    await runTool(tools.ffmpeg, [
      '-hide_banner',
      '-v',
      'error',
      '-y',
      '-i',
      clip,
      '-c',
      'copy',
      '-f',
      'hls',
      '-hls_time',
      '4',
      '-hls_playlist_type',
      'vod',
      '-hls_segment_filename',
      join(tmp, 'seg%02d.ts'),
      join(tmp, 'index.m3u8'),
    ]);
    const files = readdirSync(tmp)
      .filter((name) => /^seg\d+\.ts$/.test(name))
      .sort()
      .map((name) => join(tmp, name));
    assert.ok(files.length >= 4, `segments: ${files.join(', ')}`);
    const m = await measureContent(tools.ffmpeg, files);
    assert.equal(m.files, files.length);
    expectTheClipsFindings(m);
  });

  it('gives a still at each timed finding: the black one is black', async () => {
    const m = await measureContent(tools.ffmpeg, clip);
    const findings = checkContent(m, TARGETS.ebu);
    const stills = await stillsFor(tools.ffmpeg, m, clip, findings);
    assert.deepEqual(
      stills.map((s) => s.finding.code),
      ['QA-BLACK', 'QA-FROZEN', 'QA-SILENCE'],
    );
    for (const s of stills) assert.equal(s.jpeg.subarray(0, 2).toString('hex'), 'ffd8', 'a JPEG');
    // Mean luma of each still (ffmpeg's signalstats): black is near 16 (video range), the test pattern far above.
    const luma = async (jpeg: Buffer): Promise<number> => {
      const file = join(tmp, 'still.jpg');
      writeFileSync(file, jpeg);
      const { stderr } = await runTool(tools.ffmpeg, [
        '-hide_banner',
        '-nostdin',
        '-i',
        file,
        '-vf',
        'signalstats,metadata=print:key=lavfi.signalstats.YAVG',
        '-f',
        'null',
        '-',
      ]);
      return Number(/YAVG=([\d.]+)/.exec(stderr)?.[1]);
    };
    assert.ok((await luma(stills[0]!.jpeg)) < 25, 'the black still is black');
    assert.ok((await luma(stills[1]!.jpeg)) > 60, 'the frozen still shows the picture');
  });

  it('measures the audio/video start offset from the media', async () => {
    const late = join(tmp, 'late.ts');
    await runTool(tools.ffmpeg, [
      ...['-hide_banner', '-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=s=320x180:r=25:d=4'],
      ...['-itsoffset', '0.5', '-f', 'lavfi', '-i', 'sine=frequency=1000:d=3.5:sample_rate=48000'],
      ...['-c:v', 'libx264', '-preset', 'ultrafast', '-c:a', 'aac', '-f', 'mpegts', late],
    ]);
    const m = await measureContent(tools.ffmpeg, late);
    // The AAC encoder's priming (1024 samples, 21 ms) comes off the 0.5 s: 40 ms either way is allowed for it.
    assert.ok(Math.abs(m.startOffset!.audioLag - 0.5) < 0.04, `audio lag ${m.startOffset!.audioLag}`);
    const offset = only(checkContent(m), 'QA-AV-OFFSET');
    assert.match(offset.message, /Audio starts 4\d\d ms after the video/);
    assert.match(offset.clause, /EBU R 37/);
  });

  it('stops ffmpeg when cancelled', async () => {
    const controller = new AbortController();
    let pid: number | undefined;
    let watched: () => void = () => undefined;
    const started = new Promise<void>((resolve) => (watched = resolve));
    const run = measureContent(tools.ffmpeg, clip, {
      signal: controller.signal,
      track: { watch: (p) => ((pid = p), watched()), forget: () => undefined },
    });
    await started;
    controller.abort();
    await assert.rejects(run, { name: 'AbortError' });
    // Killed with SIGKILL: gone (signal 0 fails) once reaped.
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.throws(() => process.kill(pid!, 0), 'ffmpeg still runs after the cancel');
  });

  it('refuses what is not a local media file, naming the input, before running ffmpeg', async () => {
    let ran = false;
    const track = { watch: () => void (ran = true), forget: () => undefined };
    const playlist = join(tmp, 'list.m3u8');
    writeFileSync(playlist, '#EXTM3U\n#EXTINF:4,\nfile:///etc/passwd\n');
    await assert.rejects(
      measureContent(tools.ffmpeg, playlist, { track }),
      (e: Error) => e instanceof QaInputError && /inputs: .*list\.m3u8.* not media/.test(e.message),
    );
    await assert.rejects(
      measureContent(tools.ffmpeg, 'http://127.0.0.1:9/a.mp4', { track }),
      /inputs: "http:\/\/127\.0\.0\.1:9\/a\.mp4" is an address/,
    );
    await assert.rejects(
      measureContent(tools.ffmpeg, join(tmp, 'missing.mp4'), { track }),
      /inputs: .*missing\.mp4" is not a file/,
    );
    await assert.rejects(
      measureContent(tools.ffmpeg, clip, { track, maxBytes: 1000 }),
      /inputs: .* GiB in all, more than/,
    );
    await assert.rejects(measureContent(tools.ffmpeg, [clip, clip], { track, maxFiles: 1 }), /inputs: at most 1 files/);
    assert.equal(ran, false, 'ffmpeg was started for a refused input');
  });

  it('the command line names a bad option and its rule', () => {
    assert.throws(
      () => parseQaArgs(['a.mp4', '--target', 'loud']),
      /target: use one of ebu, atsc, stream-14, stream-16 \(not "loud"\)/,
    );
    assert.throws(() => parseQaArgs(['a.mp4', '--format', 'xml']), /--format: use text or json/);
    assert.throws(() => parseQaArgs(['a.mp4', '--max-seconds=-3']), /--max-seconds needs a number of seconds above 0/);
    // A value that looks like an option is named with how to give it (node:util parseArgs).
    assert.throws(
      () => parseQaArgs(['a.mp4', '--max-seconds', '-3']),
      /'--max-seconds' argument is ambiguous.*--max-seconds=-XYZ/,
    );
    assert.throws(() => parseQaArgs([]), /no file given/);
    assert.equal(parseQaArgs(['a.mp4', '--target', 'atsc', '--format', 'json']).target.name, 'atsc');
  });
});
