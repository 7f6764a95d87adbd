/**
 * Local platform list speed on a large account: 10,000 channels and 100,000 videos, then liveGetChannelsByPage
 * and queryVideo (with sort and search) under a few concurrent connections. The servers run in child processes
 * (bench/platformServer.ts), so this process, the load generator, never shares an event loop with them; each case
 * is measured in alternating rounds beside two bare node:http servers of the same run, one answering a small
 * constant envelope (the goal's reference) and one a constant as large as the case's answer (what moving the
 * bytes alone costs). Prints p50/p90/p99 latency, throughput, each server's CPU per request (process.cpuUsage in
 * its child), this process's CPU per request and share of a core (near 100%: the load generator is the limit),
 * the ratios to both bare servers, and the platform process's RSS after start, after the cases and after the
 * same reads again (growth).
 *
 * PLATFORM_BEFORE=DIR also runs the platform of another source tree (a copy of an earlier commit with a
 * node_modules link) in the same rounds: before and after side by side. PLATFORM_CPU_PROF=DIR writes a
 * --cpu-prof profile of the platform's process there, and PLATFORM_NODE_ARGS adds node options to it (such as
 * --trace-gc). PLATFORM_CASES=text runs only the cases whose name holds it.
 */
import { join } from 'node:path';
import { Pool } from 'undici';
import { cpuOf, rssOf, signedPath, startChild, stopChild, type Child } from './children';
import { goalRow } from './goalTable';
import { CHANNELS, RARE_TAG, VIDEOS, WORDS } from './platformServer';

const CONNECTIONS = 8;
const REQUESTS = 2_000;
/** Alternating rounds of each subject (the platform and the bare servers); who goes first rotates. */
const ROUNDS = 4;
/**
 * Requests to each server before its rounds: the JIT's work and the answer caches' first serialisation stay out
 * of the figures (a walk's pages are all asked before its rounds). 100 left the compiler at work during the
 * rounds: the bare servers then cost 70 us of CPU per request instead of 25; the platform's channel page went
 * from 250 us to 165 us after 1000 and 125 us after 6000.
 */
const WARMUP = Number(process.env.PLATFORM_WARMUP ?? 3000);

const cases = (startable: readonly string[]): Array<[string, Array<Record<string, string>>]> => [
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
  ['queryVideo search tag, rare (100k scan)', [{ ...RARE_TAG }]],
];

interface Figures {
  p50: number;
  p90: number;
  p99: number;
  rps: number;
  bytes: number;
  /** The server process's CPU time per request, microseconds: all, and the system's (kernel) share. */
  cpuUs: number;
  sysUs: number;
  /** This process's (the load generator's) CPU time per request, microseconds, and its share of one core. */
  genUs: number;
  genBusy: number;
}

/** One server measured: its paths, its pool and what its rounds gave. */
interface Subject {
  name: string;
  child: Child;
  origin: string;
  paths: string[];
  warmup: string[];
  pool: Pool;
  latencies: number[];
  /** Bytes and number of the answers read (warm-up included): their mean is the subject's answer size. */
  bytes: number;
  answers: number;
  ms: number;
  cpuUs: number;
  sysUs: number;
  genUs: number;
  /** Index of the next path: continues across rounds, so a write (a start) is never repeated. */
  next: number;
}

function subject(name: string, child: Child, origin: string, paths: string[], warmup = paths): Subject {
  return {
    name,
    child,
    origin,
    paths,
    warmup,
    pool: new Pool(origin, { connections: CONNECTIONS }),
    latencies: [],
    bytes: 0,
    answers: 0,
    ms: 0,
    cpuUs: 0,
    sysUs: 0,
    genUs: 0,
    next: 0,
  };
}

async function one(s: Subject, path: string, latencies: number[] | undefined): Promise<void> {
  const t = performance.now();
  const res = await s.pool.request({ method: 'GET', path });
  const text = await res.body.text();
  latencies?.push(performance.now() - t);
  s.bytes += Buffer.byteLength(text);
  s.answers++;
  if (!text.startsWith('{"code":0')) throw new Error(`unexpected answer: ${text.slice(0, 200)}`);
}

