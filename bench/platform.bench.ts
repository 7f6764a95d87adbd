/**
 * Local platform list speed on a large account: 10,000 channels and 100,000 videos (seeded directly
 * through the store), then liveGetChannelsByPage and queryVideo (with sort and search) under a few
 * concurrent connections, beside a bare Node http server answering a constant envelope in alternating
 * rounds of the same run. Prints p50/p90/p99 latency, throughput, the ratio to the bare server, and the
 * process RSS after start, after the cases and after the same reads again (growth).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'undici';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { signParams } from '../src/api/signing';
import { accountDir } from '../src/localPlatform/accounts';
import { FIRST_USER_TEMPLATE_GROUP_ID } from '../src/localPlatform/builtinGroups';
import { newId } from '../src/localPlatform/ids';
import {
  newChannelRecord,
  newOutputGroupRecord,
  newVideoRecord,
  type ChannelRec,
  type LiveTemplateRec,
  type VideoRec,
} from '../src/localPlatform/records';
import { startLocalPlatform } from '../src/localPlatform/server';
import { AccountStore, Tx } from '../src/localPlatform/store';
import { renditionsFor } from '../src/localPlatform/transcoder';
import { goalRow } from './goalTable';

const CHANNELS = 10_000;
const VIDEOS = 100_000;
const CONNECTIONS = 8;
const REQUESTS = 2_000;
/** Alternating rounds of the case and the bare server. */
const ROUNDS = 4;
const ACCOUNT = { accessKey: 'bench-key', secretKey: 'bench-secret' };
const WORDS = [
  'news',
  'sport',
  'music',
  'talk',
  'kids',
  'movie',
  'drama',
  'travel',
  'food',
  'science',
  'tech',
  'finance',
];

function template(i: number, w: number, h: number, kbps: number): LiveTemplateRec {
  return {
    id: newId(),
    displayName: `T${i}`,
    type: 1,
    transcodeType: 0,
    videoWidth: w,
    videoHeight: h,
    videoBitrate: kbps,
    audioBitrate: 128,
    frameRate: 25,
    videoCodec: 'h264',
    advanced: {
      rc: null,
      refFrame: null,
      gopSize: null,
      bframe: null,
      interlace: null,
      gopType: null,
      smartBorder: null,
    },
    createTime: 0,
    updateTime: null,
  };
}

function channel(i: number, templates: LiveTemplateRec[], now: number): ChannelRec {
  const id = newId();
  const group = (protocolType: 1 | 2, ts: LiveTemplateRec[]) =>
    newOutputGroupRecord({
      id: newId(),
      protocolType,
      createTime: now,
      isRecord: i % 4 === 0 ? '1' : '0',
      outputs: ts.map((t, k) => ({
        id: newId(),
        templateId: t.id,
        isDefault: k === 0 ? '1' : '0',
        createTime: now,
        updateTime: null,
      })),
    });
  return newChannelRecord({
    id,
    name: `${WORDS[i % WORDS.length]} channel ${i}`,
    authCode: id.slice(0, 16),
    typeName: i % 3 === 0 ? WORDS[(i * 7) % WORDS.length] : null,
    stream: id.slice(16),
    status: ([0, 1, 2] as const)[i % 3],
    streamStatus: i % 3 === 2 ? 1 : 2,
    createTime: now - i * 1000,
    groups: i % 2 === 0 ? [group(1, templates), group(2, templates.slice(1))] : [group(1, templates.slice(0, 2))],
  });
}

function video(i: number, now: number): VideoRec {
  const id = newId();
  const done = i % 8 === 2;
  return newVideoRecord({
    id,
    fileName: `file-${i}.mp4`,
    title: `${WORDS[i % WORDS.length]} clip ${i}`,
    width: 1920,
    height: 1080,
    bitrate: 5000,
    audioBitrate: 128,
    duration: 60_000 + (i % 600) * 1000,
    playNum: i % 1000,
    size: 10_000 + ((i * 7919) % 500_000),
    categoryId: (i % 5) + 1,
    status: (i % 8) as VideoRec['status'],
    uploadTime: now - i * 10_000,
    tag: `${WORDS[(i * 3) % WORDS.length]},${WORDS[(i * 5) % WORDS.length]}`,
    streams: done
      ? renditionsFor(
          newId(),
          [
            {
              name: '720p',
              videoWidth: 1280,
              videoHeight: 720,
              videoBitrate: 2500,
              audioBitrate: 128000,
              hls: true,
              mp4: true,
              flv: false,
              ts: false,
              hlsEncryptType: 0,
              mp4EncryptType: 0,
              flvEncryptType: 0,
              tsEncryptType: 0,
              defaultVideo: 1,
            },
          ],
          0,
          id,
          60_000,
        )
      : [],
  });
}

