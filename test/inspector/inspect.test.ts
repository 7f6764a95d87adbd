import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { build } from 'esbuild';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MediaTools } from '../../src/media/tools';
import { runTool } from '../../src/media/tools';
import type { FindingCode } from '../../src/inspector/findings';
import { inspect } from '../../src/inspector/inspect';
import type { Report } from '../../src/inspector/report';
import { nodeFetch } from '../../src/inspector/source';
import { edit, makeLadder, realTools, serve, type Route } from './golden';

const ROOT = join(__dirname, '..', '..');

function codes(report: Report, severity?: string): FindingCode[] {
  return report.findings.filter((f) => !severity || f.severity === severity).map((f) => f.code);
}

let cliBundle: string;
function runCli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cliBundle, ...args], { cwd: ROOT });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('inspector: golden HLS streams, each with one known defect', function () {
  this.timeout(120_000);
  let tools: MediaTools;
  let tmp: string;
  let server: Awaited<ReturnType<typeof serve>>;
  const routes: Record<string, Route> = {};
  const dirs: Record<string, string> = {};

  const ladder = async (name: string, options: Parameters<typeof makeLadder>[2] = {}): Promise<string> => {
    const dir = join(tmp, name);
    mkdirSync(dir);
    await makeLadder(tools, dir, options);
    dirs[name] = dir;
    return dir;
  };
  const run = (path: string, liveSeconds = 0): Promise<Report> =>
    inspect(`${server.url}${path}`, { fetch: nodeFetch, liveSeconds });

  before(async () => {
    tools = await realTools();
    tmp = mkdtempSync(join(tmpdir(), 'vpt-golden-'));
    // The CLI as `npm run inspect` runs it: bundled the way scripts/build.mjs bundles it.
    cliBundle = join(tmp, 'inspect.js');
    await build({
      entryPoints: [join(ROOT, 'src/inspector/cli.ts')],
      outfile: cliBundle,
      bundle: true,
      platform: 'node',
      format: 'cjs',
      logLevel: 'warning',
      external: ['@ffmpeg-installer/ffmpeg', '@ffprobe-installer/ffprobe'],
    });
    await ladder('clean');
    await ladder('bandwidth');
    edit(join(dirs.bandwidth!, 'master.m3u8'), (t) =>
      t.replace(/(#EXT-X-STREAM-INF:BANDWIDTH=)\d+(.*\n)v1\.m3u8/, '$150000$2v1.m3u8'),
    );
    await ladder('target');
    edit(join(dirs.target!, 'v2.m3u8'), (t) =>
      t.replace('#EXTINF:1.000000,\nv2_001.ts', '#EXTINF:2.600000,\nv2_001.ts'),
    );
    await ladder('misaligned', { gops: [25, 40, 25] });
    await ladder('split', { variants: 1, gops: [100], splitByTime: true });
    // 0.3 s of audio cut out across the boundary of the first two segments (1 s), its timestamps kept: a dropout
    // under the half second of a timestamp jump.
    await ladder('audio-gap', { variants: 1, audioFilter: "aselect='not(between(t,0.85,1.15))'" });
    await ladder('resolution');
    edit(join(dirs.resolution!, 'master.m3u8'), (t) => t.replace('RESOLUTION=256x144', 'RESOLUTION=1280x720'));
    // AES-128: the key file's URI is served by a route that answers 404, a wrong key, or the key.
    const key = randomBytes(16);
    writeFileSync(join(tmp, 'key.bin'), key);
    writeFileSync(join(tmp, 'keyinfo'), `/key\n${join(tmp, 'key.bin')}\n`);
    await ladder('aes', { variants: 1, keyInfoFile: join(tmp, 'keyinfo') });
    for (const [path, body] of [
      ['/aes-404/master.m3u8', undefined],
      ['/aes-wrong/master.m3u8', randomBytes(16)],
      ['/aes-good/master.m3u8', key],
    ] as const) {
      const prefix = path.slice(0, path.lastIndexOf('/'));
      routes[`${prefix}/key`] = (_req, res) =>
        body ? res.writeHead(200, { 'content-length': 16 }).end(body) : res.writeHead(404).end();
      const playlist = readFileSync(join(dirs.aes!, 'v0.m3u8'), 'utf8').replace(/URI="\/key"/g, `URI="${prefix}/key"`);
      routes[`${prefix}/v0.m3u8`] = (_req, res) => res.writeHead(200).end(playlist);
      routes[path] = (_req, res) => res.writeHead(200).end(readFileSync(join(dirs.aes!, 'master.m3u8')));
      for (const n of [0, 1, 2, 3]) {
        routes[`${prefix}/v0_00${n}.ts`] = (req, res) => {
          const data = readFileSync(join(dirs.aes!, `v0_00${n}.ts`));
          res.writeHead(200, { 'content-length': data.length }).end(req.method === 'HEAD' ? undefined : data);
        };
      }
    }
    // Live: a sliding window of 3 one-second segments over 8 that advances once a second, and one that
    // freezes after 2 seconds.
    await ladder('live', { variants: 1, seconds: 8 });
    const window = (frozenAfter: number): Route => {
      let first: number | undefined;
      return (_req, res) => {
        first ??= Date.now();
        const sequence = Math.min(Math.floor((Date.now() - first) / 1000), frozenAfter, 5);
        const lines = ['#EXTM3U', '#EXT-X-VERSION:3', '#EXT-X-TARGETDURATION:1', `#EXT-X-MEDIA-SEQUENCE:${sequence}`];
        for (let i = sequence; i < sequence + 3; i++) lines.push('#EXTINF:1.000000,', `/live/v0_00${i}.ts`);
        res.writeHead(200).end(lines.join('\n') + '\n');
      };
    };
    routes['/live-frozen.m3u8'] = window(1);
    // Program date-times a minute old with a 3-second jump, and a media sequence that goes back on reload.
    let reads = 0;
    routes['/live-odd.m3u8'] = (_req, res) => {
      const sequence = reads++ === 0 ? 3 : 1;
      const start = Date.now() - 60_000;
      const lines = ['#EXTM3U', '#EXT-X-VERSION:3', '#EXT-X-TARGETDURATION:1', `#EXT-X-MEDIA-SEQUENCE:${sequence}`];
      for (let i = 0; i < 3; i++) {
        const pdt = new Date(start + i * 1000 + (i === 2 ? 3000 : 0)).toISOString();
        lines.push(`#EXT-X-PROGRAM-DATE-TIME:${pdt}`, '#EXTINF:1.000000,', `/live/v0_00${sequence + i}.ts`);
      }
      res.writeHead(200).end(lines.join('\n') + '\n');
    };
    routes['/live-advancing.m3u8'] = window(Infinity);
    server = await serve(tmp, routes);
  });
  after(async () => {
    await server?.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  it('finds no errors in a clean 3-variant ladder with aligned keyframes, and measures each variant', async () => {
    const report = await run('/clean/master.m3u8');
    assert.equal(report.kind, 'hls-master');
    assert.deepEqual(codes(report, 'error'), [], JSON.stringify(report.findings, null, 1));
    assert.ok(!codes(report).includes('HLS-KEYFRAMES-NOT-ALIGNED'));
    assert.deepEqual(
      report.variants.map((v) => [v.name, v.measured.resolution, v.measured.bandwidthFrom]),
      [
        ['v0.m3u8', '320x180', 'all-segments'],
        ['v1.m3u8', '256x144', 'all-segments'],
        ['v2.m3u8', '160x90', 'all-segments'],
      ],
    );
    assert.match(report.variants[0]!.measured.codecs!, /^h264 .*, aac/);
    assert.equal(report.variants[0]!.measured.keyframeInterval?.mean, 1);
    // A VOD of fewer segments than the bound is read whole (not first, middle and last).
    assert.deepEqual(report.variants[0]!.sampledSegments, ['0', '1', '2', '3']);
  });

  it('finds a variant whose declared bandwidth is far below its measured peak', async () => {
    const report = await run('/bandwidth/master.m3u8');
    const found = report.findings.filter((f) => f.code === 'HLS-BANDWIDTH-MISMATCH');
    assert.equal(found.length, 1);
    assert.equal(found[0]!.variant, 'v1.m3u8');
    assert.equal(found[0]!.severity, 'error');
    assert.match(found[0]!.message, /BANDWIDTH declares 50 kb\/s, but segment v1_\d+\.ts peaks at \d+ kb\/s/);
    assert.match(found[0]!.clause, /RFC 8216 4\.3\.4\.2/);
  });

  it('finds a segment longer than the target duration', async () => {
    const report = await run('/target/master.m3u8');
    const found = report.findings.filter((f) => f.code === 'HLS-SEGMENT-LONGER-THAN-TARGET');
    assert.equal(found.length, 1, JSON.stringify(report.findings, null, 1));
    assert.equal(found[0]!.variant, 'v2.m3u8');
    assert.match(found[0]!.message, /2\.6 s, longer than the target duration of 1 s/);
  });

  it('finds keyframes not aligned across variants', async () => {
    const report = await run('/misaligned/master.m3u8');
    const found = report.findings.filter((f) => f.code === 'HLS-KEYFRAMES-NOT-ALIGNED');
    assert.ok(found.length >= 1, JSON.stringify(report.findings, null, 1));
    assert.ok(found.every((f) => f.variant === 'v1.m3u8'));
    assert.deepEqual(
      codes(await run('/clean/master.m3u8')).filter((c) => c === 'HLS-KEYFRAMES-NOT-ALIGNED'),
      [],
    );
  });

  it('finds segments that do not start with an IDR frame', async () => {
    const report = await run('/split/master.m3u8');
    const found = report.findings.filter((f) => f.code === 'HLS-SEGMENT-NOT-IDR-START');
    assert.ok(found.length >= 1);
    assert.ok(
      found.every((f) => f.segment !== 'v0_000.ts'),
      'the first segment starts with the first keyframe',
    );
    assert.ok(codes(report).includes('HLS-KEYFRAME-INTERVAL'));
    assert.ok(report.variants[0]!.measured.keyframeInterval!.mean > 2);
  });

  it('finds a 0.3 s audio gap between two segments of real media, and none in the clean ladder', async () => {
    const report = await run('/audio-gap/master.m3u8');
    const found = report.findings.filter((f) => f.code === 'HLS-AUDIO-GAP');
    assert.equal(found.length, 1, JSON.stringify(report.findings, null, 1));
    assert.equal(found[0]!.segment, 'v0_001.ts');
    // ffmpeg keeps whole AAC frames: the gap is 0.3 s give or take a frame on either side.
    const ms = Number(/starts (\d+) ms after the audio of segment v0_000\.ts ends/.exec(found[0]!.message)?.[1]);
    assert.ok(ms > 250 && ms < 350, found[0]!.message);
    assert.ok(!codes(report).includes('HLS-TIMESTAMP-JUMP'));
    assert.deepEqual(
      codes(await run('/clean/master.m3u8')).filter((c) => c === 'HLS-AUDIO-GAP'),
      [],
    );
  });

  it('finds a declared resolution that the video does not have', async () => {
    const report = await run('/resolution/master.m3u8');
    const found = report.findings.filter((f) => f.code === 'HLS-RESOLUTION-MISMATCH');
    assert.equal(found.length, 1);
    assert.equal(found[0]!.variant, 'v1.m3u8');
    assert.match(found[0]!.message, /RESOLUTION declares 1280x720, the video is 256x144/);
  });

  it('finds an AES-128 key that answers 404, and a key that does not decrypt; a good key decrypts', async () => {
    const missing = await run('/aes-404/master.m3u8');
    assert.ok(codes(missing, 'error').includes('HLS-KEY-UNAVAILABLE'), JSON.stringify(missing.findings, null, 1));
    assert.match(missing.findings.find((f) => f.code === 'HLS-KEY-UNAVAILABLE')!.message, /HTTP 404/);
    const wrong = await run('/aes-wrong/master.m3u8');
    assert.ok(codes(wrong, 'error').includes('HLS-DECRYPT-FAILED'), JSON.stringify(wrong.findings, null, 1));
    assert.ok(!codes(wrong).includes('HLS-KEY-UNAVAILABLE'));
    const good = await run('/aes-good/master.m3u8');
    assert.deepEqual(codes(good, 'error'), [], JSON.stringify(good.findings, null, 1));
    assert.equal(good.variants[0]!.encryption, 'AES-128');
    assert.equal(good.variants[0]!.measured.resolution, '320x180');
  });

  it('finds a live playlist that stops advancing, and not one that advances', async () => {
    const frozen = await run('/live-frozen.m3u8', 3.5);
    assert.equal(frozen.live, true);
    assert.ok(codes(frozen, 'error').includes('HLS-LIVE-PLAYLIST-STALE'), JSON.stringify(frozen.findings, null, 1));
    assert.ok((frozen.sampled.playlistReloads ?? 0) >= 4);
    const advancing = await run('/live-advancing.m3u8', 2.5);
    assert.ok(!codes(advancing).includes('HLS-LIVE-PLAYLIST-STALE'), JSON.stringify(advancing.findings, null, 1));
    const once = await run('/live-advancing.m3u8', 0);
    assert.ok(codes(once).includes('HLS-LIVE-NOT-WATCHED'));
  });

  it('finds program date-time drift, a live edge far behind the clock and a media sequence going back', async () => {
    const report = await run('/live-odd.m3u8', 1);
    const found = codes(report);
    assert.ok(found.includes('HLS-PROGRAM-DATE-TIME-DRIFT'), JSON.stringify(report.findings, null, 1));
    assert.match(
      report.findings.find((f) => f.code === 'HLS-PROGRAM-DATE-TIME-DRIFT')!.message,
      /segment \/live\/v0_005\.ts is 3\.00 s off/,
    );
    assert.ok(found.includes('HLS-LIVE-EDGE-BEHIND'));
    assert.ok(
      report.sampled.liveEdgeSeconds! > 50 && report.sampled.liveEdgeSeconds! < 58,
      String(report.sampled.liveEdgeSeconds),
    );
    assert.ok(found.includes('HLS-MEDIA-SEQUENCE-REGRESSED'));
  });

  it('CLI: --json prints the report and exits 1 on errors, 0 on none, 2 on a bad address', async () => {
    const bad = await runCli([`${server.url}/bandwidth/master.m3u8`, '--json']);
    assert.equal(bad.code, 1, bad.stderr);
    const parsed = JSON.parse(bad.stdout) as Report;
    assert.deepEqual(Object.keys(parsed), ['input', 'kind', 'live', 'variants', 'findings', 'sampled']);
    assert.equal(parsed.variants.length, 3);
    assert.ok(parsed.findings.some((f) => f.code === 'HLS-BANDWIDTH-MISMATCH' && f.variant === 'v1.m3u8'));
    const clean = await runCli([`${server.url}/clean/master.m3u8`]);
    assert.equal(clean.code, 0, clean.stderr);
    assert.match(clean.stdout, /v0\.m3u8 +\d+k \/ \d+k/);
    assert.match(clean.stdout, /0 error\(s\)/);
    const missing = await runCli([`${server.url}/nothing-here.m3u8`, '--json']);
    assert.equal(missing.code, 2);
    assert.equal(missing.stdout, '');
    assert.match(missing.stderr, /^inspect: cannot read http:\/\/127\.0\.0\.1:\d+\/nothing-here\.m3u8: HTTP 404\n$/);
    const nonsense = await runCli(['ftp://example.invalid/x.m3u8']);
    assert.equal(nonsense.code, 2);
    assert.match(nonsense.stderr, /only http:\/\/, https:\/\/ addresses and file paths/);
    const option = await runCli([`${server.url}/clean/master.m3u8`, '--live-seconds', 'soon']);
    assert.equal(option.code, 2);
    assert.match(option.stderr, /--live-seconds needs a number of seconds/);
  });

  it('inspects an MP4 file: its streams, and the moov atom after the media', async () => {
    const file = join(tmp, 'clip.mp4');
    await runTool(tools.ffmpeg, [
      '-v',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      'testsrc2=size=320x180:rate=25',
      '-f',
      'lavfi',
      '-i',
      'sine',
      '-t',
      '2',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-g',
      '25',
      '-c:a',
      'aac',
      file,
    ]);
    const report = await inspect(file, { fetch: nodeFetch });
    assert.equal(report.kind, 'mp4');
    assert.equal(report.variants[0]!.measured.resolution, '320x180');
    assert.match(report.variants[0]!.measured.codecs!, /^h264 .*, aac/);
    assert.equal(report.variants[0]!.measured.keyframeInterval?.mean, 1);
    assert.deepEqual(codes(report), ['MP4-MOOV-AT-END']);
    const served = await inspect(`${server.url}/clip.mp4`, { fetch: nodeFetch });
    assert.equal(served.kind, 'mp4');
    assert.equal(served.variants[0]!.measured.resolution, '320x180');
  });
});