/** `count` requests over CONNECTIONS lanes, added to the subject's figures, with its server's CPU time. */
async function round(s: Subject, count: number): Promise<void> {
  const end = s.next + count;
  const cpu = await cpuOf(s.child);
  const started = performance.now();
  const generator = process.cpuUsage();
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (s.next < end) await one(s, s.paths[s.next++ % s.paths.length], s.latencies);
    }),
  );
  s.ms += performance.now() - started;
  const spent = process.cpuUsage(generator);
  s.genUs += spent.user + spent.system;
  const now = await cpuOf(s.child);
  s.cpuUs += now.user + now.system - cpu.user - cpu.system;
  s.sysUs += now.system - cpu.system;
}

const meanBytes = (s: Subject): number => Math.round(s.bytes / s.answers);

function figures(s: Subject): Figures {
  const sorted = [...s.latencies].sort((a, b) => a - b);
  const at = (q: number): number => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return {
    p50: at(0.5),
    p90: at(0.9),
    p99: at(0.99),
    rps: (sorted.length / s.ms) * 1000,
    bytes: meanBytes(s),
    cpuUs: s.cpuUs / sorted.length,
    sysUs: s.sysUs / sorted.length,
    genUs: s.genUs / sorted.length,
    genBusy: s.genUs / 1000 / s.ms,
  };
}

/** `count` requests to each subject, over CONNECTIONS lanes, not measured. */
async function warmUp(subjects: Subject[], count: number): Promise<void> {
  try {
    for (const s of subjects) {
      let next = 0;
      await Promise.all(
        Array.from({ length: CONNECTIONS }, async () => {
          while (next < count) await one(s, s.warmup[next++ % s.warmup.length], undefined);
        }),
      );
    }
  } finally {
    await Promise.all(subjects.map((s) => s.pool.close()));
  }
}

/**
 * The subjects in alternating rounds (who goes first rotates), so that the load of this shared machine weighs on
 * all alike and their ratios mean something. The first subject's mean answer size, read in its warm-up, is set on
 * the same-size bare server (`sized`) before the rounds.
 */
async function measure(subjects: Subject[], sized?: Child, requests = REQUESTS): Promise<Map<string, Figures>> {
  try {
    for (const s of subjects) {
      if (s.child === sized && subjects[0] !== s) await sized.ask({ ask: 'size', bytes: meanBytes(subjects[0]) });
      for (let i = 0; i < WARMUP; i++) await one(s, s.warmup[i % s.warmup.length], undefined); // warm-up (and caches)
    }
    const perRound = Math.ceil(requests / ROUNDS);
    for (let r = 0; r < ROUNDS; r++) {
      for (let k = 0; k < subjects.length; k++) await round(subjects[(r + k) % subjects.length], perRound);
    }
    return new Map(subjects.map((s) => [s.name, figures(s)]));
  } finally {
    await Promise.all(subjects.map((s) => s.pool.close()));
  }
}

function line(name: string, f: Figures, small?: Figures, same?: Figures): string {
  // CPU per request moves less with the machine's other load than throughput does: both are shown.
  const ratios = small
    ? `  ${(small.rps / f.rps).toFixed(2)}x fewer req/s than bare ${small.bytes} B` +
      (same
        ? `, ${(same.rps / f.rps).toFixed(2)}x than bare ${same.bytes} B (CPU ${(f.cpuUs / same.cpuUs).toFixed(2)}x)`
        : '')
    : '';
  return `  ${name.padEnd(18)} p50 ${f.p50.toFixed(2).padStart(6)} ms  p90 ${f.p90.toFixed(2).padStart(6)} ms  p99 ${f.p99.toFixed(2).padStart(6)} ms  ${f.rps.toFixed(0).padStart(6)} req/s  ${String(f.bytes).padStart(6)} B  CPU ${f.cpuUs.toFixed(0).padStart(4)} us/req (sys ${f.sysUs.toFixed(0).padStart(3)})  load generator ${f.genUs.toFixed(0).padStart(3)} us/req (${(f.genBusy * 100).toFixed(0).padStart(3)}% of a core)${ratios}`;
}

