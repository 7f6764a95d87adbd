import { validateDocument } from '../../authoring/validate';
import { explainCode } from '../../api/errorCodes';
import type {
  AdHocTemplates,
  SecondTranscodeJob,
  SecondTranscodeResult,
  TemplateGroupSummary,
  Video,
} from '../../api/types';
import { reportFailure } from '../failures';
import type { OpenDocument, PickItem } from '../ui';
import type { CommandDeps } from './deps';
import { nameList, resolveVideos } from './targets';

/** The ad-hoc part of an open `*.transcode.json` job file. */
export interface AdHocSource {
  readonly fileName: string;
  readonly transcodeTemplates: AdHocTemplates;
  readonly videoType?: 0 | 1;
  readonly trailor?: boolean;
  readonly trailorDuration?: number;
  readonly replace?: boolean;
}

type Source = { kind: 'group'; group: TemplateGroupSummary } | { kind: 'file'; document: OpenDocument };

function baseName(fileName: string): string {
  return fileName.split(/[\\/]/).pop() ?? fileName;
}

function lineOf(text: string, offset: number): number {
  return text.slice(0, offset).split('\n').length;
}

/**
 * Reads the templates of a transcode job file (`validateDocument('transcode', ...)` first). Throws an Error naming the file, the place and
 * the rule when the file cannot be used (nothing is sent then).
 */
export function readAdHocSource(document: OpenDocument): AdHocSource {
  const name = baseName(document.fileName);
  // The authoring rules (schema and extra rules) decide whether the file is usable.
  const { value, problems } = validateDocument('transcode', document.text);
  const errors = problems.filter((problem) => problem.severity === 'error');
  if (errors.length > 0 || value === undefined) {
    const first = errors[0];
    const more = errors.length > 1 ? ` (and ${errors.length - 1} more problem${errors.length > 2 ? 's' : ''})` : '';
    throw new Error(
      first
        ? `${name}, line ${lineOf(document.text, first.range.offset)}: ${first.message}${more}`
        : `${name} is not a transcode job`,
    );
  }
  const job = value as Record<string, unknown>;
  const templates = job.transcodeTemplates;
  if (templates === undefined)
    throw new Error(`${name} has no transcodeTemplates (ad-hoc templates) to transcode with`);
  const source: { -readonly [K in keyof AdHocSource]: AdHocSource[K] } = {
    fileName: document.fileName,
    transcodeTemplates: templates as AdHocTemplates,
  };
  if (job.videoType === 0 || job.videoType === 1) source.videoType = job.videoType;
  if (typeof job.trailor === 'boolean') source.trailor = job.trailor;
  if (typeof job.trailorDuration === 'number') source.trailorDuration = job.trailorDuration;
  if (typeof job.replace === 'boolean') source.replace = job.replace;
  return source;
}

/**
 * Uploaded (0), transcoded (2) or failed (3): the platform refuses the others (1 and 6 are
 * transcoding, 7 is queued, 4 and 5 have no usable source). The Videos view's menu follows this.
 */
export function canTranscode(video: Video): boolean {
  return video.status === 0 || video.status === 2 || video.status === 3;
}

export interface TranscodeOutcome {
  readonly job: SecondTranscodeJob;
  readonly results: SecondTranscodeResult[];
}

/** "2 of 3 videos queued" plus one line per refused video, with the code explained. */
export function describeResults(
  results: readonly SecondTranscodeResult[],
  videos: readonly Video[],
): { ok: string[]; refused: string[] } {
  const title = (id: string): string => {
    const video = videos.find((candidate) => candidate.id === id);
    return `"${video?.title || video?.fileName || id}"`;
  };
  return {
    ok: results.filter((result) => result.code === 0).map((result) => result.id),
    refused: results
      .filter((result) => result.code !== 0)
      .map((result) => `${title(result.id)}: ${explainCode(result.code)} (code ${result.code})`),
  };
}

/**
 * videoPlatform.transcodeVideos: the selected (or picked) videos, with a template group or the
 * ad-hoc templates of an open `*.transcode.json`, replacing or saving as; per-video outcomes are
 * reported and the accepted videos followed until done.
 */
