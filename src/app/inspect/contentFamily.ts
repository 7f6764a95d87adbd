/**
 * The content checks (src/media/qa: loudness against a target, true peak, loudness range, black, frozen video,
 * silence, audio/video start offset) as a family of the stream inspector (src/inspector/registry.ts
 * `inspectMedia`): Inspect Stream and `npm run inspect -- ADDRESS --content` run them over one rendition of the
 * input, downloaded within bounds (at most 60 segments and 256 MiB: for a live stream, the window the playlist
 * lists), and report each finding with its time range and a still at that time. Without ffmpeg they are named as
 * not run.
 */
import { l10n } from '../../l10n/l10n';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { finding, outsideCode, type Finding } from '../../inspector/findings';
import { registerFamily, type CodeInfo, type MediaInput, type MediaFamilyResult } from '../../inspector/registry';
import { checkContent, QA_CODES, TARGETS, type QaCode, type QaFinding, type TargetName } from '../../media/qa/checks';
import { measureContent } from '../../media/qa/measure';
import { stillsFor } from '../../media/qa/stills';

export const CONTENT_FAMILY = 'content';

export interface ContentFamilyOptions {
  /** ffmpeg's path; undefined: the checks are named as not run. */
  readonly ffmpeg: string | undefined;
  readonly target?: TargetName;
  /** Why there is no ffmpeg, for the finding that says the checks did not run. */
  readonly missing?: string;
}

/** Bounds of the download of one rendition. */
export const CONTENT_LIMITS = { segments: 60, bytes: 256 * 1024 * 1024, stills: 10 };

const CLAUSE = 'EBU R 128 / ATSC A/85 / EBU Tech 3363 (the clause of each finding names its own)';

const codes: Record<string, CodeInfo> = {
  ...Object.fromEntries(
    Object.entries(QA_CODES).map(([code, info]) => [
      code,
      { severity: info.severity, meaning: info.meaning, clause: CLAUSE },
    ]),
  ),
  'QA-NOT-RUN': {
    severity: 'info',
    meaning: 'the content checks were not run: they decode pictures and sound with ffmpeg, which was not found',
    clause: CLAUSE,
  },
};

function toFinding(q: QaFinding, variant: string | undefined, still?: Buffer): Finding {
  return {
    ...finding(outsideCode(q.code), q.message, variant !== undefined ? { variant } : {}),
    severity: q.severity,
    clause: q.clause,
    ...(q.range ? { range: { start: q.range.start, end: q.range.end } } : {}),
    ...(still ? { still: `data:image/jpeg;base64,${still.toString('base64')}` } : {}),
  };
}

/** The rendition's media as local files: a local input as it is, anything else downloaded into `dir`, bounded. */
async function localFiles(input: MediaInput, files: readonly string[], dir: string): Promise<string[]> {
  const out: string[] = [];
  let bytes = 0;
  for (const [i, address] of files.slice(0, CONTENT_LIMITS.segments).entries()) {
    if (address.startsWith('file:')) {
      out.push(fileURLToPath(address));
      continue;
    }
    input.progress(`content checks: downloading ${i + 1} of ${Math.min(files.length, CONTENT_LIMITS.segments)}`);
    const data = await input.read(address, CONTENT_LIMITS.bytes - bytes);
    bytes += data.length;
    const extension = /\.(ts|mp4|m4s|aac|flv|mov|m4v)(?:$|\?)/i.exec(new URL(address).pathname)?.[1] ?? 'ts';
    const file = join(dir, `${String(i).padStart(4, '0')}.${extension}`);
    await writeFile(file, data);
    out.push(file);
    if (bytes >= CONTENT_LIMITS.bytes) break;
  }
  return out;
}

async function inspectContent(input: MediaInput, raw: unknown): Promise<MediaFamilyResult> {
  const options = raw as ContentFamilyOptions;
  if (!options.ffmpeg) {
    const why = options.missing ? `: ${options.missing}` : '';
    return {
      findings: [finding(outsideCode('QA-NOT-RUN'), `The content checks were not run: they need ffmpeg${why}.`, {})],
      notChecked: ['loudness, true peak, black, frozen video, silence, audio/video start offset (no ffmpeg)'],
    };
  }
  const rendition = input.renditions.find((r) => !r.encrypted && r.files.length > 0);
  if (!rendition) return { findings: [], notChecked: ['content checks: no rendition in the clear to decode'] };
  const notChecked: string[] = [];
  if (input.renditions.length > 1) notChecked.push(`content checks: on ${rendition.name} only`);
  if (rendition.files.length > CONTENT_LIMITS.segments) {
    notChecked.push(`content checks: the first ${CONTENT_LIMITS.segments} of ${rendition.files.length} segments`);
  }
  const dir = await mkdtemp(join(tmpdir(), 'vpt-content-'));
  try {
    const files = await localFiles(input, rendition.files, dir);
    input.progress('content checks: measuring');
    const target = TARGETS[options.target ?? 'ebu'];
    const measured = await measureContent(options.ffmpeg, files, {
      ...(input.signal ? { signal: input.signal } : {}),
    });
    const qa = checkContent(measured, target);
    const stills = await stillsFor(options.ffmpeg, measured, files, qa, {
      ...(input.signal ? { signal: input.signal } : {}),
      max: CONTENT_LIMITS.stills,
    });
    const variant = input.renditions.length > 1 || files.length > 1 ? rendition.name : undefined;
    return {
      findings: qa.map((q) => toFinding(q, variant, stills.find((s) => s.finding === q)?.jpeg)),
      notChecked,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

registerFamily({
  name: CONTENT_FAMILY,
  // A getter, as the built-in families have: the heading follows the language the report is drawn in.
  get title(): string {
    return l10n.t('Content: loudness, black, frozen video, silence');
  },
  codes: codes as Record<QaCode | 'QA-NOT-RUN', CodeInfo>,
  inspectMedia: inspectContent,
});
