/**
 * PlatformClient overhead against plain undici: the same loopback server (in a worker thread, so it
 * does not share the event loop being measured) answers a fixed envelope (a page of 10 videos,
 * about 13 KB, as queryVideo returns it); rounds of N calls at a
 * fixed concurrency alternate between
 *   A) client.queryVideo(...)  (sign with a fresh timestamp, build the query, send, read within the answer
 *      deadline and size limit, check the envelope)
 *   B) undici pool.request(...) with precomputed signed paths and the client's headers, then JSON.parse of the body,
 * through equivalent Pools (same connection count). Figures: ops/s, mean and p99 latency, and the
 * ratio A/B of throughput (close to 1 means the client adds little).
 */
import { join, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import { Pool } from 'undici';
import { PlatformClient } from '../src/api/client';
import { signParams } from '../src/api/signing';
import { goalRow } from './goalTable';

const TOTAL_CALLS = Number(process.env.BENCH_CLIENT_CALLS ?? 20_000);
const ROUNDS = 10;
const CONCURRENCY = 16;
const CONNECTIONS = 8; // the client's Pool default
const ACCESS_KEY = 'bench-access';
const SECRET_KEY = 'bench-secret-key';
/** The headers the client sends with a GET (src/api/client.ts). */
const HEADERS = { accept: 'application/json' };

const SERVER = `
const { createServer } = require('node:http');
const { parentPort } = require('node:worker_threads');
// A page of 10 videos, as the platform answers queryVideo with number=10.
const video = (i) => ({
  id: (i.toString(16) + '0123456789abcdef0123456789abcdef').slice(0, 32), parentId: null, playrate: '1', fileName: 'clip-' + i + '.mp4',
  thumbnail: 'https://cdn.example/thumb/' + i + '.jpg', cover: 'https://cdn.example/cover/' + i + '.jpg', title: 'Clip ' + i,
  width: 1920, height: 1080, bitrate: 4500, audioBitrate: 128000, duration: 61234, playNum: 12, size: 34567, userId: 1001,
  categoryId: 3, category: 'News', status: 2, date: '2026-05-01', uploadTime: 1777600000000 + i, tag: null, description: null,
  contentId: null, customId: null, sourceContentId: null, sourceCustomId: null,
  transcodedVideoList: [360, 720].map((h) => ({ name: h + 'p', hlsUrl: 'https://cdn.example/v/' + i + '/' + h + '.m3u8', mp4Url: null,
    flvUrl: null, tsUrl: null, hlsSize: 1234567, mp4Size: 0, flvSize: 0, tsSize: 0, videoWidth: h * 16 / 9, videoHeight: h,
    videoBitrate: h * 3, audioBitrate: 64000, defaultVideo: h === 720 ? 1 : 0, taskId: 'task' + i + h, status: 2, idx: 0, type: 0,
    hlsEncryptType: 0, mp4EncryptType: 0, flvEncryptType: 0, tsEncryptType: 0, contentId: null, customId: null, aesKey: null })),
  subPlayrateList: [], playCode: { previewUrl: 'https://play.example/' + i, flashUrl: '', htmlEmbedCode: '<iframe></iframe>' },
  type: 0, uri: null, fastEditor: 0, videoType: 0, audio: null, audioStatus: null, audioTaskId: null, subtitle: null,
  subVideoType: null, shareStatus: null, shareToUserId: null, shareCategoryId: null, logoGroupId: null,
});
const body = JSON.stringify({ code: 0, message: 'success', success: true, result: Array.from({ length: 10 }, (_, i) => video(i)) });
const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'application/json;charset=UTF-8', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
});
server.keepAliveTimeout = 60000;
server.listen(0, '127.0.0.1', () => parentPort.postMessage({ port: server.address().port, bytes: Buffer.byteLength(body) }));
parentPort.on('message', () => server.close(() => process.exit(0)));
`;

interface Figures {
  ops: number;
  meanMs: number;
  p99Ms: number;
}

/** CPU time of this process (both threads: the client here, the server in its worker) per side, in µs. */
const cpu = { a: 0, b: 0, p: 0 };

async function round(
  calls: number,
  call: () => Promise<unknown>,
  latencies: number[],
  side?: keyof typeof cpu,
): Promise<number> {
  let next = 0;
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const lane = async (): Promise<void> => {
    while (next < calls) {
      next++;
      const t0 = performance.now();
      await call();
      latencies.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, lane));
  const used = process.cpuUsage(cpuBefore);
  if (side) cpu[side] += used.user + used.system;
  return performance.now() - started;
}

function figures(latencies: number[], totalMs: number): Figures {
  const sorted = [...latencies].sort((a, b) => a - b);
  const mean = sorted.reduce((sum, x) => sum + x, 0) / sorted.length;
  const p99 = sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))]!;
  return { ops: (latencies.length / totalMs) * 1000, meanMs: mean, p99Ms: p99 };
}