/** Every path once over CONNECTIONS lanes, not measured. */
async function askAll(origin: string, paths: readonly string[]): Promise<void> {
  const pool = new Pool(origin, { connections: CONNECTIONS });
  let next = 0;
  try {
    await Promise.all(
      Array.from({ length: CONNECTIONS }, async () => {
        while (next < paths.length) {
          const res = await pool.request({ method: 'GET', path: paths[next++] });
          const text = await res.body.text();
          if (!text.startsWith('{"code":0')) throw new Error(`unexpected answer: ${text.slice(0, 200)}`);
        }
      }),
    );
  } finally {
    await pool.close();
  }
}

/**
 * PLATFORM_RSS_ONLY=1: the platform's memory without the timed rounds (a minute instead of many): every path of
 * the cases once (the starts included), then the reads again, with the RSS after a GC after each pass.
 */
async function rssOnly(platform: Child, sets: Array<[string, Array<Record<string, string>>]>): Promise<void> {
  const all = sets.flatMap(([, paramSets]) => paramSets);
  const reads = all.filter((params) => params.action !== 'liveStartChannel');
  await askAll(platform.origins[0], all.map(signedPath));
  const rssLoaded = await rssOf(platform);
  await askAll(platform.origins[0], reads.map(signedPath));
  const rssAgain = await rssOf(platform);
  console.log(
    `platform process RSS (after a GC): started ${mib(platform.rss)}, after every path once ${mib(rssLoaded)}, after the reads again ${mib(rssAgain)}`,
  );
}

const mib = (bytes: number): string => `${(bytes / 1048576).toFixed(0)} MiB`;

const AFTER = 'platform';
const BEFORE = 'platform (before)';
const SMALL = 'bare small';
const SAME = 'bare same size';