async function seed(dataDir: string): Promise<{ seedMs: number; snapshotMs: number; startable: string[] }> {
  const started = performance.now();
  const store = await AccountStore.open(accountDir(dataDir, ACCOUNT.accessKey));
  const now = Date.now();
  const tx = new Tx();
  tx.put('meta', {
    id: 'meta',
    userId: 123456,
    nextLogoGroupId: 1,
    nextTemplateGroupId: FIRST_USER_TEMPLATE_GROUP_ID,
    nextVideoCategoryId: 6,
    defaultTemplateGroupId: null,
    createdAt: now,
  });
  const templates = [template(1, 1920, 1080, 4000), template(2, 1280, 720, 2000), template(3, 854, 480, 800)];
  for (const t of templates) tx.put('liveTemplates', t);
  for (let c = 1; c <= 5; c++) tx.put('videoCategories', { id: c, name: `Category ${c}` });
  const startable: string[] = [];
  for (let i = 0; i < CHANNELS; i++) {
    const ch = channel(i, templates, now);
    if (ch.status !== 2) startable.push(ch.id);
    tx.put('channels', ch);
  }
  for (let i = 0; i < VIDEOS; i++) tx.put('videos', video(i, now));
  store.seed(tx);
  const seeded = performance.now();
  await store.compact();
  await store.close();
  return { seedMs: seeded - started, snapshotMs: performance.now() - seeded, startable };
}

interface Figures {
  p50: number;
  p90: number;
  p99: number;
  rps: number;
  bytes: number;
}

function signedPath(params: Record<string, string>): string {
  const all = { accessKey: ACCOUNT.accessKey, version: '2.0', timestamp: String(Date.now()), ...params };
  return `/rest?${new URLSearchParams({ ...all, signature: signParams(all, ACCOUNT.secretKey) })}`;
}

interface Load {
  pool: Pool;
  latencies: number[];
  bytes: number;
  ms: number;
  /** Index of the next path: continues across rounds, so a write (a start) is never repeated. */
  next: number;
}

function newLoad(origin: string): Load {
  return { pool: new Pool(origin, { connections: CONNECTIONS }), latencies: [], bytes: 0, ms: 0, next: 0 };
}

async function one(load: Load, path: string, latencies: number[] | undefined): Promise<void> {
  const t = performance.now();
  const res = await load.pool.request({ method: 'GET', path });
  const text = await res.body.text();
  latencies?.push(performance.now() - t);
  load.bytes = text.length;
  if (!text.startsWith('{"code":0')) throw new Error(`unexpected answer: ${text.slice(0, 200)}`);
}

/** `count` requests over CONNECTIONS lanes, added to the load's figures. */
async function round(load: Load, paths: string[], count: number): Promise<void> {
  const end = load.next + count;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (load.next < end) await one(load, paths[load.next++ % paths.length], load.latencies);
    }),
  );
  load.ms += performance.now() - started;
}

function figures(load: Load): Figures {
  const sorted = [...load.latencies].sort((a, b) => a - b);
  const at = (q: number): number => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { p50: at(0.5), p90: at(0.9), p99: at(0.99), rps: (sorted.length / load.ms) * 1000, bytes: load.bytes };
}

/**
 * The case and the bare server in alternating rounds (which goes first alternates too), so that the
 * load of this shared machine weighs on both alike and their ratio means something.
 */
async function measure(
  origin: string,
  bareOrigin: string,
  paths: string[],
  warmup: string[] = paths,
  requests = REQUESTS,
): Promise<{ figures: Figures; bare: Figures }> {
  const subject = newLoad(origin);
  const bare = newLoad(bareOrigin);
  try {
    for (let i = 0; i < 100; i++) await one(subject, warmup[i % warmup.length], undefined); // warm-up (and cache build)
    for (let i = 0; i < 100; i++) await one(bare, '/rest', undefined);
    const perRound = Math.ceil(requests / ROUNDS);
    for (let r = 0; r < ROUNDS; r++) {
      if (r % 2 === 0) {
        await round(subject, paths, perRound);
        await round(bare, ['/rest'], perRound);
      } else {
        await round(bare, ['/rest'], perRound);
        await round(subject, paths, perRound);
      }
    }
    return { figures: figures(subject), bare: figures(bare) };
  } finally {
    await Promise.all([subject.pool.close(), bare.pool.close()]);
  }
}