function precomputedPaths(count: number): string[] {
  const paths: string[] = [];
  for (let i = 0; i < count; i++) {
    const params: Record<string, string> = {
      start: '1',
      number: '10',
      sort: 'uploadTime',
      order: 'desc',
      accessKey: ACCESS_KEY,
      action: 'queryVideo',
      version: '2.0',
      timestamp: String(Date.now() + i),
    };
    const signature = signParams(params, SECRET_KEY);
    const query = Object.entries({ ...params, signature })
      .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
      .join('&');
    paths.push(`/rest?${query}`);
  }
  return paths;
}

/**
 * The client's own work without the network: queryVideo on a client whose transport answers at once with a
 * one-video envelope (signing, query, checks, the async layers), best of 7 rounds of tight calls, in µs a call.
 * A tight loop keeps the code in the caches, so this is the floor of what the client adds; in the loopback rounds
 * above the same work costs about twice as much (CPU per call).
 */
async function ownWorkMicros(Client: typeof PlatformClient = PlatformClient): Promise<number> {
  const client = new Client({ baseUrl: 'http://127.0.0.1:9', accessKey: ACCESS_KEY, secretKey: SECRET_KEY });
  const answer = {
    status: 200,
    text: JSON.stringify({ code: 0, message: 'success', success: true, result: [{ id: 'v' }] }),
  };
  (client as unknown as { transport: { exchange: () => Promise<typeof answer> } }).transport.exchange = () =>
    Promise.resolve(answer);
  const query = { start: 1, number: 10, sort: 'uploadTime', order: 'desc' } as const;
  let best = Infinity;
  try {
    for (let r = 0; r < 7; r++) {
      const started = process.hrtime.bigint();
      for (let i = 0; i < 20_000; i++) await client.queryVideo(query);
      best = Math.min(best, Number(process.hrtime.bigint() - started) / 20_000 / 1000);
    }
  } finally {
    await client.close();
  }
  return best;
}

