/**
 * The inspector's entry: reads an address or a file, decides what it is (HLS playlist, MP4, FLV, TS) and
 * returns the report. No `vscode` import: the CLI and the extension both call `inspect`.
 */
import { open } from 'node:fs/promises';
import { l10n } from '../l10n/l10n';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { finding, type Finding } from './findings';
import { inspectHls } from './hls';
import { describeCodecs, keyframeInterval, mediaFacts, UnreadableMedia } from './mediaFacts';
import { registeredFamilies, type MediaInput } from './registry';
import type { InputKind, Report, VariantRow } from './report';
import {
  DEFAULT_LIMITS,
  ReadError,
  displayAddress,
  makeReader,
  playlistText,
  toAddress,
  type FetchPort,
  type Reader,
} from './source';

export interface InspectOptions {
  readonly fetch: FetchPort;
  /** How long to watch a live playlist (s); 0 reads it once; by default 3 target durations, 10 to 60 s. */
  readonly liveSeconds?: number;
  /**
   * The whole run ends within this many seconds, with a report of what was read by then (default: 60, or the
   * live watching asked for plus 30).
   */
  readonly deadlineSeconds?: number;
  /** A read that receives no byte for this long fails (s, default 10). */
  readonly idleSeconds?: number;
  /** A read that has not ended after this long fails (s, default 20): a server sending a byte now and then. */
  readonly readSeconds?: number;
  /** At most this much of each sampled segment is read (bytes, default 32 MiB). */
  readonly maxSegmentBytes?: number;
  readonly signal?: AbortSignal;
  readonly onProgress?: (text: string) => void;
  /** The clock (ms), for tests. */
  readonly now?: () => number;
  /** Largest single media file (not a segment) read from the network (default 256 MiB). */
  readonly maxFileBytes?: number;
  /** The media families (registry.ts `inspectMedia`) to run, by name, with their options; none by default. */
  readonly mediaFamilies?: Readonly<Record<string, unknown>>;
}

/** The input could not be inspected at all (a bad address, nothing there, not media): exit code 2. */
export class InspectError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InspectError';
  }
}

const DEFAULT_DEADLINE_SECONDS = 60;
const DEFAULT_SEGMENT_BYTES = 32 * 1024 * 1024;

/** The media reader, for the report (src/media/read.ts). */
const READER = 'in-process (mediabunny 1.61.0; FLV: its own tag reader)';

/** What the inspector reads and measures, in words (translated when the report is made, not at module load). */
function samplingRule(segmentBytes: number, deadlineSeconds: number): string {
  return l10n.t(
    'every playlist (at most 4 MiB, 100,000 lines): the master, each variant, each rendition and I-frame playlist; the size of at most 200 segments per variant by HEAD (Content-Length) or file size, spread evenly; every segment of each variant and audio rendition downloaded (at most {0} bytes each) and read in-process, up to 30 per playlist (spread evenly beyond); live playlists reloaded every half target duration for --live-seconds (at most 60 s unless asked); the whole run within {1} s',
    segmentBytes,
    deadlineSeconds,
  );
}

const MEDIA_EXTENSIONS: Record<string, InputKind> = {
  mp4: 'mp4',
  m4v: 'mp4',
  mov: 'mp4',
  m4a: 'mp4',
  flv: 'flv',
  ts: 'ts',
};

type Result = { kind: InputKind; live: boolean; variants: VariantRow[]; findings: Finding[]; notChecked?: string[] };

