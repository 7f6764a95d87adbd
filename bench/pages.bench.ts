/**
 * Pages of the local platform against a bare server that sends the same bytes (issue 29). 10,000 channels and
 * 100,000 videos seeded as in platform.bench.ts; for each case the platform's answers are captured (headers and
 * body, per signed path) and handed to a bare node:http server that replays them by path, so both sides read
 * the same requests and send the same bytes, and what is left between them is the platform's own work.
 *
 * The load comes from autocannon in a process of its own (loadGenerator.ts), 8 connections, alternating rounds
 * of ROUND_SECONDS (who goes first rotates), median of 3. Printed per case and side: req/s, p50/p99 latency,
 * the server process's CPU time per request (process.cpuUsage asked over IPC around each round) and the load
 * generator's share of a core (near 100% would make it, not the server, the limit). The same rounds compare the
 * rare-tag search (a scan of 100,000 videos) with a page of 15 videos by id, in p99 latency.
 *
 * PAGES_ROUND_SECONDS=N changes the rounds' length (8 by default, as the issue measured them); PAGES_CPU_PROF=DIR
 * writes a --cpu-prof profile of the platform's process there; PAGES_CASES=text runs the page cases whose name
 * holds it (no goal rows then); PAGES_BEFORE=DIR runs the platform of another source tree (a copy of an earlier
 * commit with a node_modules link, as platform.bench.ts's PLATFORM_BEFORE) as a third side of the same rounds;
 * PAGES_RATE=N offers N requests a second in every round instead of as many as the servers answer (CPU per
 * request of both sides at the same load, with the load generator far from a core).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { get } from 'node:http';
import { join } from 'node:path';
import { cpuOf, signedPath, startChild, stopChild, type Child } from './children';
import { goalRow } from './goalTable';
import type { Drive, Driven } from './loadGenerator';
import { RARE_TAG, type Replayed } from './platformServer';

const CONNECTIONS = 8;
const ROUNDS = 3;
const ROUND_SECONDS = Number(process.env.PAGES_ROUND_SECONDS ?? 8);
const RATE = process.env.PAGES_RATE ? Number(process.env.PAGES_RATE) : undefined;
/** Seconds of load on each side before its rounds: the JIT's work and the answer caches stay out of the figures. */
const WARMUP_SECONDS = 3;

type Params = Record<string, string>;

const CHANNEL_PAGE = 'channel page 1 (15, newest first)';
const VIDEO_TITLE = 'queryVideo sort=title, page 1 (15)';
const VIDEO_SIZE = 'queryVideo sort=size desc, pages 1-500';

const pageCases: Array<[string, Params[]]> = [
  [CHANNEL_PAGE, [{ action: 'liveGetChannelsByPage' }]],
  [VIDEO_TITLE, [{ action: 'queryVideo', start: '1', number: '15', sort: 'title', order: 'asc' }]],
  [
    VIDEO_SIZE,
    Array.from({ length: 500 }, (_, i) => ({
      action: 'queryVideo',
      start: String(i + 1),
      number: '15',
      sort: 'size',
      order: 'desc',
    })),
  ],
];

/** One GET as a plain client sees it: status, headers (raw, name then value) and body bytes. */
function capture(origin: string, path: string): Promise<{ status: number; headers: string[]; body: Buffer }> {
  return new Promise((resolve, reject) => {
    get(`${origin}${path}`, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.rawHeaders, body: Buffer.concat(chunks) }),
      );
      res.on('error', reject);
    }).on('error', reject);
  });
}

/** Headers a node:http server writes by itself (the replay server writes them too, so they are not copied). */
const OWN_HEADERS = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

async function captured(origin: string, paths: string[]): Promise<Replayed[]> {
  const answers: Replayed[] = [];
  for (const path of paths) {
    const { status, headers, body } = await capture(origin, path);
    if (status !== 200 || !body.toString('utf8', 0, 9).startsWith('{"code":0')) {
      throw new Error(`the platform did not answer ${path}: ${status} ${body.toString('utf8', 0, 200)}`);
    }
    const kept: string[] = [];
    for (let i = 0; i < headers.length; i += 2) {
      if (!OWN_HEADERS.has(headers[i].toLowerCase())) kept.push(headers[i], headers[i + 1]);
    }
    answers.push({ path, headers: kept, body });
  }
  return answers;
}