function row(name: string, f: Figures, bare?: Figures): string {
  const ratio = bare
    ? `  x${(f.p50 / bare.p50).toFixed(1)} p50, ${(bare.rps / f.rps).toFixed(2)}x fewer req/s (bare ${bare.rps.toFixed(0)} req/s in the same rounds)`
    : '';
  return `${name.padEnd(44)} p50 ${f.p50.toFixed(2).padStart(6)} ms  p90 ${f.p90.toFixed(2).padStart(6)} ms  p99 ${f.p99.toFixed(2).padStart(6)} ms  ${f.rps.toFixed(0).padStart(6)} req/s  ${String(f.bytes).padStart(6)} B${ratio}`;
}

// A full collection before each RSS reading, so the figure is what is kept, not garbage not yet collected.
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

function settledRss(): number {
  collect();
  collect();
  return process.memoryUsage().rss;
}

const mib = (bytes: number): string => `${(bytes / 1048576).toFixed(0)} MiB`;

/** A bare server answering a constant envelope; `padding` characters make it as large as a page answer. */
function bareServer(padding = 0): Promise<Server> {
  const body = JSON.stringify({ code: 0, message: 'success', result: 'x'.repeat(padding), success: true, count: 0 });
  const server = createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'Content-Type': 'application/json;charset=UTF-8', 'Content-Length': Buffer.byteLength(body) });
    res.end(body);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

