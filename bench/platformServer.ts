/**
 * The servers of bench/platform.bench.ts, in a child process of their own (forked with tsx), so that the
 * load generator does not share an event loop with the server it measures. Two kinds:
 * - `platform ROOT`: has a large account (10,000 channels, 100,000 videos) seeded with the modules of the source
 *   tree ROOT (this repository, or a copy of an earlier commit to measure before and after in one run) by a
 *   process of its own (`seed ROOT DIR`), and starts the local platform on it;
 * - `bare`: three bare node:http servers, one answering a small constant envelope, one a constant envelope of a
 *   size the parent sets (as large as the page a case answers), and one replaying answers the parent captured
 *   from the platform: for each path, the platform's own headers and body bytes (pages.bench.ts).
 * Asked over IPC, it reports its CPU time (process.cpuUsage) and its RSS after a GC, so that the parent gets
 * each server's CPU per request over the rounds it measured.
 */
import { fork } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeHeapSnapshot } from 'node:v8';
import type * as Accounts from '../src/localPlatform/accounts';
import type * as BuiltinGroups from '../src/localPlatform/actions/builtinGroups';
import type * as Ids from '../src/localPlatform/store/ids';
import type * as Records from '../src/localPlatform/store/records';
import type { ChannelRec, LiveTemplateRec, VideoRec } from '../src/localPlatform/store/records';
import type * as PlatformServer from '../src/localPlatform/server';
import type * as Store from '../src/localPlatform/store/store';
import type * as Transcoder from '../src/localPlatform/transcoder';

