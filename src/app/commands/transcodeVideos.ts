import { validateDocument } from '../../authoring/validate';
import { explainCode } from '../../api/errorCodes';
import type {
  AdHocTemplates,
  SecondTranscodeJob,
  SecondTranscodeResult,
  TemplateGroupSummary,
  Video,
} from '../../api/types';
import { step } from '../failures';
import { l10n } from '../../l10n/l10n';
import type { EditorDocument } from '../context';
import type { PickItem } from '../ui';
import type { AppContext, CommandArgs } from '../context';
import { nameList, resolveVideos } from '../ask/targets';
import { transcodeJobWords } from '../tree/videoPresentation';

/** The ad-hoc part of an open `*.transcode.json` job file. */
export interface AdHocSource {
  readonly fileName: string;
  readonly transcodeTemplates: AdHocTemplates;
  readonly videoType?: 0 | 1;
  readonly trailor?: boolean;
  readonly trailorDuration?: number;
  readonly replace?: boolean;
}

type Source = { kind: 'group'; group: TemplateGroupSummary } | { kind: 'file'; document: EditorDocument };

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
export function readAdHocSource(document: EditorDocument): AdHocSource {
  const name = baseName(document.fileName);
  // The authoring rules (schema and extra rules) decide whether the file is usable.
  const text = document.text();
  const { value, problems } = validateDocument('transcode', text);
  const errors = problems.filter((problem) => problem.severity === 'error');
  if (errors.length > 0 || value === undefined) {
    const first = errors[0];
    const more =
      errors.length === 2
        ? l10n.t(' (and 1 more problem)')
        : errors.length > 2
          ? l10n.t(' (and {0} more problems)', errors.length - 1)
          : '';
    throw new Error(
      first
        ? l10n.t('{0}, line {1}: {2}', name, lineOf(text, first.range.offset), first.message) + more
        : l10n.t('{0} is not a transcode job', name),
    );
  }
  const job = value as Record<string, unknown>;
  const templates = job.transcodeTemplates;
  if (templates === undefined)
    throw new Error(l10n.t('{0} has no transcodeTemplates (ad-hoc templates) to transcode with', name));
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
function describeResults(
  results: readonly SecondTranscodeResult[],
  videos: readonly Video[],
): { ok: string[]; refused: string[] } {
  const title = (id: string): string => {
    const video = videos.find((candidate) => candidate.id === id);
    return l10n.t('"{0}"', video?.title || video?.fileName || id);
  };
  return {
    ok: results.filter((result) => result.code === 0).map((result) => result.id),
    refused: results
      .filter((result) => result.code !== 0)
      .map((result) => l10n.t('{0}: {1} (code {2})', title(result.id), explainCode(result.code), result.code)),
  };
}

/**
 * videoPlatform.transcodeVideos: the selected (or picked) videos, with a template group or the
 * ad-hoc templates of an open `*.transcode.json`, replacing or saving as; per-video outcomes are
 * reported and the accepted videos followed until done.
 */
export async function transcodeVideos(ctx: AppContext, args: CommandArgs = {}): Promise<TranscodeOutcome | undefined> {
  const title = l10n.t('Transcode videos');
  const videos = await resolveVideos(ctx, args, {
    title,
    many: true,
    eligible: canTranscode,
    why: l10n.t('only uploaded, transcoded or failed videos can be transcoded'),
  });
  if (!videos) return undefined;
  const names = nameList(
    videos.map((video) => video.title || video.fileName),
    'videos',
  );

  const groups: TemplateGroupSummary[] = await step(l10n.t('Read the template groups'), async () =>
    (await ctx.connection.activeClient()).templateGroupList(),
  );
  const files = ctx.editor
    .openDocuments()
    .filter((document) => document.fileName.toLowerCase().endsWith('.transcode.json'));
  const items: PickItem<Source>[] = [];
  if (files.length) {
    items.push({ label: l10n.t('Ad-hoc templates (open files)'), separator: true });
    for (const document of files)
      items.push({
        label: `$(file) ${baseName(document.fileName)}`,
        description: l10n.t('templates of this file, for this run only'),
        value: { kind: 'file', document },
      });
  }
  if (groups.length) {
    items.push({ label: l10n.t('Template groups'), separator: true });
    for (const group of groups) {
      items.push({
        label: `$(layers) ${group.name}`,
        description: [
          group.defaultGroup ? l10n.t('default') : '',
          group.type === 1 ? 'VR' : '',
          l10n.t('id {0}', group.id),
        ]
          .filter(Boolean)
          .join(' · '),
        value: { kind: 'group', group },
      });
    }
  }
  if (!items.length) {
    await ctx.ui.warn(l10n.t('There is no template group in this account and no *.transcode.json file is open.'));
    return undefined;
  }
  const source = await ctx.ui.pick(items, {
    title: l10n.t('{0}: {1}', title, names),
    placeHolder: l10n.t('Transcode with...'),
  });
  if (!source) return undefined;

  let adHoc: AdHocSource | undefined;
  if (source.kind === 'file') {
    const document = source.document;
    adHoc = await step(l10n.t('Use {0}', baseName(document.fileName)), async () => readAdHocSource(document));
  }
  const replaceItems: PickItem<boolean>[] = [
    {
      label: l10n.t('$(add) Save as'),
      description: l10n.t('adds the new renditions as a new video item; keeps the current ones'),
      value: false,
    },
    {
      label: l10n.t('$(replace) Replace'),
      description: l10n.t('deletes the earlier renditions once the new ones are done'),
      value: true,
    },
  ];
  if (adHoc?.replace === true) replaceItems.reverse();
  const replace = await ctx.ui.pick(replaceItems, {
    title: l10n.t('{0}: {1}', title, names),
    placeHolder: l10n.t('Keep or replace the current renditions?'),
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

  const { results, epoch } = await step(l10n.t('Transcode {0}', names), async () => {
    const client = await ctx.connection.activeClient();
    const epoch = ctx.connection.epoch;
    const results: SecondTranscodeResult[] = await ctx.ui.withProgress(
      { title: l10n.t('Requesting transcoding of {0}', names), cancellable: true },
      ({ signal }) => client.secondTranscodeV2(job, { signal }),
    );
    return { results, epoch };
  });

  const { ok, refused } = describeResults(results, videos);
  ctx.log.info(
    `secondTranscodeV2: ${ok.length} accepted, ${refused.length} refused${refused.length ? `: ${refused.join('; ')}` : ''}`,
  );
  // Save as: when a source settles, the view reads its list again and the new copy shows ("transcoded from").
  ctx.models.videos.track(ok, epoch, false, !replace);
  ctx.models.videos.describeJob(ok, transcodeJobWords(job, source.kind === 'group' ? source.group.name : undefined));
  for (const id of ok) void ctx.models.videos.refreshVideo(id).catch(() => undefined);
  if (!replace && ok.length) ctx.models.videos.refresh();
  ctx.poller.videos.kick();
  if (refused.length) {
    const text = l10n.t(
      'Transcoding: {0} of {1} videos accepted. Refused: {2}',
      ok.length,
      results.length,
      refused.join('; '),
    );
    ctx.log.warn(text);
    const showLog = l10n.t('Show Log');
    void ctx.ui.warn(text, showLog).then((choice) => choice === showLog && ctx.ui.showLog());
  } else {
    void ctx.ui.info(
      replace
        ? l10n.t('Transcoding {0}: accepted; the Videos view follows it until done.', names)
        : l10n.t(
            'Transcoding {0}: accepted; the Videos view follows it until done, then lists the new copy (transcoded from its source).',
            names,
          ),
    );
  }
  return { job, results };
}