export async function transcodeVideos(deps: CommandDeps, ...args: unknown[]): Promise<TranscodeOutcome | undefined> {
  const title = 'Transcode videos';
  const videos = await resolveVideos(deps, args, {
    title,
    many: true,
    eligible: canTranscode,
    why: 'only uploaded, transcoded or failed videos can be transcoded',
  });
  if (!videos) return undefined;
  const names = nameList(
    videos.map((video) => video.title || video.fileName),
    'videos',
  );

  let groups: TemplateGroupSummary[];
  try {
    const client = await deps.connection.activeClient();
    groups = await client.templateGroupList();
  } catch (error) {
    await reportFailure(deps.ui, deps.log, 'Read the template groups', error);
    return undefined;
  }
  const files = deps.ui
    .openDocuments()
    .filter((document) => document.fileName.toLowerCase().endsWith('.transcode.json'));
  const items: PickItem<Source>[] = [];
  if (files.length) {
    items.push({ label: 'Ad-hoc templates (open files)', separator: true });
    for (const document of files)
      items.push({
        label: `$(file) ${baseName(document.fileName)}`,
        description: 'templates of this file, for this run only',
        value: { kind: 'file', document },
      });
  }
  if (groups.length) {
    items.push({ label: 'Template groups', separator: true });
    for (const group of groups) {
      items.push({
        label: `$(layers) ${group.name}`,
        description: [group.defaultGroup ? 'default' : '', group.type === 1 ? 'VR' : '', `id ${group.id}`]
          .filter(Boolean)
          .join(' · '),
        value: { kind: 'group', group },
      });
    }
  }
  if (!items.length) {
    await deps.ui.warn('There is no template group in this account and no *.transcode.json file is open.');
    return undefined;
  }
  const source = await deps.ui.pick(items, { title: `${title}: ${names}`, placeHolder: 'Transcode with...' });
  if (!source) return undefined;

  let adHoc: AdHocSource | undefined;
  if (source.kind === 'file') {
    try {
      adHoc = readAdHocSource(source.document);
    } catch (error) {
      await reportFailure(deps.ui, deps.log, `Use ${baseName(source.document.fileName)}`, error);
      return undefined;
    }
  }
  const replaceItems: PickItem<boolean>[] = [
    {
      label: '$(add) Save as',
      description: 'adds the new renditions as a new video item; keeps the current ones',
      value: false,
    },
    {
      label: '$(replace) Replace',
      description: 'deletes the earlier renditions once the new ones are done',
      value: true,
    },
  ];
  if (adHoc?.replace === true) replaceItems.reverse();
  const replace = await deps.ui.pick(replaceItems, {
    title: `${title}: ${names}`,
    placeHolder: 'Keep or replace the current renditions?',
  });
  if (replace === undefined) return undefined;

  const job: SecondTranscodeJob = { videoIds: videos.map((video) => video.id), replace };
  if (adHoc) {
    job.transcodeTemplates = adHoc.transcodeTemplates;
    if (adHoc.videoType !== undefined) job.videoType = adHoc.videoType;
    if (adHoc.trailor !== undefined) job.trailor = adHoc.trailor;
    if (adHoc.trailorDuration !== undefined) job.trailorDuration = adHoc.trailorDuration;
  } else if (source.kind === 'group') {
    job.transcodeTemplateGroupId = source.group.id;
  }

  let results: SecondTranscodeResult[];
  let epoch: number;
  try {
    const client = await deps.connection.activeClient();
    epoch = deps.connection.epoch;
    results = await deps.ui.withProgress(
      { title: `Requesting transcoding of ${names}`, cancellable: true },
      ({ signal }) => client.secondTranscodeV2(job, { signal }),
    );
  } catch (error) {
    await reportFailure(deps.ui, deps.log, `Transcode ${names}`, error);
    return undefined;
  }

  const { ok, refused } = describeResults(results, videos);
  deps.log.info(
    `secondTranscodeV2: ${ok.length} accepted, ${refused.length} refused${refused.length ? `: ${refused.join('; ')}` : ''}`,
  );
  deps.videos.track(ok, epoch);
  for (const id of ok) void deps.videos.refreshVideo(id).catch(() => undefined);
  if (!replace && ok.length) deps.videos.refresh();
  deps.poll.videos();
  if (refused.length) {
    const text = `Transcoding: ${ok.length} of ${results.length} videos accepted. Refused: ${refused.join('; ')}`;
    deps.log.warn(text);
    void deps.ui.warn(text, 'Show Log').then((choice) => choice === 'Show Log' && deps.ui.showLog());
  } else {
    void deps.ui.info(
      `Transcoding ${names}: accepted; the Videos view follows ${ok.length === 1 ? 'it' : 'them'} until done.`,
    );
  }
  return { job, results };
}
