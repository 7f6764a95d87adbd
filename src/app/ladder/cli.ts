/**
 * `npm run ladder -- --group FILE.templategroup.json --reference FILE|builtin [--compare OTHER.templategroup.json]
 *   [--platform-group ID] [--seconds N] [--format text|json|csv] [--svg CHART.svg] [--ffmpeg DIR]`
 * The ladder lab from the command line. `--platform-group ID` evaluates a template group of the account that the
 * environment names (VIDEO_PLATFORM_BASE_URL, VIDEO_PLATFORM_ACCESS_KEY, VIDEO_PLATFORM_SECRET_KEY, as for
 * `npm run configs`): through that platform when it is a local one (its address on this machine), else with
 * ffmpeg here. Exit code: 0 no findings, 1 findings, 2 could not evaluate, 130 stopped.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { Watchdog } from '../../localPlatform/live/watchdog';
import { readOptions, startMediaCommandLine, type MediaCommandLine } from '../../media/commandLine';
import type { MediaTools } from '../../media/tools';
import { rateQualitySvg } from './chart';
import { ladderCsv, ladderJson } from './exports';
import { clientFromEnvironment } from '../configs/cli';
import { isLoopback } from '../accounts/connection';
import type { FetchGet } from './download';
import { LadderInputError, ladderFromDocument, ladderFromRecord } from './group';
import { encodedByText } from './page';
import { DEFAULT_SECONDS, evaluateLadder, MAX_SECONDS, type LabOptions } from './lab';
import type { Ladder, LadderEvaluation } from './model';
import { builtinReference } from './reference';

const USAGE =
  'usage: npm run ladder -- --group FILE.templategroup.json --reference FILE|builtin [--compare OTHER.templategroup.json] ' +
  '[--platform-group ID] [--seconds N] [--format text|json|csv] [--svg CHART.svg] [--ffmpeg DIR]';

export interface LadderArgs {
  groups: string[];
  /** Template groups of the account in the environment, by id. */
  platformGroups: number[];
  reference: string;
  seconds: number;
  format: 'text' | 'json' | 'csv';
  svg?: string;
  ffmpegDir?: string;
}

const OPTIONS = {
  group: { type: 'string', multiple: true },
  compare: { type: 'string', multiple: true },
  'platform-group': { type: 'string', multiple: true },
  reference: { type: 'string' },
  seconds: { type: 'string' },
  format: { type: 'string' },
  svg: { type: 'string' },
  ffmpeg: { type: 'string' },
} as const;

export function parseLadderArgs(argv: readonly string[]): LadderArgs {
  const { values } = readOptions(argv, OPTIONS, USAGE);
  const text = (name: keyof typeof OPTIONS): string | undefined => values[name] as string | undefined;
  const groups = [
    ...((values.group as string[] | undefined) ?? []),
    ...((values.compare as string[] | undefined) ?? []),
  ];
  let seconds = DEFAULT_SECONDS;
  const secondsText = text('seconds');
  if (secondsText !== undefined) {
    seconds = Number(secondsText);
    if (!(seconds > 0 && seconds <= MAX_SECONDS)) {
      throw new LadderInputError(`--seconds needs a number above 0, at most ${MAX_SECONDS} (not "${secondsText}")`);
    }
  }
  const format = text('format') ?? 'text';
  if (format !== 'text' && format !== 'json' && format !== 'csv') {
    throw new LadderInputError(`--format: use text, json or csv (not "${format}")`);
  }
  const reference = text('reference');
  const platformGroups = ((values['platform-group'] as string[] | undefined) ?? []).map((id) => {
    if (!/^[1-9]\d{0,9}$/.test(id)) throw new LadderInputError(`--platform-group: a template group id (not "${id}")`);
    return Number(id);
  });
  if (groups.length + platformGroups.length === 0) {
    throw new LadderInputError(`--group: name a *.templategroup.json file (or --platform-group ID); ${USAGE}`);
  }
  if (groups.length + platformGroups.length > 4) throw new LadderInputError('--compare: at most 4 groups on one chart');
  if (!reference) throw new LadderInputError(`--reference: a media file, or "builtin" for the test clip; ${USAGE}`);
  const svg = text('svg');
  const ffmpegDir = text('ffmpeg');
  return {
    groups,
    platformGroups,
    reference,
    seconds,
    format,
    ...(svg ? { svg } : {}),
    ...(ffmpegDir ? { ffmpegDir } : {}),
  };
}

