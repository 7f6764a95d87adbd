/**
 * The inspector bounded (issue 22 item 4): misbehaving servers on 127.0.0.1 (a playlist naming this machine's
 * files, a byte every 2 s, headers and then silence, a 1,000,000-line playlist, a huge segment, an EXTINF without
 * a URI, a live playlist with TARGETDURATION:5221) each give a result within the run's deadline with the right
 * finding; the CLI stops on SIGTERM at once and leaves no temporary file.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { build } from 'esbuild';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { liveWatchSeconds } from '../../src/inspector/hls';
import { InspectError, inspect } from '../../src/inspector/inspect';
import type { Report } from '../../src/inspector/report';
import { nodeFetch } from '../../src/inspector/source';
import { makeContactSheet } from '../../src/inspector/stills';
import { findMediaTools, type MediaTools } from '../../src/media/tools';
import { makeLadder } from './golden';

const ROOT = join(__dirname, '..', '..');

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** A loopback server of routes; it records each request's method, path and Range header. */
async function misbehaving(routes: Record<string, Handler>): Promise<{
  url: string;
  seen: Array<{ method: string; path: string; range?: string }>;
  close(): Promise<void>;
}> {
  const seen: Array<{ method: string; path: string; range?: string }> = [];
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    seen.push({ method: req.method ?? '', path, ...(req.headers.range ? { range: req.headers.range } : {}) });
    const route = routes[path];
    if (route) route(req, res);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Sends `body` one byte every `everyMs`, forever if need be (until the client goes). */
function dribble(body: string, everyMs: number): Handler {
  return (req, res) => {
    res.writeHead(200, { 'content-length': Buffer.byteLength(body) });
    let at = 0;
    const timer = setInterval(() => {
      if (at >= body.length) return void clearInterval(timer);
      res.write(body[at++]);
    }, everyMs);
    req.socket.on('close', () => clearInterval(timer));
  };
}

const codes = (report: Report): string[] => report.findings.map((f) => f.code);

describe('inspector: every run bounded, whatever the server does', function () {
  this.timeout(60_000);
  let tools: MediaTools;
  let tmp: string;
  let ladder: string;

  before(async () => {
    const mode = await findMediaTools({ npmFallback: true });
    if (mode.kind !== 'real') throw new Error(mode.reason);
    tools = mode.tools;
    tmp = mkdtempSync(join(tmpdir(), 'vpt-bounds-'));
    ladder = join(tmp, 'ladder');
    mkdirSync(ladder);
    await makeLadder(tools, ladder, { variants: 1, seconds: 3 });
  });
  after(() => rmSync(tmp, { recursive: true, force: true }));

  it('reads nothing but http(s) for a remote playlist: file:// variants, segments and keys are refused', async () => {
    const segment = join(ladder, 'v0_000.ts');
    const server = await misbehaving({
      '/master.m3u8': (_req, res) =>
        res.end(
          '#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1000\nfile:///etc/passwd\n#EXT-X-STREAM-INF:BANDWIDTH=2000\n/media.m3u8\n',
        ),
      '/media.m3u8': (_req, res) =>
        res.end(
          '#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXT-X-KEY:METHOD=AES-128,URI="file:///etc/passwd"\n' +
            `#EXTINF:1,\nfile://${segment}\n#EXTINF:1,\nfile:///etc/passwd\n#EXT-X-ENDLIST\n`,
        ),
    });
    try {
      const report = await inspect(`${server.url}/master.m3u8`, { fetch: nodeFetch });
      const refused = report.findings.filter((f) => f.code === 'INPUT-REFUSED');
      assert.ok(refused.length >= 2, JSON.stringify(report.findings, null, 1));
      assert.ok(refused.some((f) => f.variant === 'file:///etc/passwd' && /may name only http/.test(f.message)));
      assert.ok(refused.some((f) => f.variant === '/media.m3u8'));
      assert.equal(report.sampled.segmentsProbed, 0);
      assert.doesNotMatch(JSON.stringify(report), /root:|x:0:0/);
      // What was read: the two playlists over http, and nothing else.
      assert.deepEqual(
        server.seen.filter((r) => r.method === 'GET').map((r) => r.path),
        ['/master.m3u8', '/media.m3u8'],
      );
      // A local playlist may name local files.
      const local = await inspect(join(ladder, 'v0.m3u8'), { fetch: nodeFetch });
      assert.ok(!codes(local).includes('INPUT-REFUSED'));
      assert.equal(local.sampled.segmentsProbed, 3);
    } finally {
      await server.close();
    }
  });

  it('ends at its deadline with a report when a segment comes 1 byte every 2 s', async () => {
    const server = await misbehaving({
      '/slow.m3u8': (_req, res) => res.end('#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:1,\n/slow.ts\n#EXT-X-ENDLIST\n'),
      '/slow.ts': dribble('G'.repeat(188 * 100), 2000),
    });
    try {
      const started = Date.now();
      const report = await inspect(`${server.url}/slow.m3u8`, { fetch: nodeFetch, deadlineSeconds: 5 });
      const took = Date.now() - started;
      assert.ok(took < 6500, `took ${took} ms`);
      assert.ok(codes(report).includes('INSPECT-DEADLINE'), JSON.stringify(report.findings, null, 1));
      assert.ok(
        report.findings.some((f) => f.code === 'INPUT-UNREADABLE' && /deadline/.test(f.message)),
        JSON.stringify(report.findings, null, 1),
      );
      // A playlist sent the same way: a clear error once its read time is over, not a wait for the whole of it.
      const playlist = await misbehaving({
        '/drip.m3u8': dribble(`#EXTM3U\n${'#EXT-X-TARGETDURATION:1\n'.repeat(50)}`, 2000),
      });
      try {
        const at = Date.now();
        await assert.rejects(
          inspect(`${playlist.url}/drip.m3u8`, { fetch: nodeFetch, readSeconds: 3 }),
          (error: unknown) => error instanceof InspectError && /not read within 3 s/.test(error.message),
        );
        assert.ok(Date.now() - at < 4500);
      } finally {
        await playlist.close();
      }
    } finally {
      await server.close();
    }
  });

  it('gives up on a read that receives nothing for the idle time', async () => {
    const server = await misbehaving({
      '/quiet.m3u8': (_req, res) =>
        res.end('#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:1,\n/quiet.ts\n#EXT-X-ENDLIST\n'),
      '/quiet.ts': (_req, res) => res.writeHead(200, { 'content-length': 1000 }).flushHeaders(),
    });
    try {
      const started = Date.now();
      const report = await inspect(`${server.url}/quiet.m3u8`, { fetch: nodeFetch, idleSeconds: 1 });
      assert.ok(Date.now() - started < 3000);
      const found = report.findings.find((f) => f.code === 'INPUT-UNREADABLE');
      assert.match(found?.message ?? '', /quiet\.ts: no data for 1 s/);
    } finally {
      await server.close();
    }
  });

  it('reports a 1,000,000-line playlist as too large, reading only its first 4 MiB', async () => {
    const lines = ['#EXTM3U', '#EXT-X-TARGETDURATION:1'];
    while (lines.length < 1_000_000) lines.push('#EXTINF:1,', `s${lines.length}.ts`);
    const body = `${lines.join('\n')}\n`;
    const server = await misbehaving({ '/huge.m3u8': (_req, res) => res.end(body) });
    try {
      const started = Date.now();
      const report = await inspect(`${server.url}/huge.m3u8`, { fetch: nodeFetch });
      assert.ok(Date.now() - started < 10_000);
      assert.deepEqual(codes(report), ['INPUT-TOO-LARGE']);
      assert.match(report.findings[0]!.message, /larger than the 4194304 bytes the inspector reads of a playlist/);
      assert.ok(report.sampled.bytesRead < 4 * 1024 * 1024 + 256 * 1024, String(report.sampled.bytesRead));
      assert.ok(body.length > 8 * 1024 * 1024);
      // Lines count too: 200,000 short lines are under 4 MiB but over the line limit.
      const short = `#EXTM3U\n${'#\n'.repeat(200_000)}`;
      const server2 = await misbehaving({ '/lines.m3u8': (_req, res) => res.end(short) });
      try {
        const many = await inspect(`${server2.url}/lines.m3u8`, { fetch: nodeFetch });
        assert.match(many.findings[0]!.message, /longer than the 100000 lines/);
      } finally {
        await server2.close();
      }
    } finally {
      await server.close();
    }
  });

  it('reads at most the segment limit of a segment, with a Range request, and says so', async () => {
    const data = readFileSync(join(ladder, 'v0_000.ts'));
    const server = await misbehaving({
      '/big.m3u8': (_req, res) => res.end('#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:1,\n/big.ts\n#EXT-X-ENDLIST\n'),
      // A server that ignores Range and sends everything: the reader still stops at the limit.
      '/big.ts': (_req, res) => res.writeHead(200, { 'content-length': data.length }).end(data),
    });
    try {
      const report = await inspect(`${server.url}/big.m3u8`, { fetch: nodeFetch, maxSegmentBytes: 4096 });
      const found = report.findings.find((f) => f.code === 'INPUT-TOO-LARGE');
      assert.match(found?.message ?? '', /Segment \/big\.ts is larger than 4096 bytes: only its start was read/);
      const get = server.seen.find((r) => r.method === 'GET' && r.path === '/big.ts');
      assert.equal(get?.range, 'bytes=0-4095');
      assert.equal(report.sampled.segmentsProbed, 0);
    } finally {
      await server.close();
    }
  });

  it('takes an EXTINF without a URI as a finding, never reading the playlist as a segment', async () => {
    const server = await misbehaving({
      '/v.m3u8': (_req, res) => res.end(`#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:1,\n/v0_000.ts\n#EXTINF:1,\n`),
      '/v0_000.ts': (_req, res) => res.end(readFileSync(join(ladder, 'v0_000.ts'))),
    });
    try {
      const report = await inspect(`${server.url}/v.m3u8`, { fetch: nodeFetch, liveSeconds: 0 });
      assert.ok(codes(report).includes('HLS-URI-MISSING'), JSON.stringify(report.findings, null, 1));
      assert.equal(report.variants[0]!.segments, 1);
      assert.equal(report.sampled.segmentsProbed, 1);
      assert.deepEqual(
        server.seen.map((r) => `${r.method} ${r.path}`),
        ['GET /v.m3u8', 'HEAD /v0_000.ts', 'GET /v0_000.ts'],
      );
    } finally {
      await server.close();
    }
  });

  it('watches a live playlist at most 60 s unless asked, and never past the deadline (TARGETDURATION:5221)', async () => {
    assert.equal(liveWatchSeconds(5221, undefined, 3_600_000), 60);
    assert.equal(liveWatchSeconds(2, undefined, 3_600_000), 10);
    assert.equal(liveWatchSeconds(5221, 300, 3_600_000), 300);
    assert.equal(liveWatchSeconds(5221, undefined, 30_000), 29);
    const server = await misbehaving({
      '/live.m3u8': (_req, res) =>
        res.end('#EXTM3U\n#EXT-X-TARGETDURATION:5221\n#EXT-X-MEDIA-SEQUENCE:7\n#EXTINF:1,\n/v0_000.ts\n'),
      '/v0_000.ts': (_req, res) => res.end(readFileSync(join(ladder, 'v0_000.ts'))),
    });
    try {
      const started = Date.now();
      const report = await inspect(`${server.url}/live.m3u8`, { fetch: nodeFetch, deadlineSeconds: 4 });
      assert.ok(Date.now() - started < 5000, `took ${Date.now() - started} ms`);
      assert.equal(report.live, true);
      assert.ok(report.sampled.liveSeconds! <= 3, String(report.sampled.liveSeconds));
      // Watched too briefly to call it stale, and the report says so.
      assert.ok(codes(report).includes('HLS-LIVE-NOT-WATCHED'), JSON.stringify(report.findings, null, 1));
    } finally {
      await server.close();
    }
  });

  it('CLI: stops at once on SIGTERM (exit 130) and leaves no temporary file', async () => {
    const cli = join(tmp, 'inspect.js');
    await build({
      entryPoints: [join(ROOT, 'src/inspector/cli.ts')],
      outfile: cli,
      bundle: true,
      platform: 'node',
      format: 'cjs',
      logLevel: 'warning',
      external: ['@ffmpeg-installer/ffmpeg', '@ffprobe-installer/ffprobe'],
    });
    const server = await misbehaving({
      '/slow.m3u8': (_req, res) => res.end('#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:1,\n/slow.ts\n#EXT-X-ENDLIST\n'),
      '/slow.ts': dribble('G'.repeat(10_000), 500),
    });
    const temp = mkdtempSync(join(tmp, 'cli-tmp-'));
    try {
      const child = spawn(process.execPath, [cli, `${server.url}/slow.m3u8`], {
        env: { ...process.env, TMPDIR: temp },
      });
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const at = Date.now();
      child.kill('SIGTERM');
      assert.equal(await exited, 130, stderr);
      assert.ok(Date.now() - at < 2000);
      assert.match(stderr, /inspect: stopped/);
      assert.deepEqual(readdirSync(temp), []);
    } finally {
      await server.close();
    }
  });

  it('a cancelled contact sheet leaves no temporary folder', async () => {
    // The first read (its duration) gets the segment at once; the second (the pictures) a byte at a time.
    const data = readFileSync(join(ladder, 'v0_000.ts')).toString('latin1');
    let reads = 0;
    const server = await misbehaving({
      '/clip.ts': (req, res) => (reads++ === 0 ? res.end(Buffer.from(data, 'latin1')) : dribble(data, 100)(req, res)),
    });
    const temp = mkdtempSync(join(tmp, 'sheet-tmp-'));
    const before = process.env.TMPDIR;
    process.env.TMPDIR = temp;
    try {
      const controller = new AbortController();
      const sheet = makeContactSheet(tools, `${server.url}/clip.ts`, { signal: controller.signal });
      while (reads < 2) await new Promise((resolve) => setTimeout(resolve, 50));
      assert.equal(readdirSync(temp).length, 1, 'the sheet has its folder while ffmpeg runs');
      controller.abort();
      await assert.rejects(sheet, /cancelled/);
      assert.deepEqual(readdirSync(temp), []);
    } finally {
      if (before === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = before;
      await server.close();
    }
  });
});