/** The load generator's process and one run of it. */
interface Generator {
  proc: ChildProcess;
  drive(ask: Drive): Promise<Driven>;
}

function startGenerator(): Generator {
  const proc = fork(join(__dirname, 'loadGenerator.ts'), [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return {
    proc,
    drive: (ask) =>
      new Promise((resolve, reject) => {
        const exited = (code: number | null): void => reject(new Error(`the load generator exited (${code})`));
        proc.once('exit', exited);
        proc.once('message', (driven: Driven) => {
          proc.off('exit', exited);
          resolve(driven);
        });
        proc.send(ask);
      }),
  };
}

/** A side of a comparison: the server process to ask for CPU time, its origin and the paths to ask. */
interface Side {
  name: string;
  child: Child;
  origin: string;
  paths: string[];
}

interface Round {
  rps: number;
  p50: number;
  p99: number;
  /** The server process's CPU time per request, microseconds. */
  cpuUs: number;
  /** The load generator's share of one core over the round. */
  generator: number;
}

async function oneRound(generator: Generator, side: Side, seconds: number): Promise<Round> {
  const cpu = await cpuOf(side.child);
  const driven = await generator.drive({
    url: side.origin,
    paths: side.paths,
    connections: CONNECTIONS,
    seconds,
    rate: RATE,
  });
  const now = await cpuOf(side.child);
  if (driven.failures > 0) throw new Error(`${side.name}: ${driven.failures} failed requests`);
  return {
    rps: driven.requests / driven.seconds,
    p50: driven.p50,
    p99: driven.p99,
    cpuUs: (now.user + now.system - cpu.user - cpu.system) / driven.requests,
    generator: driven.cpuUs / 1e6 / driven.seconds,
  };
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** Medians of each side's rounds, and the generator's busiest round. */
interface Measured {
  rps: number;
  p50: number;
  p99: number;
  cpuUs: number;
  generator: number;
}

/** Warm-up, then ROUNDS alternating rounds (who goes first rotates); each side's medians. */
async function compare(generator: Generator, sides: Side[]): Promise<Measured[]> {
  for (const side of sides) await oneRound(generator, side, WARMUP_SECONDS);
  const rounds: Round[][] = sides.map(() => []);
  for (let r = 0; r < ROUNDS; r++) {
    for (let k = 0; k < sides.length; k++) {
      const i = (r + k) % sides.length;
      rounds[i].push(await oneRound(generator, sides[i], ROUND_SECONDS));
    }
  }
  return rounds.map((of) => ({
    rps: median(of.map((x) => x.rps)),
    p50: median(of.map((x) => x.p50)),
    p99: median(of.map((x) => x.p99)),
    cpuUs: median(of.map((x) => x.cpuUs)),
    generator: Math.max(...of.map((x) => x.generator)),
  }));
}

const describe = (name: string, m: Measured): string =>
  `  ${name.padEnd(26)} ${m.rps.toFixed(0).padStart(6)} req/s  p50 ${m.p50.toFixed(1).padStart(5)} ms  p99 ${m.p99.toFixed(1).padStart(5)} ms  server CPU ${m.cpuUs.toFixed(0).padStart(4)} us/req  load generator ${(m.generator * 100).toFixed(0).padStart(3)}% of a core`;

export async function run(): Promise<void> {
  const profile = process.env.PAGES_CPU_PROF;
  const only = process.env.PAGES_CASES;
  const before = process.env.PAGES_BEFORE;
  const [platform, bare, earlier] = await Promise.all([
    startChild(['platform', join(__dirname, '..')], profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : []),
    startChild(['bare']),
    before ? startChild(['platform', before]) : undefined,
  ]);
  const generator = startGenerator();
  try {
    for (const note of platform.notes) console.log(note);
    console.log(
      `autocannon in its own process, ${CONNECTIONS} connections, ${ROUNDS} alternating rounds of ${ROUND_SECONDS} s, medians; the bare server replays the platform's captured answers (same headers, same body bytes)\n`,
    );
    const [origin] = platform.origins;
    const replayOrigin = bare.origins[2];
    const pages = new Map<string, { platform: Measured; bare: Measured }>();
    let firstVideos: Buffer | undefined;
    for (const [name, paramSets] of pageCases.filter(([name]) => !only || name.includes(only))) {
      const paths = paramSets.map(signedPath);
      const answers = await captured(origin, paths);
      await bare.ask({ ask: 'replay', answers });
      if (name === VIDEO_TITLE) firstVideos = Buffer.from(answers[0].body);
      const bytes = answers.reduce((sum, a) => sum + a.body.length, 0) / answers.length;
      const [mine, theirs, previous] = await compare(generator, [
        { name: 'platform', child: platform, origin, paths },
        { name: 'bare, same bytes', child: bare, origin: replayOrigin, paths },
        ...(earlier ? [{ name: 'platform (before)', child: earlier, origin: earlier.origins[0], paths }] : []),
      ]);
      pages.set(name, { platform: mine, bare: theirs });
      console.log(`${name}, ${(bytes / 1024).toFixed(1)} KiB a page`);
      console.log(describe('platform', mine));
      console.log(describe('bare server, same bytes', theirs));
      if (previous) console.log(describe('platform (before)', previous));
      console.log(
        `  -> ${(theirs.rps / mine.rps).toFixed(2)}x fewer req/s, ${(mine.cpuUs / theirs.cpuUs).toFixed(2)}x the server CPU per request`,
      );
    }

    if (only) return;
    // A page of 15 videos by id (getTranscodedVideos) against the rare-tag search, on the platform.
    const listed = JSON.parse(firstVideos!.toString('utf8')) as { result: Array<{ id: string }> };
    const byId = signedPath({ action: 'getTranscodedVideos', ids: listed.result.map((v) => v.id).join(',') });
    const [rare, page] = await compare(generator, [
      { name: 'rare tag', child: platform, origin, paths: [signedPath(RARE_TAG)] },
      { name: 'page by id', child: platform, origin, paths: [byId] },
    ]);
    console.log('queryVideo rare tag (100,000 videos scanned) against getTranscodedVideos of 15 ids');
    console.log(describe('rare tag', rare));
    console.log(describe('page of 15 by id', page));

    const ratio = (name: string): { fewer: number; cpu: number } => {
      const m = pages.get(name)!;
      return { fewer: m.bare.rps / m.platform.rps, cpu: m.platform.cpuUs / m.bare.cpuUs };
    };
    const channel = ratio(CHANNEL_PAGE);
    const videos = [ratio(VIDEO_TITLE), ratio(VIDEO_SIZE)];
    const videoFewer = Math.max(...videos.map((v) => v.fewer));
    const videoCpu = Math.max(...videos.map((v) => v.cpu));
    goalRow({
      figure: 'channel page (15 of 10,000 channels), req/s vs a bare server sending the same bytes',
      goal: 'at most 1.1x fewer',
      measured: `${channel.fewer.toFixed(2)}x fewer`,
      met: channel.fewer <= 1.1,
    });
    goalRow({
      figure: 'queryVideo pages (100,000 videos, worse of 2 cases), same',
      goal: 'at most 1.25x fewer',
      measured: `${videoFewer.toFixed(2)}x fewer`,
      met: videoFewer <= 1.25,
    });
    goalRow({
      figure: 'server CPU per request vs that bare server: channel page / queryVideo',
      goal: 'at most 1.5x / 1.5x',
      measured: `${channel.cpu.toFixed(2)}x / ${videoCpu.toFixed(2)}x`,
      met: channel.cpu <= 1.5 && videoCpu <= 1.5,
    });
    const busiest = Math.max(...[...pages.values()].flatMap((m) => [m.platform.generator, m.bare.generator]));
    goalRow({
      figure: 'load generator (autocannon, own process), busiest round, share of a core',
      goal: 'reported (well under 100%)',
      measured: `${(busiest * 100).toFixed(0)}%`,
      met: undefined,
    });
    const tail = rare.p99 / page.p99;
    goalRow({
      figure: 'rare-tag search over 100,000 videos, p99, vs a page of 15 by id',
      goal: 'at most 2x',
      measured: `${tail.toFixed(2)}x (${rare.p99.toFixed(1)} / ${page.p99.toFixed(1)} ms)`,
      met: tail <= 2,
    });
  } finally {
    generator.proc.send({ close: true });
    await Promise.all([platform, bare, earlier].filter((child) => child !== undefined).map(stopChild));
  }
}