export function ladderText(evaluations: readonly LadderEvaluation[]): string {
  const lines: string[] = [];
  for (const e of evaluations) {
    lines.push(
      `${e.ladder.name} on ${e.reference.label} (${e.reference.width}x${e.reference.height}, ${e.reference.seconds.toFixed(1)} s)`,
    );
    lines.push(`  ${encodedByText(e)}`);
    if (e.vmafUnavailable) lines.push(`  VMAF not measured: ${e.vmafUnavailable}`);
    for (const r of [...e.results].sort((a, b) => a.rung.videoKbps - b.rung.videoKbps)) {
      const vmaf = r.vmaf !== undefined ? `, VMAF ${r.vmaf.toFixed(1)}` : '';
      lines.push(
        `  ${r.rung.name} ${r.width}x${r.height} target ${r.rung.videoKbps} kbps: average ${Math.round(r.averageBitrate / 1000)} kbps, ` +
          `peak ${Math.round(r.peakBitrate / 1000)} kbps, PSNR ${r.psnr.toFixed(2)} dB, SSIM ${r.ssim.toFixed(4)} ` +
          `(at the reference size ${r.psnrAtReference.toFixed(2)} dB, ${r.ssimAtReference.toFixed(4)})${vmaf}, ` +
          (r.encodeSeconds !== undefined && r.speed !== undefined
            ? `encode ${r.encodeSeconds.toFixed(1)} s (${r.speed.toFixed(1)}×)`
            : 'encode time not measured through the platform'),
      );
    }
    for (const f of e.findings) lines.push(`  ${f.severity.toUpperCase()} ${f.code} ${f.message} (${f.clause})`);
    if (e.findings.length === 0) lines.push('  No findings.');
  }
  return lines.join('\n');
}

/** The account's groups by id: through its platform when that is a local one, else encoded here. */
async function platformLadders(
  ids: readonly number[],
  signal: AbortSignal,
): Promise<Array<{ ladder: Ladder; way: Pick<LabOptions, 'platform' | 'ffmpegWhy'> }>> {
  const client = clientFromEnvironment(process.env);
  const listed = await client.templateGroupList({}, { signal });
  const local = isLoopback(process.env.VIDEO_PLATFORM_BASE_URL!.trim());
  return ids.map((id) => {
    const group = listed.find((g) => g.id === id);
    if (!group) throw new LadderInputError(`--platform-group: the account has no template group ${id}`);
    const ladder = ladderFromRecord(group);
    const fetchGet: FetchGet = (url, fetchSignal) => fetch(url, { signal: fetchSignal });
    return {
      ladder,
      way: local
        ? { platform: { client, groupId: id, fetch: fetchGet } }
        : { ffmpegWhy: 'the group is a real platform’s, whose encoder this tool cannot time or reach' },
    };
  });
}

/** Evaluates every group on the reference; the report on stdout (and the chart into `--svg`). */
async function runLadder(args: LadderArgs, tools: MediaTools, signal: AbortSignal): Promise<number> {
  // No ffmpeg outlives this process, even killed with -9.
  const watchdog = new Watchdog();
  const workDir = await mkdtemp(join(tmpdir(), 'vpt-ladder-'));
  try {
    const ladders: Array<{ ladder: Ladder; way?: Pick<LabOptions, 'platform' | 'ffmpegWhy'> }> = await Promise.all(
      args.groups.map(async (file) => ({ ladder: ladderFromDocument(await readFile(file, 'utf8'), basename(file)) })),
    );
    if (args.platformGroups.length > 0) ladders.push(...(await platformLadders(args.platformGroups, signal)));
    const progress = (message: string): void => void (args.format === 'text' && process.stderr.write(`… ${message}\n`));
    const reference =
      args.reference === 'builtin'
        ? {
            label: 'built-in test clip',
            file: await builtinReference(tools.ffmpeg, join(homedir(), '.cache', 'video-platform-tools'), undefined, {
              signal,
              track: watchdog,
            }),
          }
        : { label: args.reference, file: args.reference };
    const evaluations: LadderEvaluation[] = [];
    for (const { ladder, way } of ladders) {
      progress(`${ladder.name}: ${ladder.rungs.length} renditions`);
      evaluations.push(
        await evaluateLadder(tools, ladder, reference, {
          workDir,
          seconds: args.seconds,
          signal,
          track: watchdog,
          onProgress: progress,
          ...way,
        }),
      );
    }
    if (args.svg) await writeFile(args.svg, rateQualitySvg(evaluations));
    const out =
      args.format === 'json'
        ? ladderJson(evaluations)
        : args.format === 'csv'
          ? ladderCsv(evaluations)
          : `${ladderText(evaluations)}\n`;
    process.stdout.write(out);
    return evaluations.some((e) => e.findings.length > 0) ? 1 : 0;
  } finally {
    await rm(workDir, { recursive: true, force: true });
    watchdog.close();
  }
}

export const LADDER_COMMAND_LINE: MediaCommandLine<LadderArgs> = {
  name: 'ladder',
  parse: parseLadderArgs,
  ffmpegDir: (args) => args.ffmpegDir,
  needs: 'the ladder lab encodes and compares pictures with ffmpeg',
  isInputError: (error) => error instanceof LadderInputError,
  couldNot: 'could not evaluate',
  run: runLadder,
};

if (require.main === module) startMediaCommandLine(LADDER_COMMAND_LINE);
