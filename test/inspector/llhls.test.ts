/**
 * Low-latency HLS as a server serves it: a loopback LL-HLS server over real fMP4 parts (made once by ffmpeg: one-second
 * fragments, a keyframe every two, so every other part starts with a sync frame), behaving well or in one way badly
 * per path: answering a blocking reload at once without the asked part, holding it too long, numbering a delta
 * update's segments wrongly, marking parts INDEPENDENT=YES that are not. The inspector is run against each.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runTool } from '../../src/media/tools';
import { inspect } from '../../src/inspector/inspect';
import type { Report } from '../../src/inspector/report';
import { nodeFetch } from '../../src/inspector/source';
import { realTools } from './golden';

type Behaviour = 'good' | 'early' | 'late' | 'miscounted' | 'unsynced';

const FRAGMENTS = 16;
const PARTS_PER_SEGMENT = 2;

describe('inspector: low-latency HLS against a loopback server (blocking reload, delta updates, INDEPENDENT parts)', function () {
  this.timeout(120_000);
  let dir: string;
  let server: Server;
  let base: string;
  let fragments: Buffer[];
  let init: Buffer;
  /** Parts published so far, per behaviour (each path is its own live stream). */
  const published = new Map<Behaviour, number>();

  /** The media playlist after `k` parts, as the behaviour writes it; `skip` asks for a delta update. */
  function playlist(behaviour: Behaviour, k: number, skip: boolean): string {
    const complete = Math.floor(k / PARTS_PER_SEGMENT);
    // Skip Boundary 12 s: segments starting more than 12 s before the end of the last one may be skipped.
    const skippable = Math.max(0, complete - 6);
    const skipped = skip ? skippable : 0;
    const lines = [
      '#EXTM3U',
      '#EXT-X-VERSION:9',
      '#EXT-X-TARGETDURATION:2',
      '#EXT-X-PART-INF:PART-TARGET=1',
      '#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,PART-HOLD-BACK=3,CAN-SKIP-UNTIL=12',
      '#EXT-X-MEDIA-SEQUENCE:0',
      '#EXT-X-MAP:URI="init.mp4"',
    ];
    // The miscounting server says it skipped one segment more than it left out.
    if (skip && skipped > 0) {
      lines.push(`#EXT-X-SKIP:SKIPPED-SEGMENTS=${behaviour === 'miscounted' ? skipped + 1 : skipped}`);
    }
    const independent = (fragment: number): string =>
      fragment % 2 === 0 || behaviour === 'unsynced' ? ',INDEPENDENT=YES' : '';
    for (let n = skipped; n < complete; n++) {
      // Part tags only near the live edge (rfc8216bis 6.2.2: removed past three target durations).
      if (n >= complete - 2) {
        let offset = 0;
        for (let i = 0; i < PARTS_PER_SEGMENT; i++) {
          const f = n * PARTS_PER_SEGMENT + i;
          lines.push(
            `#EXT-X-PART:DURATION=1.000,URI="s${n}.m4s",BYTERANGE=${fragments[f]!.length}@${offset}${independent(f)}`,
          );
          offset += fragments[f]!.length;
        }
      }
      lines.push('#EXTINF:2.000,', `s${n}.m4s`);
    }
    for (let f = complete * PARTS_PER_SEGMENT; f < k; f++) {
      lines.push(`#EXT-X-PART:DURATION=1.000,URI="p${f}.m4s"${independent(f)}`);
    }
    if (k < FRAGMENTS) lines.push(`#EXT-X-PRELOAD-HINT:TYPE=PART,URI="p${k}.m4s"`);
    return `${lines.join('\n')}\n`;
  }

  before(async () => {
    const tools = await realTools();
    dir = mkdtempSync(join(tmpdir(), 'vpt-llhls-'));
    await runTool(
      tools.ffmpeg,
      [
        ...[
          '-hide_banner',
          '-v',
          'error',
          '-y',
          '-f',
          'lavfi',
          '-i',
          `testsrc2=size=160x90:rate=25:duration=${FRAGMENTS}`,
        ],
        ...['-c:v', 'libx264', '-preset', 'ultrafast', '-g', '50', '-keyint_min', '50', '-sc_threshold', '0'],
        ...['-f', 'hls', '-hls_time', '1', '-hls_flags', 'split_by_time', '-hls_segment_type', 'fmp4'],
        ...['-hls_fmp4_init_filename', 'init.mp4', '-hls_playlist_type', 'vod'],
        ...['-hls_segment_filename', join(dir, 'f%02d.m4s'), join(dir, 'index.m3u8')],
      ],
      { timeoutMs: 60_000 },
    );
    init = readFileSync(join(dir, 'init.mp4'));
    fragments = Array.from({ length: FRAGMENTS }, (_, i) =>
      readFileSync(join(dir, `f${String(i).padStart(2, '0')}.m4s`)),
    );

    server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      const [, behaviour, file] = url.pathname.split('/') as [string, Behaviour, string];
      const send = (type: string, body: Buffer | string): void => {
        res.writeHead(200, {
          'content-type': type,
          'access-control-allow-origin': '*',
          'cache-control': type.includes('mpegurl') ? 'max-age=1' : 'max-age=60',
        });
        res.end(req.method === 'HEAD' ? undefined : body);
      };
      if (file === 'live.m3u8') {
        const k = published.get(behaviour) ?? 15;
        const msn = url.searchParams.get('_HLS_msn');
        const answer = (): void => {
          published.set(behaviour, published.get(behaviour) ?? 15);
          send(
            'application/vnd.apple.mpegurl',
            playlist(behaviour, published.get(behaviour)!, url.searchParams.has('_HLS_skip')),
          );
        };
        if (msn === null) return answer();
        const wanted = Number(msn) * PARTS_PER_SEGMENT + Number(url.searchParams.get('_HLS_part') ?? 0);
        if (wanted < k || behaviour === 'early') return answer();
        // The part is "encoded" and published after a moment (a tenth of PART-TARGET), or far too late.
        setTimeout(
          () => {
            published.set(behaviour, Math.min(FRAGMENTS, wanted + 1));
            answer();
          },
          behaviour === 'late' ? 4000 : 100,
        );
        return;
      }
      if (file === 'init.mp4') return send('video/mp4', init);
      const segment = /^s(\d+)\.m4s$/.exec(file);
      if (segment) {
        const n = Number(segment[1]);
        return send('video/mp4', Buffer.concat(fragments.slice(n * PARTS_PER_SEGMENT, (n + 1) * PARTS_PER_SEGMENT)));
      }
      const part = /^p(\d+)\.m4s$/.exec(file);
      if (part && fragments[Number(part[1])]) return send('video/mp4', fragments[Number(part[1])]!);
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  after(async () => {
    server?.closeAllConnections();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const run = (behaviour: Behaviour): Promise<Report> =>
    inspect(`${base}/${behaviour}/live.m3u8`, { fetch: nodeFetch, liveSeconds: 0 });
  const llFindings = (report: Report): Array<[string, string | undefined]> =>
    report.findings.filter((f) => f.family === 'llhls').map((f) => [f.code, f.segment]);

  it('a server that holds the blocking reload, numbers its delta update right and marks only sync parts: no finding, and the report says what was asked', async () => {
    const report = await run('good');
    assert.deepEqual(llFindings(report), [], JSON.stringify(report.findings, null, 1));
    assert.deepEqual(
      report.findings.filter((f) => f.severity === 'error').map((f) => f.code),
      [],
      JSON.stringify(report.findings, null, 1),
    );
    assert.ok(
      report.sampled.notChecked?.some((line) => /one blocking reload for the next part, one delta update/.test(line)),
      JSON.stringify(report.sampled),
    );
  });

  it('a blocking reload answered at once without the asked part', async () => {
    const report = await run('early');
    const found = report.findings.filter((f) => f.code === 'HLS-LL-BLOCKING-RELOAD-NOT-HELD');
    assert.equal(found.length, 1, JSON.stringify(report.findings, null, 1));
    assert.match(found[0]!.message, /part 7\.1 was answered after [\d.]+ s with a playlist that ends at part 7\.0/);
  });

  it('a blocking reload held four times PART-TARGET', async () => {
    const report = await run('late');
    const found = report.findings.filter((f) => f.code === 'HLS-LL-BLOCKING-RELOAD-LATE');
    assert.equal(found.length, 1, JSON.stringify(report.findings, null, 1));
    assert.match(
      found[0]!.message,
      /part 7\.1 was answered after (4|5|6|7|8|9)\.\d\d s, more than 3 × PART-TARGET \(3 s\)/,
    );
  });

  it('a delta update whose SKIPPED-SEGMENTS disagrees with the full playlist', async () => {
    const report = await run('miscounted');
    const found = report.findings.filter((f) => f.code === 'HLS-LL-DELTA-UPDATE-INVALID');
    assert.equal(found.length, 1, JSON.stringify(report.findings, null, 1));
    assert.match(found[0]!.message, /names s2\.m4s as segment 3; the full playlist has s3\.m4s there/);
  });

  it('parts marked INDEPENDENT=YES that start between keyframes (their bytes read through BYTERANGE and URI)', async () => {
    const report = await run('unsynced');
    assert.deepEqual(
      llFindings(report),
      [
        ['HLS-LL-INDEPENDENT-PART-NO-SYNC', 's5.m4s'],
        ['HLS-LL-INDEPENDENT-PART-NO-SYNC', 's6.m4s'],
      ],
      JSON.stringify(report.findings, null, 1),
    );
  });
});
