/**
 * Reads what ffmpeg's ebur128, blackdetect, freezedetect and silencedetect filters write to stderr, line by line,
 * into the measured intervals and loudness. Pure: fed lines, it keeps only the figures (never the whole log).
 */
import type { Interval, Loudness } from './model';

const NUMBER = '(-?(?:\\d+(?:\\.\\d*)?|\\.\\d+)(?:e[-+]?\\d+)?|-?inf|nan)';
const BLACK = new RegExp(`black_start:${NUMBER}\\s+black_end:${NUMBER}`);
const FREEZE_START = new RegExp(`freezedetect\\.freeze_start:\\s*${NUMBER}`);
const FREEZE_END = new RegExp(`freezedetect\\.freeze_end:\\s*${NUMBER}`);
const SILENCE_START = new RegExp(`silence_start:\\s*${NUMBER}`);
const SILENCE_END = new RegExp(`silence_end:\\s*${NUMBER}`);
const SUMMARY = /\bSummary:\s*$/;
const INTEGRATED = new RegExp(`^\\s+I:\\s+${NUMBER}\\s+LUFS`);
const RANGE = new RegExp(`^\\s+LRA:\\s+${NUMBER}\\s+LU\\b`);
const PEAK = new RegExp(`^\\s+Peak:\\s+${NUMBER}\\s+dBFS`);
/** ffmpeg's progress line: `... time=00:00:20.01 bitrate=...`. */
const TIME = /\btime=(\d+):(\d{2}):(\d{2}(?:\.\d+)?)/;

function value(text: string): number {
  if (text === 'inf') return Infinity;
  if (text === '-inf') return -Infinity;
  return Number(text);
}

export class FilterLog {
  readonly black: Interval[] = [];
  readonly frozen: Interval[] = [];
  readonly silence: Interval[] = [];
  /** The last time ffmpeg's progress line gave (s). */
  time = 0;
  private freezeStart: number | undefined;
  private silenceStart: number | undefined;
  private summary: { integrated?: number; range?: number; truePeak?: number } | undefined;
  private lastSummary: { integrated?: number; range?: number; truePeak?: number } | undefined;

  /** One line of ffmpeg's stderr. */
  read(line: string): void {
    const time = TIME.exec(line);
    if (time) this.time = Number(time[1]) * 3600 + Number(time[2]) * 60 + Number(time[3]);
    let match: RegExpExecArray | null;
    if ((match = BLACK.exec(line))) this.black.push({ start: value(match[1]!), end: value(match[2]!) });
    else if ((match = FREEZE_START.exec(line))) this.freezeStart = value(match[1]!);
    else if ((match = FREEZE_END.exec(line))) {
      this.frozen.push({ start: this.freezeStart ?? 0, end: value(match[1]!) });
      this.freezeStart = undefined;
    } else if ((match = SILENCE_START.exec(line))) this.silenceStart = Math.max(0, value(match[1]!));
    else if ((match = SILENCE_END.exec(line))) {
      this.silence.push({ start: this.silenceStart ?? 0, end: value(match[1]!) });
      this.silenceStart = undefined;
    } else this.readSummary(line);
  }

  /**
   * ebur128 prints a summary when it closes; ffmpeg 5 may build the filter graph twice and print an empty summary
   * for the first one, so the last summary counts.
   */
  private readSummary(line: string): void {
    if (SUMMARY.test(line)) {
      this.summary = {};
      this.lastSummary = this.summary;
      return;
    }
    if (!this.summary) return;
    let match: RegExpExecArray | null;
    if ((match = INTEGRATED.exec(line))) this.summary.integrated = value(match[1]!);
    else if ((match = RANGE.exec(line))) this.summary.range = value(match[1]!);
    else if ((match = PEAK.exec(line))) this.summary.truePeak = value(match[1]!);
  }

  /** The intervals still open when the input ended close at `end`. */
  finish(end: number): void {
    if (this.freezeStart !== undefined) this.frozen.push({ start: this.freezeStart, end });
    if (this.silenceStart !== undefined) this.silence.push({ start: this.silenceStart, end });
    this.freezeStart = undefined;
    this.silenceStart = undefined;
  }

  /** The loudness summary; undefined when ebur128 printed none (no audio) or only silence (-70 LUFS gate). */
  loudness(): Loudness | undefined {
    const s = this.lastSummary;
    if (!s || s.integrated === undefined || !Number.isFinite(s.integrated) || s.range === undefined) return undefined;
    return {
      integrated: s.integrated,
      range: s.range,
      ...(s.truePeak !== undefined && Number.isFinite(s.truePeak) ? { truePeak: s.truePeak } : {}),
    };
  }
}
