/**
 * The content checks: pure functions from a measurement (model.ts) and a loudness target to findings, each with a
 * stable code, a severity, the figures in plain words, the time range it concerns and the clause or recommendation
 * it rests on. The shape follows the inspector's findings (src/inspector/findings.ts: code, severity, message,
 * clause) plus the time range, so that they can be listed with the inspector's.
 */
import type { ContentMeasurement, Interval } from './model';

export type QaSeverity = 'error' | 'warning' | 'info';

export interface QaFinding {
  readonly code: QaCode;
  readonly severity: QaSeverity;
  readonly message: string;
  readonly clause: string;
  /** The stretch of the input it concerns (s); absent for the whole input. */
  readonly range?: Interval;
}

export type TargetName = 'ebu' | 'atsc' | 'stream-14' | 'stream-16';

export interface LoudnessTarget {
  readonly name: TargetName;
  readonly label: string;
  /** Integrated loudness aimed at (LUFS) and the tolerance either side (LU). */
  readonly integrated: number;
  readonly tolerance: number;
  /** Highest true peak allowed (dBTP). */
  readonly maxTruePeak: number;
  /** Loudness range above which a finding suggests compression (LU). */
  readonly maxRange: number;
  readonly clause: string;
  readonly peakClause: string;
}

export const TARGETS: Readonly<Record<TargetName, LoudnessTarget>> = {
  ebu: {
    name: 'ebu',
    label: 'EBU R 128',
    integrated: -23,
    tolerance: 0.5,
    maxTruePeak: -1,
    maxRange: 20,
    clause: 'EBU R 128: programme loudness -23.0 LUFS, ±0.5 LU for programmes that can be normalised',
    peakClause: 'EBU R 128: maximum true peak -1 dBTP',
  },
  atsc: {
    name: 'atsc',
    label: 'ATSC A/85',
    integrated: -24,
    tolerance: 2,
    maxTruePeak: -2,
    maxRange: 20,
    clause: 'ATSC A/85: target loudness -24 LKFS (±2 dB, the tolerance US broadcasters apply under the CALM Act)',
    peakClause: 'ATSC A/85: true peak at most -2 dBTP',
  },
  'stream-14': {
    name: 'stream-14',
    label: 'streaming -14 LUFS',
    integrated: -14,
    tolerance: 1,
    maxTruePeak: -1,
    maxRange: 15,
    clause: 'Streaming services normalise to -14 LUFS (Spotify, YouTube, Tidal); ±1 LU',
    peakClause: 'Streaming services: true peak at most -1 dBTP (lossy encoding adds peaks)',
  },
  'stream-16': {
    name: 'stream-16',
    label: 'streaming -16 LUFS',
    integrated: -16,
    tolerance: 1,
    maxTruePeak: -1,
    maxRange: 15,
    clause: 'AES TD1004 (streaming and network delivery: -16 LUFS, Apple Music); ±1 LU',
    peakClause: 'AES TD1004: true peak at most -1 dBTP',
  },
};

const EBU_QC = 'EBU Tech 3363 (EBU QC)';

/** Every code with its severity and what it means (README lists the same table). */
export const QA_CODES = {
  'QA-LOUDNESS-HIGH': { severity: 'error', meaning: 'integrated loudness above the target plus its tolerance' },
  'QA-LOUDNESS-LOW': { severity: 'error', meaning: 'integrated loudness below the target minus its tolerance' },
  'QA-TRUE-PEAK-HIGH': { severity: 'error', meaning: 'the maximum true peak is above the target’s ceiling' },
  'QA-LOUDNESS-RANGE-WIDE': {
    severity: 'info',
    meaning: 'the loudness range is wider than suits the target’s listeners (quiet passages get lost)',
  },
  'QA-BLACK': { severity: 'warning', meaning: 'black video for at least the black threshold (1 s)' },
  'QA-FROZEN': { severity: 'warning', meaning: 'frozen video (not black) for at least the freeze threshold (2 s)' },
  'QA-SILENCE': { severity: 'warning', meaning: 'audio below the silence level (-60 dBFS) for at least 2 s' },
  'QA-AV-OFFSET': {
    severity: 'warning',
    meaning: 'audio starts more than 40 ms before or 60 ms after the video (container timestamps)',
  },
  'QA-NO-AUDIO': { severity: 'info', meaning: 'no audio stream: loudness and silence not checked' },
  'QA-NO-VIDEO': { severity: 'info', meaning: 'no video stream: black and frozen video not checked' },
  'QA-PARTIAL': { severity: 'info', meaning: 'only the first part of the input was measured (--max-seconds)' },
} as const satisfies Record<string, { severity: QaSeverity; meaning: string }>;

export type QaCode = keyof typeof QA_CODES;

const CLAUSES: Partial<Record<QaCode, string>> = {
  'QA-LOUDNESS-RANGE-WIDE': 'EBU Tech 3343 (loudness range of programmes for home listening)',
  'QA-BLACK': `${EBU_QC}, black frames`,
  'QA-FROZEN': `${EBU_QC}, frozen frames`,
  'QA-SILENCE': `${EBU_QC}, audio silence`,
  'QA-AV-OFFSET': 'EBU R 37: sound at most 40 ms early and 60 ms late relative to vision',
  'QA-NO-AUDIO': EBU_QC,
  'QA-NO-VIDEO': EBU_QC,
  'QA-PARTIAL': EBU_QC,
};