export const CHANNELS = 10_000;
export const VIDEOS = 100_000;
export const ACCOUNT = { accessKey: 'bench-key', secretKey: 'bench-secret' };
export const WORDS = [
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

/** The rare-tag search: a tag no video carries, so the whole order of 100,000 videos is searched (both benches). */
export const RARE_TAG: Readonly<Record<string, string>> = {
  action: 'queryVideo',
  start: '1',
  number: '15',
  sort: 'tag',
  order: 'asc',
  searchType: 'tag',
  keyword: 'no-such-tag',
};

/** Parent to child. */
export type Ask =
  | { ask: 'cpu' }
  | { ask: 'rss' }
  | { ask: 'size'; bytes: number }
  | { ask: 'replay'; answers: Replayed[] }
  | { ask: 'close' };

/** One captured answer: the request's path, the platform's headers (name, value, ...) and body. */
export interface Replayed {
  path: string;
  headers: string[];
  body: Uint8Array;
}

/** Child to parent: the first message, then one answer per ask. */
export type Told =
  | { ready: true; origins: string[]; startable: string[]; notes: string[]; rss: number }
  | { user: number; system: number }
  | { rss: number }
  | { sized: true }
  | { replaying: number }
  | { closed: true };

/** The modules of one source tree (required at run time, so an earlier commit's copy can be measured too). */
interface Modules {
  accounts: typeof Accounts;
  builtinGroups: typeof BuiltinGroups;
  ids: typeof Ids;
  records: typeof Records;
  server: typeof PlatformServer;
  store: typeof Store;
  transcoder: typeof Transcoder;
}

function modulesOf(root: string): Modules {
  const load = (name: string): unknown => require(join(root, 'src', 'localPlatform', name));
  return {
    accounts: load('accounts') as typeof Accounts,
    builtinGroups: load('actions/builtinGroups') as typeof BuiltinGroups,
    ids: load('store/ids') as typeof Ids,
    records: load('store/records') as typeof Records,
    server: load('server') as typeof PlatformServer,
    store: load('store/store') as typeof Store,
    transcoder: load('transcoder') as typeof Transcoder,
  };
}

function template(m: Modules, i: number, w: number, h: number, kbps: number): LiveTemplateRec {
  return {
    id: m.ids.newId(),
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

function channel(m: Modules, i: number, templates: LiveTemplateRec[], now: number): ChannelRec {
  const id = m.ids.newId();
  const group = (protocolType: 1 | 2, ts: LiveTemplateRec[]) =>
    m.records.newOutputGroupRecord({
      id: m.ids.newId(),
      protocolType,
      createTime: now,
      isRecord: i % 4 === 0 ? '1' : '0',
      outputs: ts.map((t, k) => ({
        id: m.ids.newId(),
        templateId: t.id,
        isDefault: k === 0 ? '1' : '0',
        createTime: now,
        updateTime: null,
      })),
    });
  return m.records.newChannelRecord({
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

/** The one rendition a transcoded video of the bench's account has (tests that need videos of its shape use it too). */
export const RENDITION_720P = {
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
} as const;

/** Video i of the bench's account, but for its id and renditions: one in 8 is transcoded (status 2). */
export function videoFields(i: number, now: number) {
  return {
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
  };
}

function video(m: Modules, i: number, now: number): VideoRec {
  const id = m.ids.newId();
  const done = i % 8 === 2;
  return m.records.newVideoRecord({
    id,
    ...videoFields(i, now),
    streams: done ? m.transcoder.renditionsFor(m.ids.newId(), [{ ...RENDITION_720P }], 0, id, 60_000) : [],
  });
}

async function seed(m: Modules, dataDir: string): Promise<{ notes: string[]; startable: string[] }> {
  const started = performance.now();
  const store = await m.store.AccountStore.open(m.accounts.accountDir(dataDir, ACCOUNT.accessKey));
  const now = Date.now();
  const tx = new m.store.Tx();
  tx.put('meta', {
    id: 'meta',
    userId: 123456,
    nextLogoGroupId: 1,
    nextTemplateGroupId: m.builtinGroups.FIRST_USER_TEMPLATE_GROUP_ID,
    nextVideoCategoryId: 6,
    defaultTemplateGroupId: null,
    createdAt: now,
  });
  const templates = [template(m, 1, 1920, 1080, 4000), template(m, 2, 1280, 720, 2000), template(m, 3, 854, 480, 800)];
  for (const t of templates) tx.put('liveTemplates', t);
  for (let c = 1; c <= 5; c++) tx.put('videoCategories', { id: c, name: `Category ${c}` });
  const startable: string[] = [];
  for (let i = 0; i < CHANNELS; i++) {
    const ch = channel(m, i, templates, now);
    if (ch.status !== 2) startable.push(ch.id);
    tx.put('channels', ch);
  }
  for (let i = 0; i < VIDEOS; i++) tx.put('videos', video(m, i, now));
  store.seed(tx);
  const seeded = performance.now();
  await store.compact();
  await store.close();
  const note = `seeded ${CHANNELS} channels + ${VIDEOS} videos in memory: ${(seeded - started).toFixed(0)} ms; snapshot written: ${(performance.now() - seeded).toFixed(0)} ms`;
  return { notes: [note], startable };
}

/**
 * The account seeded and written to its snapshot by a process of its own (`seed ROOT DIR`), as a platform finds
 * its data on disk: seeding here left about 13 MiB of the platform's RSS that its records do not use (memory the
 * seeding's garbage took, kept by the process after a GC).
 */
function seedApart(root: string, dataDir: string): Promise<{ notes: string[]; startable: string[] }> {
  // tsx and --expose-gc, not the platform's profiling options (PLATFORM_CPU_PROF, PLATFORM_NODE_ARGS).
  const child = fork(__filename, ['seed', root, dataDir], { execArgv: ['--import', 'tsx', '--expose-gc'] });
  return new Promise((resolve, reject) => {
    child.once('message', (seeded) => resolve(seeded as { notes: string[]; startable: string[] }));
    child.once('exit', (code) => reject(new Error(`seeding exited (${code})`)));
  });
}

const gc = (globalThis as { gc?: () => void }).gc;

/**
 * PLATFORM_HEAP_SNAPSHOT=DIR: the platform's process writes a heap snapshot there each time it reports its RSS
 * (after seeding, started, then each ask), after reading the RSS: writing one grows the RSS of what follows.
 */
let snapshotDir: string | undefined;
let snapshots = 0;

/** RSS after a full collection, so the figure is what is kept, not garbage not yet collected. */
function settledRss(): number {
  gc?.();
  gc?.();
  const { rss } = process.memoryUsage();
  if (snapshotDir) writeHeapSnapshot(join(snapshotDir, `platform-${process.pid}-${++snapshots}.heapsnapshot`));
  return rss;
}

const listen = (server: Server): Promise<string> =>
  new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
  );

/** A bare server answering a constant envelope; `body()` is read per request, so the parent can resize it. */
function bareServer(body: () => Buffer): Server {
  return createServer((req, res) => {
    req.resume();
    const bytes = body();
    res.writeHead(200, { 'Content-Type': 'application/json;charset=UTF-8', 'Content-Length': bytes.length });
    res.end(bytes);
  });
}

/**
 * A bare server answering each path with the answer captured for it: a Map lookup and one write, the least a
 * server can do to send the platform's bytes (an unknown path is a 404, which the load generator counts).
 */
function replayServer(answers: () => Map<string, Replayed>): Server {
  return createServer((req, res) => {
    req.resume();
    const answer = answers().get(req.url ?? '');
    if (!answer) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, answer.headers);
    res.end(answer.body);
  });
}

function envelope(padding: number): Buffer {
  return Buffer.from(
    JSON.stringify({ code: 0, message: 'success', result: 'x'.repeat(padding), success: true, count: 0 }),
  );
}

async function main(): Promise<void> {
  const [kind, root, seedDir] = process.argv.slice(2);
  if (kind === 'seed') {
    process.send!(await seed(modulesOf(root!), seedDir!), () => process.exit(0));
    return;
  }
  const tell = (message: Told): void => void process.send!(message);
  let close: () => Promise<void>;
  let sized = envelope(0);
  let replayed = new Map<string, Replayed>();
  if (kind === 'bare') {
    const small = envelope(0);
    const servers = [bareServer(() => small), bareServer(() => sized), replayServer(() => replayed)];
    const origins = await Promise.all(servers.map(listen));
    close = async () => {
      await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
    };
    tell({ ready: true, origins, startable: [], notes: [], rss: settledRss() });
  } else {
    const m = modulesOf(root!);
    snapshotDir = process.env.PLATFORM_HEAP_SNAPSHOT;
    const dataDir = await mkdtemp(join(tmpdir(), 'platform-bench-'));
    const { notes, startable } = await seedApart(root!, dataDir);
    const rssBefore = settledRss();
    const loadStart = performance.now();
    const platform = await m.server.startLocalPlatform({ dataDir, accounts: [ACCOUNT], port: 0 });
    const rss = settledRss();
    notes.push(
      `platform start (load snapshot): ${(performance.now() - loadStart).toFixed(0)} ms, RSS ${(rssBefore / 1048576).toFixed(0)} -> ${(rss / 1048576).toFixed(0)} MiB`,
    );
    close = async () => {
      await platform.close();
      await rm(dataDir, { recursive: true, force: true });
    };
    tell({ ready: true, origins: [platform.baseUrl], startable, notes, rss });
  }
  process.on('message', (message: Ask) => {
    if (message.ask === 'cpu') {
      const { user, system } = process.cpuUsage();
      tell({ user, system });
    } else if (message.ask === 'rss') tell({ rss: settledRss() });
    else if (message.ask === 'size') {
      sized = envelope(Math.max(0, message.bytes - envelope(0).length));
      tell({ sized: true });
    } else if (message.ask === 'replay') {
      replayed = new Map(message.answers.map((answer) => [answer.path, answer]));
      tell({ replaying: replayed.size });
    } else {
      // Ends by itself once the servers are closed and the channel is gone (a --cpu-prof profile is written then).
      void close().then(() => {
        tell({ closed: true });
        process.disconnect();
      });
    }
  });
}

if (require.main === module) {
  // Ends with the bench (its IPC channel closes when the parent ends, kill -9 included).
  process.on('disconnect', () => process.exit(0));
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