export async function run(): Promise<void> {
  const before = process.env.PLATFORM_BEFORE;
  if (process.env.PLATFORM_RSS_ONLY) {
    const platform = await startChild(['platform', join(__dirname, '..')]);
    try {
      for (const note of platform.notes) console.log(note);
      await rssOnly(platform, cases(platform.startable));
    } finally {
      await stopChild(platform);
    }
    return;
  }
  const profile = process.env.PLATFORM_CPU_PROF;
  const [platform, earlier, bare] = await Promise.all([
    startChild(
      ['platform', join(__dirname, '..')],
      [
        ...(profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : []),
        ...(process.env.PLATFORM_NODE_ARGS?.split(' ').filter(Boolean) ?? []),
      ],
    ),
    before ? startChild(['platform', before]) : undefined,
    startChild(['bare']),
  ]);
  try {
    for (const note of platform.notes) console.log(note);
    if (earlier) for (const note of earlier.notes) console.log(`before: ${note}`);
    console.log(
      `${CONNECTIONS} connections, ${REQUESTS} requests per server and case in ${ROUNDS} alternating rounds; the load generator here, each server in a child process; CPU is the server process's per request (sys: the kernel's share)\n`,
    );
    // PLATFORM_CASES=text runs only the cases whose name holds it (for profiling one case); no goal rows then.
    const only = process.env.PLATFORM_CASES;
    const keep = ([name]: [string, unknown]): boolean => !only || name.includes(only);
    const mine = cases(platform.startable).filter(keep);
    const theirs = earlier ? cases(earlier.startable).filter(keep) : [];
    // Every server first answers a mix of all the cases' reads: measured from a cold start, the first case paid for
    // the JIT's work on the paths all cases share and for the collector's work after the start (the channel page
    // cost 154 us of CPU a request as the first case in one run, 70 us as the last with the order reversed).
    const mixed = (sets: Array<[string, Array<Record<string, string>>]>): Array<Record<string, string>> =>
      sets.flatMap(([, paramSets]) => paramSets.filter((params) => params.action !== 'liveStartChannel').slice(0, 50));
    const everyone = [subject(AFTER, platform, platform.origins[0], [], mixed(mine).map(signedPath))];
    if (earlier) everyone.push(subject(BEFORE, earlier, earlier.origins[0], [], mixed(theirs).map(signedPath)));
    everyone.push(
      subject(SMALL, bare, bare.origins[0], [], ['/rest']),
      subject(SAME, bare, bare.origins[1], [], ['/rest']),
    );
    await warmUp(everyone, WARMUP * 2);
    const results = new Map<string, Map<string, Figures>>();
    for (const [k, [name, paramSets]] of mine.entries()) {
      // Warm up on the reads only: a write (start) must not be repeated.
      const reads = (sets: Array<Record<string, string>>): string[] =>
        sets.filter((params) => params.action !== 'liveStartChannel').map(signedPath);
      const subjects = [subject(AFTER, platform, platform.origins[0], paramSets.map(signedPath), reads(paramSets))];
      if (earlier) {
        const sets = theirs[k][1];
        subjects.push(subject(BEFORE, earlier, earlier.origins[0], sets.map(signedPath), reads(sets)));
      }
      subjects.push(subject(SMALL, bare, bare.origins[0], ['/rest']), subject(SAME, bare, bare.origins[1], ['/rest']));
      const from = performance.now();
      const measured = await measure(subjects, bare);
      results.set(name, measured);
      const small = measured.get(SMALL)!;
      const same = measured.get(SAME)!;
      console.log(name);
      console.log(line(AFTER, measured.get(AFTER)!, small, same));
      if (earlier) console.log(line(BEFORE, measured.get(BEFORE)!, small, same));
      console.log(line(SMALL, small));
      console.log(line(SAME, same, small));
      // The case's span in this process's time, for reading a --cpu-prof profile of this case only.
      if (only) console.log(`  (measured from ${from.toFixed(0)} ms to ${performance.now().toFixed(0)} ms)`);
    }
    const rssStarted = platform.rss;
    const rssLoaded = await rssOf(platform);
    const rssEarlier = earlier ? await rssOf(earlier) : 0;
    // The same reads again: what the platform keeps after answering them should not grow.
    for (const [k, [, paramSets]] of mine.entries()) {
      const reads = paramSets.filter((params) => params.action !== 'liveStartChannel').map(signedPath);
      const subjects = [subject(AFTER, platform, platform.origins[0], reads)];
      if (earlier) {
        const sets = theirs[k][1].filter((params) => params.action !== 'liveStartChannel').map(signedPath);
        subjects.push(subject(BEFORE, earlier, earlier.origins[0], sets));
      }
      await measure(subjects, undefined, REQUESTS / 4);
    }
    const rssAgain = await rssOf(platform);
    console.log(
      `\nplatform process RSS (after a GC): started ${mib(rssStarted)}, after the cases ${mib(rssLoaded)}, after the reads again ${mib(rssAgain)}`,
    );
    if (earlier) {
      const again = await rssOf(earlier);
      console.log(
        `platform (before) process RSS: started ${mib(earlier.rss)}, after the cases ${mib(rssEarlier)}, after the reads again ${mib(again)}`,
      );
    }

    if (only) return;
    // The page figures with goals (against a bare server sending the same bytes) are pages.bench.ts's; this
    // file keeps its per-case detail and the platform's memory.
    goalRow({
      figure: `local platform RSS, ${CHANNELS} channels + ${VIDEOS} videos, after the cases`,
      goal: 'under 250 MiB',
      measured: `${mib(rssLoaded)} (${mib(rssStarted)} started)`,
      met: rssLoaded < 250 * 1048576,
    });
    const growth = (rssAgain - rssLoaded) / rssLoaded;
    goalRow({
      figure: 'RSS growth when the same reads run again',
      goal: 'not growing (under 5%)',
      measured: `${growth >= 0 ? '+' : ''}${(growth * 100).toFixed(1)}% (${mib(rssAgain - rssLoaded)})`,
      met: growth < 0.05,
    });
  } finally {
    await Promise.all([platform, earlier, bare].filter((c) => c !== undefined).map(stopChild));
  }
}