function make(code: QaCode, message: string, clause: string, range?: Interval): QaFinding {
  return { code, severity: QA_CODES[code].severity, message, clause, ...(range ? { range } : {}) };
}

/** `12.34 s` with two decimals, and intervals as `4.00–6.04 s`. */
const secs = (value: number): string => `${value.toFixed(2)} s`;
const span = (range: Interval): string => `${range.start.toFixed(2)}–${range.end.toFixed(2)} s`;
const round1 = (value: number): string => value.toFixed(1);

/** Loudness against the target: integrated, true peak, range. */
export function loudnessFindings(m: ContentMeasurement, target: LoudnessTarget): QaFinding[] {
  const l = m.loudness;
  if (!m.hasAudio) return [make('QA-NO-AUDIO', 'The input has no audio stream.', CLAUSES['QA-NO-AUDIO']!)];
  if (!l) return [];
  const found: QaFinding[] = [];
  const off = l.integrated - target.integrated;
  if (Math.abs(off) > target.tolerance) {
    found.push(
      make(
        off > 0 ? 'QA-LOUDNESS-HIGH' : 'QA-LOUDNESS-LOW',
        `Integrated loudness ${round1(l.integrated)} LUFS is ${round1(Math.abs(off))} LU ${off > 0 ? 'above' : 'below'} ` +
          `the ${target.label} target of ${target.integrated} LUFS (±${target.tolerance} LU).`,
        target.clause,
      ),
    );
  }
  if (l.truePeak !== undefined && l.truePeak > target.maxTruePeak) {
    found.push(
      make(
        'QA-TRUE-PEAK-HIGH',
        `True peak ${round1(l.truePeak)} dBTP is above the ${target.label} ceiling of ${target.maxTruePeak} dBTP.`,
        target.peakClause,
      ),
    );
  }
  if (l.range > target.maxRange) {
    found.push(
      make(
        'QA-LOUDNESS-RANGE-WIDE',
        `Loudness range ${round1(l.range)} LU is wider than ${target.maxRange} LU.`,
        CLAUSES['QA-LOUDNESS-RANGE-WIDE']!,
      ),
    );
  }
  return found;
}

function overlaps(a: Interval, b: Interval): boolean {
  return a.start < b.end && b.start < a.end;
}

/** Black and frozen video; a black picture is also a still one, so a freeze inside black is reported as black only. */
export function pictureFindings(m: ContentMeasurement): QaFinding[] {
  if (!m.hasVideo) return [make('QA-NO-VIDEO', 'The input has no video stream.', CLAUSES['QA-NO-VIDEO']!)];
  const black = m.black.map((range) =>
    make('QA-BLACK', `Black video for ${secs(range.end - range.start)} (${span(range)}).`, CLAUSES['QA-BLACK']!, range),
  );
  const frozen = m.frozen
    .filter(
      (range) => !m.black.some((b) => overlaps(b, range) && b.start <= range.start + 0.1 && b.end >= range.end - 0.1),
    )
    .map((range) =>
      make(
        'QA-FROZEN',
        `Frozen video for ${secs(range.end - range.start)} (${span(range)}).`,
        CLAUSES['QA-FROZEN']!,
        range,
      ),
    );
  return [...black, ...frozen];
}

export function silenceFindings(m: ContentMeasurement): QaFinding[] {
  if (!m.hasAudio) return [];
  return m.silence.map((range) =>
    make('QA-SILENCE', `Silence for ${secs(range.end - range.start)} (${span(range)}).`, CLAUSES['QA-SILENCE']!, range),
  );
}

/** EBU R 37's window: sound may lead vision by 40 ms and lag it by 60 ms. */
export function offsetFindings(m: ContentMeasurement): QaFinding[] {
  const o = m.startOffset;
  if (!o) return [];
  const lagMs = Math.round(o.audioLag * 1000);
  if (lagMs >= -40 && lagMs <= 60) return [];
  const words = lagMs > 0 ? `${lagMs} ms after` : `${-lagMs} ms before`;
  return [
    make(
      'QA-AV-OFFSET',
      `Audio starts ${words} the video (audio at ${secs(o.audio)}, video at ${secs(o.video)}).`,
      CLAUSES['QA-AV-OFFSET']!,
      { start: Math.min(o.audio, o.video), end: Math.max(o.audio, o.video) },
    ),
  ];
}

/** Every content check, in the order of the input's timeline after the whole-input ones. */
export function checkContent(m: ContentMeasurement, target: LoudnessTarget = TARGETS.ebu): QaFinding[] {
  const whole = [...loudnessFindings(m, target), ...offsetFindings(m)];
  const timed = [...pictureFindings(m), ...silenceFindings(m)].sort(
    (a, b) => (a.range?.start ?? 0) - (b.range?.start ?? 0),
  );
  const partial = m.complete
    ? []
    : [make('QA-PARTIAL', `Only the first ${secs(m.duration)} were measured.`, CLAUSES['QA-PARTIAL']!)];
  return [...whole, ...timed, ...partial];
}

export function targetNamed(name: string): LoudnessTarget {
  if (name in TARGETS) return TARGETS[name as TargetName];
  throw new Error(`target: use one of ${Object.keys(TARGETS).join(', ')} (not "${name}")`);
}