export async function run(): Promise<void> {
  const worker = new Worker(SERVER, { eval: true });
  const { port, bytes } = await new Promise<{ port: number; bytes: number }>((resolve) =>
    worker.once('message', resolve),
  );
  const origin = `http://127.0.0.1:${port}`;

  const client = new PlatformClient({ baseUrl: origin, accessKey: ACCESS_KEY, secretKey: SECRET_KEY });
  const pool = new Pool(origin, { connections: CONNECTIONS });
  const paths = precomputedPaths(1000);
  let pathIndex = 0;

  const viaClient = (): Promise<unknown> =>
    client.queryVideo({ start: 1, number: 10, sort: 'uploadTime', order: 'desc' });
  const viaUndici = async (): Promise<unknown> => {
    // The same request as the client's, header included, so that both sides send and the server reads the same bytes.
    const { body } = await pool.request({ path: paths[pathIndex++ % paths.length]!, method: 'GET', headers: HEADERS });
    return JSON.parse(await body.text()) as unknown;
  };

  // CLIENT_BEFORE=DIR: the client of another source tree (a copy of an earlier commit, as PLATFORM_BEFORE in
  // bench/README.md) as a third side in the same rounds, so that before and after meet the same load.
  const beforeDir = process.env.CLIENT_BEFORE;
  const before = beforeDir
    ? new (
        require(join(resolve(beforeDir), 'src/api/client')) as { PlatformClient: typeof PlatformClient }
      ).PlatformClient({ baseUrl: origin, accessKey: ACCESS_KEY, secretKey: SECRET_KEY })
    : undefined;
  const viaBefore = (): Promise<unknown> =>
    before!.queryVideo({ start: 1, number: 10, sort: 'uploadTime', order: 'desc' });

  try {
    // Warm-up: connections open, JIT settles.
    await round(1000, viaClient, []);
    await round(1000, viaUndici, []);
    if (before) await round(1000, viaBefore, []);

    const perRound = Math.max(1, Math.floor(TOTAL_CALLS / ROUNDS));
    const sides = [
      { side: 'a' as const, call: viaClient, latencies: [] as number[], ms: 0 },
      { side: 'b' as const, call: viaUndici, latencies: [] as number[], ms: 0 },
      ...(before ? [{ side: 'p' as const, call: viaBefore, latencies: [] as number[], ms: 0 }] : []),
    ];
    for (let r = 0; r < ROUNDS; r++) {
      // Rotate which side goes first, so drift in machine load hits every side.
      for (let i = 0; i < sides.length; i++) {
        const s = sides[(r + i) % sides.length]!;
        s.ms += await round(perRound, s.call, s.latencies, s.side);
      }
    }
    const [a, b, p] = sides.map((s) => s.latencies);
    const fa = figures(a!, sides[0]!.ms);
    const fb = figures(b!, sides[1]!.ms);
    const line = (name: string, f: Figures): string =>
      `${name.padEnd(34)} ${f.ops.toFixed(0).padStart(8)} ops/s   mean ${f.meanMs.toFixed(3)} ms   p99 ${f.p99Ms.toFixed(3)} ms`;
    console.log(
      `${sides.map((s) => s.latencies.length).join(' + ')} GET calls, ${bytes} B answers, ${ROUNDS} rotating rounds, concurrency ${CONCURRENCY}, ${CONNECTIONS} connections, loopback`,
    );
    console.log(line('A PlatformClient.queryVideo', fa));
    console.log(line('B undici pool.request (presigned)', fb));
    console.log(
      `ratio A/B throughput ${(fa.ops / fb.ops).toFixed(3)}   mean latency A/B ${(fa.meanMs / fb.meanMs).toFixed(3)}   p99 A/B ${(fa.p99Ms / fb.p99Ms).toFixed(3)}`,
    );
    if (p) {
      const fp = figures(p, sides[2]!.ms);
      const cpuP = cpu.p / p.length;
      console.log(line(`A before (${beforeDir})`, fp));
      console.log(
        `before: ratio throughput ${(fp.ops / fb.ops).toFixed(3)}, CPU per call ${cpuP.toFixed(1)} µs (B/before ${(cpu.b / b!.length / cpuP).toFixed(3)}), the client's own work ${(cpuP - cpu.b / b!.length).toFixed(1)} µs`,
      );
    }
    // What the client adds per call on this machine (signing, query building, envelope checks).
    console.log(`client cost per call: ${((1 / fa.ops - 1 / fb.ops) * 1e6).toFixed(1)} µs of event-loop time`);
    // CPU time is what load from other processes on this shared machine barely changes (unlike wall time):
    // the server's share is the same on both sides, so the difference is the client's own work.
    const cpuA = cpu.a / a!.length;
    const cpuB = cpu.b / b!.length;
    console.log(
      `CPU per call (client + server): A ${cpuA.toFixed(1)} µs, B ${cpuB.toFixed(1)} µs; ratio B/A ${(cpuB / cpuA).toFixed(3)}; the client's own work ${(cpuA - cpuB).toFixed(1)} µs`,
    );
    const own = await ownWorkMicros();
    console.log(
      `the client's own work without the network (queryVideo, transport answering at once): ${own.toFixed(2)} µs a call`,
    );
    if (before) {
      console.log(
        `the same for the client before: ${(await ownWorkMicros(before.constructor as typeof PlatformClient)).toFixed(2)} µs a call`,
      );
    }
    goalRow({
      figure: 'client vs plain undici, CPU per call (B/A; load-independent)',
      goal: '0.91 or more',
      measured: `${(cpuB / cpuA).toFixed(3)} (+${(cpuA - cpuB).toFixed(1)} µs a call)`,
      met: cpuB / cpuA >= 0.91,
    });
    goalRow({
      figure: 'client throughput vs plain undici, presigned paths',
      goal: '0.91 or more',
      measured: (fa.ops / fb.ops).toFixed(3),
      met: fa.ops / fb.ops >= 0.91,
    });
  } finally {
    await client.close();
    await before?.close();
    await pool.close();
    worker.postMessage('stop');
    await new Promise((resolve) => worker.once('exit', resolve));
  }
}
