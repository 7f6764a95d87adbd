/**
 * `npm run qa -- FILE [MORE SEGMENT FILES...] [--target ebu|atsc|stream-14|stream-16] [--format text|json]
 *   [--stills DIR] [--max-seconds N] [--ffmpeg DIR]`
 * Content checks of a file (or segment files in playing order): loudness against the target, true peak, loudness
 * range, black, frozen video, silence, the audio/video start offset. Exit code: 0 no errors, 1 errors found, 2 could
 * not check (bad option, not media, no ffmpeg), 130 stopped by SIGINT or SIGTERM.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { findMediaTools } from '../tools';
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

function needValue(option: string, value: string | undefined): string {
  if (value === undefined || value.startsWith('--')) throw new QaInputError(`${option} needs a value; ${USAGE}`);
  return value;
}

export function parseQaArgs(argv: readonly string[]): Args {
  const args: Args = { files: [], target: TARGETS.ebu, json: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--target') {
      try {
        args.target = targetNamed(needValue(arg, argv[++i]));
      } catch (error) {
        throw new QaInputError((error as Error).message);
      }
    } else if (arg === '--format') {
      const format = needValue(arg, argv[++i]);
      if (format !== 'json' && format !== 'text')
        throw new QaInputError(`--format: use text or json (not "${format}")`);
      args.json = format === 'json';
    } else if (arg === '--json') args.json = true;
    else if (arg === '--stills') args.stills = needValue(arg, argv[++i]);
    else if (arg === '--ffmpeg') args.ffmpegDir = needValue(arg, argv[++i]);
    else if (arg === '--max-seconds') {
      const text = needValue(arg, argv[++i]);
      const value = Number(text);
      if (!Number.isFinite(value) || value <= 0 || value > 86_400) {
        throw new QaInputError(`--max-seconds needs a number of seconds above 0, at most 86400 (not "${text}")`);
      }
      args.maxSeconds = value;
    } else if (arg === '--help' || arg === '-h') throw new QaInputError(USAGE);
    else if (arg.startsWith('--')) throw new QaInputError(`unknown option ${arg}; ${USAGE}`);
    else args.files.push(arg);
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

async function main(): Promise<number> {
  let args: Args;
  try {
    args = parseQaArgs(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`qa: ${(error as Error).message}\n`);
    return 2;
  }
  const mode = await findMediaTools({ ...(args.ffmpegDir ? { dir: args.ffmpegDir } : {}), npmFallback: true });
  if (mode.kind !== 'real') {
    process.stderr.write(`qa: the content checks decode pictures and sound with ffmpeg: ${mode.reason}\n`);
    return 2;
  }
  const controller = new AbortController();
  const stop = (): void => controller.abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    const m = await measureContent(mode.tools.ffmpeg, args.files, {
      signal: controller.signal,
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
      const made = await stillsFor(mode.tools.ffmpeg, m, args.files, findings, { signal: controller.signal });
      stills = await Promise.all(
        made.map(async (s, i) => {
          const file = join(
            args.stills!,
            `${String(i + 1).padStart(2, '0')}-${s.finding.code}-${s.at.toFixed(2)}s.jpg`,
          );
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
  } catch (error) {
    if (controller.signal.aborted) {
      process.stderr.write('qa: stopped\n');
      return 130;
    }
    const message = (error as Error).message ?? String(error);
    process.stderr.write(`qa: ${error instanceof QaInputError ? message : `could not check: ${message}`}\n`);
    return 2;
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
}

if (require.main === module) {
  main().then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`qa: ${String(error)}\n`);
      process.exitCode = 2;
    },
  );
}
