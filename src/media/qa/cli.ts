/**
 * `npm run qa -- FILE [MORE SEGMENT FILES...] [--target ebu|atsc|stream-14|stream-16] [--format text|json]
 *   [--stills DIR] [--max-seconds N] [--ffmpeg DIR]`
 * Content checks of a file (or segment files in playing order): loudness against the target, true peak, loudness
 * range, black, frozen video, silence, the audio/video start offset. Exit code: 0 no errors, 1 errors found, 2 could
 * not check (bad option, not media, no ffmpeg), 130 stopped by SIGINT or SIGTERM.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { readOptions, startMediaCommandLine, type MediaCommandLine } from '../commandLine';
import type { MediaTools } from '../tools';
import { checkContent, targetNamed, TARGETS, type LoudnessTarget, type QaFinding } from './checks';
import { measureContent, QaInputError } from './measure';
import type { ContentMeasurement } from './model';
import { stillsFor } from './stills';

const USAGE =
  'usage: npm run qa -- FILE [MORE SEGMENT FILES...] [--target ebu|atsc|stream-14|stream-16] [--format text|json] ' +
  '[--stills DIR] [--max-seconds N] [--ffmpeg DIR]';

interface Args {
  files: string[];
  target: LoudnessTarget;
  json: boolean;
  stills?: string;
  maxSeconds?: number;
  ffmpegDir?: string;
}

const OPTIONS = {
  target: { type: 'string' },
  format: { type: 'string' },
  json: { type: 'boolean' },
  stills: { type: 'string' },
  'max-seconds': { type: 'string' },
  ffmpeg: { type: 'string' },
} as const;

export function parseQaArgs(argv: readonly string[]): Args {
  const { values, positionals } = readOptions(argv, OPTIONS, USAGE, true);
  const text = (name: keyof typeof OPTIONS): string | undefined => values[name] as string | undefined;
  const args: Args = { files: positionals, target: TARGETS.ebu, json: values.json === true };
  const target = text('target');
  if (target !== undefined) {
    try {
      args.target = targetNamed(target);
    } catch (error) {
      throw new QaInputError((error as Error).message);
    }
  }
  const format = text('format');
  if (format !== undefined) {
    if (format !== 'json' && format !== 'text') throw new QaInputError(`--format: use text or json (not "${format}")`);
    args.json = format === 'json';
  }
  const stills = text('stills');
  if (stills !== undefined) args.stills = stills;
  const ffmpeg = text('ffmpeg');
  if (ffmpeg !== undefined) args.ffmpegDir = ffmpeg;
  const maxSeconds = text('max-seconds');
  if (maxSeconds !== undefined) {
    const value = Number(maxSeconds);
    if (!Number.isFinite(value) || value <= 0 || value > 86_400) {
      throw new QaInputError(`--max-seconds needs a number of seconds above 0, at most 86400 (not "${maxSeconds}")`);
    }
    args.maxSeconds = value;
  }
  if (args.files.length === 0) throw new QaInputError(`no file given; ${USAGE}`);
  return args;
}

const range = (f: QaFinding): string => (f.range ? ` [${f.range.start.toFixed(2)}–${f.range.end.toFixed(2)} s]` : '');

/** The report as text: the figures, then one line per finding. */
export function qaText(m: ContentMeasurement, target: LoudnessTarget, findings: readonly QaFinding[]): string {
  const lines = [`${m.input}${m.files > 1 ? ` (+${m.files - 1} more segments)` : ''}: ${m.duration.toFixed(2)} s`];
  if (m.loudness) {
    const peak = m.loudness.truePeak !== undefined ? `, true peak ${m.loudness.truePeak.toFixed(1)} dBTP` : '';
    lines.push(
      `Loudness: ${m.loudness.integrated.toFixed(1)} LUFS integrated (${target.label}: ${target.integrated} LUFS), ` +
        `range ${m.loudness.range.toFixed(1)} LU${peak}`,
    );
  }
  if (m.startOffset) {
    const ms = Math.round(m.startOffset.audioLag * 1000);
    lines.push(`Audio starts ${Math.abs(ms)} ms ${ms < 0 ? 'before' : 'after'} the video`);
  }
  lines.push(findings.length === 0 ? 'No findings.' : `${findings.length} finding(s):`);
  for (const f of findings) lines.push(`  ${f.severity.toUpperCase()} ${f.code}${range(f)} ${f.message} (${f.clause})`);
  return lines.join('\n');
}

/** The checks of the files, the report on stdout, the stills into `--stills`. */
async function runQa(args: Args, tools: MediaTools, signal: AbortSignal): Promise<number> {
  const m = await measureContent(tools.ffmpeg, args.files, {
    signal,
    ...(args.maxSeconds ? { maxSeconds: args.maxSeconds } : {}),
    ...(args.json
      ? {}
      : { onProgress: (s, total) => process.stderr.write(`… ${s.toFixed(0)} / ${total.toFixed(0)} s\r`) }),
  });
  if (!args.json) process.stderr.write('\n');
  const findings = checkContent(m, args.target);
  let stills: Array<{ code: string; at: number; file: string }> = [];
  if (args.stills) {
    await mkdir(args.stills, { recursive: true });
    const made = await stillsFor(tools.ffmpeg, m, args.files, findings, { signal });
    stills = await Promise.all(
      made.map(async (s, i) => {
        const file = join(args.stills!, `${String(i + 1).padStart(2, '0')}-${s.finding.code}-${s.at.toFixed(2)}s.jpg`);
        await writeFile(file, s.jpeg);
        return { code: s.finding.code, at: s.at, file };
      }),
    );
  }
  if (args.json) {
    process.stdout.write(
      `${JSON.stringify({ target: args.target.name, measurement: m, findings, stills }, null, 2)}\n`,
    );
  } else {
    process.stdout.write(`${qaText(m, args.target, findings)}\n`);
    for (const s of stills) process.stdout.write(`Still for ${s.code} at ${s.at.toFixed(2)} s: ${s.file}\n`);
  }
  return findings.some((f) => f.severity === 'error') ? 1 : 0;
}

export const QA_COMMAND_LINE: MediaCommandLine<Args> = {
  name: 'qa',
  parse: parseQaArgs,
  ffmpegDir: (args) => args.ffmpegDir,
  needs: 'the content checks decode pictures and sound with ffmpeg',
  isInputError: (error) => error instanceof QaInputError,
  couldNot: 'could not check',
  run: runQa,
};

if (require.main === module) startMediaCommandLine(QA_COMMAND_LINE);