export async function inspect(input: string, options: InspectOptions): Promise<Report> {
  const started = Date.now();
  const now = options.now ?? Date.now;
  let address: string;
  try {
    address = toAddress(input);
  } catch (error) {
    throw new InspectError(error instanceof Error ? error.message : String(error));
  }
  const deadlineSeconds =
    options.deadlineSeconds ?? Math.max(DEFAULT_DEADLINE_SECONDS, (options.liveSeconds ?? 0) + 30);
  const deadline = AbortSignal.timeout(deadlineSeconds * 1000);
  const segmentBytes = options.maxSegmentBytes ?? DEFAULT_SEGMENT_BYTES;
  const reader = makeReader(options.fetch, {
    input: address,
    deadline,
    ...(options.signal ? { signal: options.signal } : {}),
    limits: {
      ...(options.idleSeconds !== undefined ? { idleMs: options.idleSeconds * 1000 } : {}),
      ...(options.readSeconds !== undefined ? { readMs: options.readSeconds * 1000 } : {}),
      maxFileBytes: options.maxFileBytes ?? DEFAULT_LIMITS.maxFileBytes,
    },
  });
  const counters = { segmentsProbed: 0, reloads: 0 } as {
    segmentsProbed: number;
    reloads: number;
    liveEdgeSeconds?: number;
    watchedSeconds?: number;
  };
  const progress = options.onProgress ?? (() => undefined);
  const path = new URL(address).pathname.toLowerCase();
  const extension = path.includes('.') ? path.slice(path.lastIndexOf('.') + 1) : '';
  let result: Result | undefined;
  if (MEDIA_EXTENSIONS[extension]) {
    result = await inspectFile(address, undefined, reader, options);
  } else {
    // One byte past the playlist limit tells a playlist at the limit from one past it.
    const data = await readInput(reader, address, reader.limits.maxPlaylistBytes + 1);
    const head = data
      .subarray(0, 64)
      .toString('utf8')
      .replace(/^\uFEFF/, '');
    if (head.startsWith('#EXTM3U') || (extension === 'm3u8' && head.trimStart().startsWith('#'))) {
      let text: string | undefined;
      try {
        text = playlistText(data, address, reader.limits);
      } catch (error) {
        if (!(error instanceof ReadError)) throw error;
        result = tooLarge(error);
      }
      result ??= await inspectHls(address, text!, {
        reader,
        liveSeconds: options.liveSeconds,
        maxSegmentBytes: segmentBytes,
        deadlineAt: now() + deadlineSeconds * 1000 - (Date.now() - started),
        ...(options.signal ? { signal: options.signal } : {}),
        now,
        progress,
        counters,
      });
    } else if (extension === 'm3u8' || extension === 'm3u') {
      throw new InspectError(
        l10n.t('{0} is not an HLS playlist: it does not start with #EXTM3U', displayAddress(address)),
      );
    } else {
      result = await inspectFile(address, undefined, reader, options);
    }
  }
  await runMediaFamilies(address, result, reader, options, progress);
  if (deadline.aborted && !options.signal?.aborted) {
    result.findings.push(
      finding(
        'INSPECT-DEADLINE',
        l10n.t('The run stopped at its deadline of {0} s: what was not read by then is not measured.', deadlineSeconds),
        {},
      ),
    );
  }
  return {
    input: displayAddress(address),
    kind: result.kind,
    live: result.live,
    variants: result.variants,
    findings: sortFindings(result.findings),
    sampled: {
      rule: samplingRule(segmentBytes, deadlineSeconds),
      ...(result.notChecked && result.notChecked.length > 0 ? { notChecked: result.notChecked } : {}),
      segmentsProbed: counters.segmentsProbed,
      requests: { get: reader.counts.get, head: reader.counts.head },
      bytesRead: reader.counts.bytes,
      ...(result.live
        ? { liveSeconds: counters.watchedSeconds ?? options.liveSeconds ?? 0, playlistReloads: counters.reloads }
        : {}),
      ...(counters.liveEdgeSeconds !== undefined ? { liveEdgeSeconds: counters.liveEdgeSeconds } : {}),
      elapsedMs: Date.now() - started,
      reader: READER,
    },
  };
}

/** The media families the run names, over the input's renditions (a single file: the input itself). */
async function runMediaFamilies(
  address: string,
  result: Result,
  reader: Reader,
  options: InspectOptions,
  progress: (text: string) => void,
): Promise<void> {
  const asked = registeredFamilies().filter((f) => f.inspectMedia && options.mediaFamilies?.[f.name] !== undefined);
  if (asked.length === 0) return;
  const single = result.kind !== 'hls-master' && result.kind !== 'hls-media';
  const input: MediaInput = {
    live: result.live,
    renditions: result.variants.map((v) => {
      const base = v.address.startsWith('/') ? pathToFileURL(v.address).href : v.address.replace(/\?…$/, '');
      return {
        name: v.name,
        encrypted: (v.encryption ?? 'none') !== 'none',
        files: single ? [address] : (v.timeline ?? []).map((s) => new URL(s.uri, base).href),
        ...(!single && v.init ? { init: new URL(v.init, base).href } : {}),
      };
    }),
    read: async (at, maxBytes) => (await reader.read(at, { maxBytes })).data,
    ...(options.signal ? { signal: options.signal } : {}),
    progress,
  };
  for (const family of asked) {
    const out = await family.inspectMedia!(input, options.mediaFamilies![family.name]);
    result.findings.push(...out.findings);
    if (out.notChecked?.length) result.notChecked = [...(result.notChecked ?? []), ...out.notChecked];
  }
}

/** The input's first read: a failure is the run's error, in words. */
async function readInput(reader: Reader, address: string, maxBytes: number): Promise<Buffer> {
  try {
    // The start is enough to tell a playlist from media; media is read again by inspectFile.
    return (await reader.read(address, { maxBytes })).data;
  } catch (error) {
    if (error instanceof ReadError) throw new InspectError(l10n.t('cannot read {0}', error.message));
    throw error;
  }
}

/** A playlist past the size limits: a report with that finding and nothing measured. */
function tooLarge(error: ReadError): Result {
  return {
    kind: 'hls-media',
    live: false,
    variants: [],
    findings: [finding('INPUT-TOO-LARGE', l10n.t('The playlist {0}: not inspected.', error.message), {})],
  };
}

