/**
 * The inspector's entry: reads an address or a file, decides what it is (HLS playlist, MP4, FLV, TS) and
 * returns the report. No `vscode` import: the CLI and the extension both call `inspect`.
 */
import { mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import { l10n } from '../l10n/l10n';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { probe, type MediaTools } from '../media/tools';
import { finding, type Finding } from './findings';
import { inspectHls } from './hls';
import { keyframeInterval, mediaFacts } from './mediaFacts';
import type { InputKind, Report, VariantRow } from './report';
import { ReadError, displayAddress, makeReader, toAddress, type FetchPort } from './source';

export interface InspectOptions {
  readonly tools: Pick<MediaTools, 'ffprobe'> & { version?: string };
  readonly fetch: FetchPort;
  /** How long to watch a live playlist (s); 0 reads it once; by default 3 target durations, at least 10 s. */
  readonly liveSeconds?: number;
  readonly signal?: AbortSignal;
  readonly onProgress?: (text: string) => void;
  /** The clock (ms), for tests. */
  readonly now?: () => number;
  /** Largest single media file (not a segment) read from the network. */
  readonly maxFileBytes?: number;
}

/** The input could not be inspected at all (a bad address, nothing there, not media): exit code 2. */
export class InspectError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InspectError';
  }
}

/** What the inspector reads and probes, in words (translated when the report is made, not at module load). */
function samplingRule(): string {
  return l10n.t(
    'every playlist; every segment size by HEAD (Content-Length) or file size; the first, middle and last segment of each variant downloaded and probed; live playlists reloaded every half target duration for --live-seconds',
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

export async function inspect(input: string, options: InspectOptions): Promise<Report> {
  const started = Date.now();
  const now = options.now ?? Date.now;
  let address: string;
  try {
    address = toAddress(input);
  } catch (error) {
    throw new InspectError(error instanceof Error ? error.message : String(error));
  }
  const reader = makeReader(options.fetch, options.signal ? { signal: options.signal } : {});
  const tempDir = await mkdtemp(join(tmpdir(), 'vpt-inspect-'));
  const counters = { segmentsProbed: 0, reloads: 0 } as {
    segmentsProbed: number;
    reloads: number;
    liveEdgeSeconds?: number;
    watchedSeconds?: number;
  };
  const progress = options.onProgress ?? (() => undefined);
  try {
    const path = new URL(address).pathname.toLowerCase();
    const extension = path.includes('.') ? path.slice(path.lastIndexOf('.') + 1) : '';
    let result: { kind: InputKind; live: boolean; variants: VariantRow[]; findings: Finding[] };
    if (MEDIA_EXTENSIONS[extension]) {
      result = await inspectFile(address, undefined, tempDir, reader, options);
    } else {
      let data: Buffer;
      try {
        data = await reader.bytes(address);
      } catch (error) {
        if (error instanceof ReadError) throw new InspectError(l10n.t('cannot read {0}', error.message));
        throw error;
      }
      const head = data
        .subarray(0, 64)
        .toString('utf8')
        .replace(/^\uFEFF/, '');
      if (head.startsWith('#EXTM3U') || (extension === 'm3u8' && head.trimStart().startsWith('#'))) {
        result = await inspectHls(address, data.toString('utf8'), {
          tools: options.tools,
          reader,
          tempDir,
          liveSeconds: options.liveSeconds,
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
        result = await inspectFile(address, data, tempDir, reader, options);
      }
    }
    return {
      input: displayAddress(address),
      kind: result.kind,
      live: result.live,
      variants: result.variants,
      findings: sortFindings(result.findings),
      sampled: {
        rule: samplingRule(),
        segmentsProbed: counters.segmentsProbed,
        requests: { get: reader.counts.get, head: reader.counts.head },
        bytesRead: reader.counts.bytes,
        ...(result.live
          ? { liveSeconds: counters.watchedSeconds ?? options.liveSeconds ?? 0, playlistReloads: counters.reloads }
          : {}),
        ...(counters.liveEdgeSeconds !== undefined ? { liveEdgeSeconds: counters.liveEdgeSeconds } : {}),
        elapsedMs: Date.now() - started,
        ...(options.tools.version ? { ffprobe: options.tools.version } : {}),
      },
    };
  } finally {
    await rm(tempDir, { recursive: true, force: true });
  }
}

const ORDER = { error: 0, warning: 1, info: 2 } as const;
function sortFindings(findings: Finding[]): Finding[] {
  return findings
    .map((f, i) => ({ f, i }))
    .sort((a, b) => ORDER[a.f.severity] - ORDER[b.f.severity] || a.i - b.i)
    .map((x) => x.f);
}

/** A single media file: MP4, FLV, TS (or anything ffprobe reads). */
async function inspectFile(
  address: string,
  already: Buffer | undefined,
  tempDir: string,
  reader: ReturnType<typeof makeReader>,
  options: InspectOptions,
): Promise<{ kind: InputKind; live: boolean; variants: VariantRow[]; findings: Finding[] }> {
  let file: string;
  if (address.startsWith('file:')) {
    file = fileURLToPath(address);
    try {
      const handle = await open(file, 'r');
      await handle.close();
    } catch (error) {
      throw new InspectError(
        l10n.t('cannot read {0}: {1}', displayAddress(address), (error as NodeJS.ErrnoException).code ?? 'unreadable'),
      );
    }
  } else {
    const max = options.maxFileBytes ?? 1024 * 1024 * 1024;
    const size = already ? already.length : await reader.size(address);
    if (size !== undefined && size > max) {
      throw new InspectError(
        l10n.t('{0} is {1} bytes, more than the {2} bytes the inspector downloads', displayAddress(address), size, max),
      );
    }
    let data = already;
    if (!data) {
      try {
        data = await reader.bytes(address);
      } catch (error) {
        if (error instanceof ReadError) throw new InspectError(l10n.t('cannot read {0}', error.message));
        throw error;
      }
    }
    file = join(tempDir, 'input.media');
    await writeFile(file, data);
  }
  const findings: Finding[] = [];
  let facts;
  try {
    // The first minute is enough for the keyframe interval; the stream list covers the whole file.
    facts = await mediaFacts(options.tools, file, {
      readSeconds: 60,
      ...(options.signal ? { signal: options.signal } : {}),
    });
  } catch (error) {
    if (options.signal?.aborted) throw error;
    throw new InspectError(
      l10n.t(
        '{0} is not media ffprobe can read ({1})',
        displayAddress(address),
        error instanceof Error ? error.message.split('\n')[0] : String(error),
      ),
    );
  }
  const format = facts.formatName;
  const kind: InputKind =
    format.includes('mp4') || format.includes('mov')
      ? 'mp4'
      : format === 'flv'
        ? 'flv'
        : format === 'mpegts'
          ? 'ts'
          : 'media';
  const whole = await probe(options.tools, file, options.signal ? { signal: options.signal } : {});
  const size = Number(whole.format.size);
  const duration = Number(whole.format.duration);
  const row: VariantRow = {
    name: displayAddress(address).split(/[\\/]/).pop() ?? address,
    address: displayAddress(address),
    declared: {},
    measured: {
      ...(Number.isFinite(size) && duration > 0
        ? { averageBandwidth: Math.round((size * 8) / duration), bandwidthFrom: 'file' as const }
        : {}),
      ...(facts.video
        ? {
            resolution: `${facts.video.width}x${facts.video.height}`,
            frameRate: Math.round(facts.video.frameRate * 1000) / 1000,
          }
        : {}),
      codecs: [
        facts.video ? [facts.video.codec, facts.video.profile].filter(Boolean).join(' ') : '',
        facts.audio ? [facts.audio.codec, facts.audio.profile].filter(Boolean).join(' ') : '',
      ]
        .filter(Boolean)
        .join(', '),
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
    const order = await topLevelAtoms(file);
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
export async function topLevelAtoms(file: string): Promise<string[]> {
  const handle = await open(file, 'r');
  try {
    const { size } = await handle.stat();
    const names: string[] = [];
    let offset = 0;
    const header = Buffer.alloc(16);
    while (offset + 8 <= size && names.length < 64) {
      await handle.read(header, 0, 16, offset);
      let length = header.readUInt32BE(0);
      const name = header.toString('latin1', 4, 8);
      if (length === 1) length = Number(header.readBigUInt64BE(8));
      else if (length === 0) length = size - offset;
      if (length < 8) break;
      names.push(name);
      offset += length;
    }
    return names;
  } finally {
    await handle.close();
  }
}
