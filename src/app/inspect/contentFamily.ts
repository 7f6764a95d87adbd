/**
 * The content checks (src/media/qa: loudness against a target, true peak, loudness range, black, frozen video,
 * silence, audio/video start offset) as a family of the stream inspector (src/inspector/registry.ts
 * `inspectMedia`): Inspect Stream and `npm run inspect -- ADDRESS --content` run them over one rendition of the
 * input, downloaded within bounds (at most 60 segments and 256 MiB: for a live stream, the window the playlist
 * lists), and report each finding with its time range and a still at that time. Without ffmpeg they are named as
 * not run.
 */
import { l10n } from '../../l10n/l10n';
import { appendFile, mkdtemp, readFile, rm } from 'node:fs/promises';
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

/**
 * Bounds per rendition: its first 60 segments (2 minutes of 2 s segments) and 256 MiB; at most 8 renditions (the
 * rest named as not checked), 10 stills each.
 */
export const CONTENT_LIMITS = { segments: 60, bytes: 256 * 1024 * 1024, renditions: 8, stills: 10 };

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

type Rendition = MediaInput['renditions'][number];

/**
 * The rendition's media as one local file: a local input as it is; anything else downloaded into `dir` (bounded),
 * its initialization section first (fMP4) and its segments after it in playing order, one TS or fragmented MP4
 * stream as a player would feed it to its decoder.
 */
async function localFile(input: MediaInput, rendition: Rendition, index: number, dir: string): Promise<string> {
  const first = rendition.files[0]!;
  if (rendition.files.length === 1 && !rendition.init && first.startsWith('file:')) return fileURLToPath(first);
  const segments = rendition.files.slice(0, CONTENT_LIMITS.segments);
  const addresses = [...(rendition.init ? [rendition.init] : []), ...segments];
  const extension = rendition.init ? 'mp4' : (/\.(ts|mp4|m4s|aac|flv|mov|m4v)(?:$|\?)/i.exec(first)?.[1] ?? 'ts');
  const file = join(dir, `rendition-${index}.${extension === 'm4s' ? 'mp4' : extension}`);
  let bytes = 0;
  for (const [i, address] of addresses.entries()) {
    input.progress(l10n.t('content checks: downloading {0}, {1} of {2}', rendition.name, i + 1, addresses.length));
    const data = address.startsWith('file:')
      ? await readFile(fileURLToPath(address))
      : await input.read(address, CONTENT_LIMITS.bytes - bytes);
    bytes += data.length;
    if (bytes > CONTENT_LIMITS.bytes) break;
    await appendFile(file, data);
  }
  return file;
}

/** Measures one rendition; its findings name it when the input has several. */
async function checkRendition(
  input: MediaInput,
  options: ContentFamilyOptions & { ffmpeg: string },
  rendition: Rendition,
  index: number,
  dir: string,
): Promise<Finding[]> {
  const file = await localFile(input, rendition, index, dir);
  input.progress(l10n.t('content checks: measuring {0}', rendition.name));
  const signal = input.signal ? { signal: input.signal } : {};
  const measured = await measureContent(options.ffmpeg, file, signal);
  const qa = checkContent(measured, TARGETS[options.target ?? 'ebu']);
  const stills = await stillsFor(options.ffmpeg, measured, [file], qa, { ...signal, max: CONTENT_LIMITS.stills });
  const several = input.renditions.length > 1;
  return qa.map((q) =>
    toFinding(
      several ? { ...q, message: l10n.t('{0}: {1}', rendition.name, q.message) } : q,
      several || rendition.files.length > 1 ? rendition.name : undefined,
      stills.find((s) => s.finding === q)?.jpeg,
    ),
  );
}

/** What the bounds left out, in words. */
function leftOut(input: MediaInput, checked: readonly Rendition[]): string[] {
  const notChecked: string[] = [];
  const clear = input.renditions.filter((r) => !r.encrypted && r.files.length > 0);
  if (clear.length < input.renditions.length) {
    notChecked.push(
      l10n.t('content checks: {0} encrypted or empty renditions not decoded', input.renditions.length - clear.length),
    );
  }
  if (checked.length < clear.length) {
    notChecked.push(l10n.t('content checks: the first {0} of {1} renditions', checked.length, clear.length));
  }
  for (const r of checked.filter((r) => r.files.length > CONTENT_LIMITS.segments)) {
    notChecked.push(
      l10n.t('content checks: the first {0} of {1} segments of {2}', CONTENT_LIMITS.segments, r.files.length, r.name),
    );
  }
  return notChecked;
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
  const ffmpeg = options.ffmpeg;
  const checked = input.renditions
    .filter((r) => !r.encrypted && r.files.length > 0)
    .slice(0, CONTENT_LIMITS.renditions);
  if (checked.length === 0)
    return { findings: [], notChecked: ['content checks: no rendition in the clear to decode'] };
  const dir = await mkdtemp(join(tmpdir(), 'vpt-content-'));
  try {
    const findings: Finding[] = [];
    for (const [i, rendition] of checked.entries()) {
      findings.push(...(await checkRendition(input, { ...options, ffmpeg }, rendition, i, dir)));
    }
    return { findings, notChecked: leftOut(input, checked) };
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