const ORDER = { error: 0, warning: 1, info: 2 } as const;
function sortFindings(findings: Finding[]): Finding[] {
  return findings
    .map((f, i) => ({ f, i }))
    .sort((a, b) => ORDER[a.f.severity] - ORDER[b.f.severity] || a.i - b.i)
    .map((x) => x.f);
}

/** A single media file: MP4, FLV, TS (or any container the media reader knows). */
async function inspectFile(
  address: string,
  already: Buffer | undefined,
  reader: Reader,
  options: InspectOptions,
): Promise<Result> {
  let input: string | Buffer;
  if (address.startsWith('file:')) {
    input = fileURLToPath(address);
    try {
      const handle = await open(input, 'r');
      await handle.close();
    } catch (error) {
      throw new InspectError(
        l10n.t('cannot read {0}: {1}', displayAddress(address), (error as NodeJS.ErrnoException).code ?? 'unreadable'),
      );
    }
  } else {
    const max = reader.limits.maxFileBytes;
    const size = already ? already.length : await reader.size(address);
    if (size !== undefined && size > max) {
      throw new InspectError(
        l10n.t('{0} is {1} bytes, more than the {2} bytes the inspector downloads', displayAddress(address), size, max),
      );
    }
    try {
      input = already ?? (await reader.bytes(address));
    } catch (error) {
      if (error instanceof ReadError) throw new InspectError(l10n.t('cannot read {0}', error.message));
      throw error;
    }
  }
  const findings: Finding[] = [];
  let facts;
  try {
    // The first minute is enough for the keyframe interval; the container tells the whole duration.
    facts = await mediaFacts(input, { readSeconds: 60, ...(options.signal ? { signal: options.signal } : {}) });
  } catch (error) {
    if (!(error instanceof UnreadableMedia)) throw error;
    throw new InspectError(
      l10n.t('{0} is not media the inspector can read ({1})', displayAddress(address), error.message),
    );
  }
  const format = facts.formatName;
  const kind: InputKind =
    format === 'mp4' || format === 'mov' ? 'mp4' : format === 'flv' ? 'flv' : format === 'mpegts' ? 'ts' : 'media';
  const size = facts.bytes;
  const duration = facts.duration ?? 0;
  const row: VariantRow = {
    name: displayAddress(address).split(/[\\/]/).pop() ?? address,
    address: displayAddress(address),
    declared: {},
    measured: {
      ...(duration > 0 ? { averageBandwidth: Math.round((size * 8) / duration), bandwidthFrom: 'file' as const } : {}),
      ...(facts.video
        ? {
            resolution: `${facts.video.width}x${facts.video.height}`,
            frameRate: Math.round(facts.video.frameRate * 1000) / 1000,
          }
        : {}),
      codecs: describeCodecs(facts),
    },
    ...(duration > 0 ? { duration: Math.round(duration * 1000) / 1000 } : {}),
  };
  const interval = keyframeInterval(facts.keyframes);
  if (interval)
    row.measured.keyframeInterval = {
      mean: Math.round(interval.mean * 1000) / 1000,
      spread: Math.round(interval.spread * 1000) / 1000,
    };
  if (!facts.video) findings.push(finding('MEDIA-NO-VIDEO', l10n.t('The input has no video stream.'), {}));
  if (kind === 'mp4') {
    const order = await topLevelAtoms(input);
    const moov = order.indexOf('moov');
    const mdat = order.indexOf('mdat');
    if (moov !== -1 && mdat !== -1 && moov > mdat) {
      findings.push(
        finding(
          'MP4-MOOV-AT-END',
          l10n.t(
            'The moov atom comes after mdat: a player must fetch the whole file before it can start (remux with -movflags +faststart).',
          ),
          {},
        ),
      );
    }
  }
  return { kind, live: false, variants: [row], findings };
}

/** The names of an MP4's top-level atoms, in file order (reads only the atom headers). */
export async function topLevelAtoms(input: string | Buffer): Promise<string[]> {
  if (Buffer.isBuffer(input))
    return atomNames(input.length, async (header, at) => void input.copy(header, 0, at, at + 16));
  const handle = await open(input, 'r');
  try {
    const { size } = await handle.stat();
    return await atomNames(size, async (header, at) => void (await handle.read(header, 0, 16, at)));
  } finally {
    await handle.close();
  }
}

async function atomNames(size: number, readHeader: (header: Buffer, at: number) => Promise<void>): Promise<string[]> {
  const names: string[] = [];
  let offset = 0;
  const header = Buffer.alloc(16);
  while (offset + 8 <= size && names.length < 64) {
    header.fill(0);
    await readHeader(header, offset);
    let length = header.readUInt32BE(0);
    const name = header.toString('latin1', 4, 8);
    if (length === 1) length = Number(header.readBigUInt64BE(8));
    else if (length === 0) length = size - offset;
    if (length < 8) break;
    names.push(name);
    offset += length;
  }
  return names;
}