export async function run(): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), 'platform-bench-'));
  const bare = await bareServer();
  try {
    const { seedMs, snapshotMs, startable } = await seed(dataDir);
    console.log(
      `seeded ${CHANNELS} channels + ${VIDEOS} videos in memory: ${seedMs.toFixed(0)} ms; snapshot written: ${snapshotMs.toFixed(0)} ms`,
    );
    const rssBefore = settledRss();
    const loadStart = performance.now();
    const platform = await startLocalPlatform({ dataDir, accounts: [ACCOUNT], port: 0 });
    const rssStarted = settledRss();
    console.log(
      `platform start (load snapshot): ${(performance.now() - loadStart).toFixed(0)} ms, RSS ${mib(rssBefore)} -> ${mib(rssStarted)}`,
    );
    console.log(
      `${CONNECTIONS} connections, ${REQUESTS} requests per case in ${ROUNDS} rounds alternating with the bare server (a constant envelope), client and servers in one process on this machine\n`,
    );
    try {
      const bareOrigin = `http://127.0.0.1:${(bare.address() as AddressInfo).port}`;
      const cases: Array<[string, Array<Record<string, string>>]> = [
        ['liveGetChannelsByPage page 1 (15, newest)', [{ action: 'liveGetChannelsByPage' }]],
        [
          'liveGetChannelsByPage sort=name, pages 1-300',
          Array.from({ length: 300 }, (_, i) => ({
            action: 'liveGetChannelsByPage',
            sort: 'name',
            order: 'asc',
            start: String(i + 1),
          })),
        ],
        [
          'liveGetChannelsByPage search name (10k scan)',
          WORDS.map((w) => ({
            action: 'liveGetChannelsByPage',
            searchType: 'name',
            keyword: w,
            sort: 'status',
            order: 'desc',
          })),
        ],
        [
          'channels by name + 1 in 10 starts a channel',
          Array.from({ length: REQUESTS }, (_, i): Record<string, string> =>
            i % 10 === 9
              ? { action: 'liveStartChannel', id: startable[(i - 9) / 10] }
              : { action: 'liveGetChannelsByPage', sort: 'name', order: 'asc', start: String((i % 50) + 1) },
          ),
        ],
        [
          'queryVideo sort=title asc, page 1 (15)',
          [{ action: 'queryVideo', start: '1', number: '15', sort: 'title', order: 'asc' }],
        ],
        [
          'queryVideo sort=size desc, pages 1-500',
          Array.from({ length: 500 }, (_, i) => ({
            action: 'queryVideo',
            start: String(i + 1),
            number: '15',
            sort: 'size',
            order: 'desc',
          })),
        ],
        [
          'queryVideo search title + category, page 2',
          WORDS.map((w) => ({
            action: 'queryVideo',
            start: '2',
            number: '15',
            sort: 'uploadTime',
            order: 'desc',
            searchType: 'title',
            keyword: w,
            categoryId: '3',
          })),
        ],
        [
          'queryVideo search tag, rare (100k scan)',
          [
            {
              action: 'queryVideo',
              start: '1',
              number: '15',
              sort: 'tag',
              order: 'asc',
              searchType: 'tag',
              keyword: 'no-such-tag',
            },
          ],
        ],
      ];
      // PLATFORM_CASES=text runs only the cases whose name holds it (for profiling one case); no goal rows then.
      const only = process.env.PLATFORM_CASES;
      if (only) cases.splice(0, cases.length, ...cases.filter(([name]) => name.includes(only)));
      const results = new Map<string, { figures: Figures; bare: Figures }>();
      for (const [name, paramSets] of cases) {
        const paths = paramSets.map(signedPath);
        // Warm up on the reads only: a write (start) must not be repeated.
        const warmup = paths.filter((path) => !path.includes('action=liveStartChannel'));
        const from = performance.now();
        const measured = await measure(platform.baseUrl, bareOrigin, paths, warmup);
        results.set(name, measured);
        console.log(row(name, measured.figures, measured.bare));
        // The case's span in the process's time, for reading a --cpu-prof profile of this case only.
        if (only) console.log(`  (measured from ${from.toFixed(0)} ms to ${performance.now().toFixed(0)} ms)`);
      }
      // The floor of the channel page: a bare server answering a constant of the page's size, against the small
      // one. Moving the bytes (writing them, the client reading them) costs this much before any platform work.
      const pageBytes = results.get('liveGetChannelsByPage page 1 (15, newest)')?.figures.bytes;
      let floor: number | undefined;
      if (pageBytes) {
        const sameSize = await bareServer(pageBytes - 67);
        try {
          const sameOrigin = `http://127.0.0.1:${(sameSize.address() as AddressInfo).port}`;
          const measured = await measure(sameOrigin, bareOrigin, ['/rest'], ['/rest']);
          floor = measured.bare.rps / measured.figures.rps;
          console.log(row(`bare server answering ${pageBytes} B (the floor)`, measured.figures, measured.bare));
        } finally {
          await new Promise<void>((resolve) => sameSize.close(() => resolve()));
        }
      }
      const rssLoaded = settledRss();
      // The same reads again: what the platform keeps after answering them should not grow.
      for (const [, paramSets] of cases) {
        const reads = paramSets.filter((params) => params.action !== 'liveStartChannel').map(signedPath);
        await measure(platform.baseUrl, bareOrigin, reads, reads, REQUESTS / 4);
      }
      const rssAgain = settledRss();
      console.log(
        `\nprocess RSS (both servers and the client, after a GC): started ${mib(rssStarted)}, after the cases ${mib(rssLoaded)}, after the reads again ${mib(rssAgain)}`,
      );

      if (only) return;
      const fewer = (name: string): number => {
        const m = results.get(name)!;
        return m.bare.rps / m.figures.rps;
      };
      const channelPage = fewer('liveGetChannelsByPage page 1 (15, newest)');
      goalRow({
        figure: `channel page (15) on ${CHANNELS} channels, req/s vs a bare server`,
        goal: 'at most 2x fewer',
        measured: `${channelPage.toFixed(2)}x fewer`,
        met: channelPage <= 2,
      });
      if (floor !== undefined)
        goalRow({
          figure: 'channel page, a bare server answering a constant as large as the page',
          goal: 'reported (the floor)',
          measured: `${floor.toFixed(2)}x fewer`,
          met: undefined,
        });
      const videoPages = ['queryVideo sort=title asc, page 1 (15)', 'queryVideo sort=size desc, pages 1-500'];
      const videoPage = Math.max(...videoPages.map(fewer));
      goalRow({
        figure: `queryVideo page on ${VIDEOS} videos, req/s vs a bare server (worse of 2 cases)`,
        goal: 'at most 1.5x fewer',
        measured: `${videoPage.toFixed(2)}x fewer`,
        met: videoPage <= 1.5,
      });
      const rareTag = results.get('queryVideo search tag, rare (100k scan)')!.figures.p99;
      goalRow({
        figure: `rare-tag search over ${VIDEOS} videos, p99`,
        goal: 'at most 10 ms',
        measured: `${rareTag.toFixed(2)} ms`,
        met: rareTag <= 10,
      });
      goalRow({
        figure: `local platform RSS, ${CHANNELS} channels + ${VIDEOS} videos (bench process)`,
        goal: 'reported',
        measured: `${mib(rssStarted)} started, ${mib(rssLoaded)} after the cases`,
        met: undefined,
      });
      const growth = (rssAgain - rssLoaded) / rssLoaded;
      goalRow({
        figure: 'RSS growth when the same reads run again',
        goal: 'not growing (under 5%)',
        measured: `${growth >= 0 ? '+' : ''}${(growth * 100).toFixed(1)}% (${mib(rssAgain - rssLoaded)})`,
        met: growth < 0.05,
      });
    } finally {
      await platform.close();
    }
  } finally {
    await new Promise<void>((resolve) => bare.close(() => resolve()));
    await rm(dataDir, { recursive: true, force: true });
  }
}
