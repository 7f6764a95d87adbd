/**
 * Real media for the demo data (real media mode only), made in the background so the first start
 * stays fast: a short generated clip per demo video that has a source (a test pattern with its title
 * burned in, a tone), the demo's logo images, then each video that is being transcoded is put through
 * the real queue (replace), so it ends as status 2 with files that play. The demo seeds the videos
 * meant to be done as transcoding (status 1, no renditions) with real media, so no status goes back and
 * no listed address answers 404: their profiles come from the demo (`demoProfilesOf`).
 * It runs on every start with demo data asked for and makes only what is missing: a start stopped
 * half-way, or demo data seeded in simulated mode before ffmpeg was installed, gets its media later.
 */
import { existsSync } from 'node:fs';
import { chmod, rename } from 'node:fs/promises';
import { dirname } from 'node:path';
import { runTool, type MediaTools, type RunOptions } from '../../media/tools';
import { VideoStatuses } from '../../api/types';
import { accountDir } from '../accounts';
import type { Watchdog } from '../live/watchdog';
import { demoProfilesOf } from '../demo/demo';
import { fromGroup } from '../actions/transcode';
import { findTemplateGroup } from '../actions/templateGroups';
import type { Account } from '../actions/context';
import { newId } from '../store/ids';
import { metaOf } from '../store/meta';
import type { JobRec, JobTemplate } from '../store/records';
import { Tx } from '../store/store';
import { testClipArgs } from './commands';
import { ensureCovers } from './covers';
import { watched } from './engine';
import { FILE_MODE, logoFile, makeDir, sourceFile, videoDir } from './files';

/** Length of a demo clip: a few seconds keep the whole demo's transcoding to a minute or so on 2 cores. */
export const DEMO_CLIP_SECONDS = 6;

const TRANSCODED_STATUSES = new Set([1, 2, 6, 7]);

/** Starts the background work; `signal` (the platform closing) stops it and any ffmpeg it runs. */
export function seedDemoMedia(
  account: Account,
  dataDir: string,
  tools: MediaTools,
  onError: (e: unknown) => void,
  signal: AbortSignal,
  watchdog?: Watchdog,
): void {
  // Every ffmpeg is stopped by `signal` and listed and marked with the watchdog while it runs.
  const run: RunOptions = watchdog ? watched(watchdog, { signal }) : { signal };
  void makeDemoMedia(account, accountDir(dataDir, account.accessKey), tools, run).catch((error: unknown) => {
    if (!signal.aborted) onError(new Error(`demo media: ${error instanceof Error ? error.message : String(error)}`));
  });
}

async function makeSource(
  tools: MediaTools,
  source: string,
  video: { title: string; videoType: number },
  run: RunOptions,
): Promise<void> {
  await makeDir(dirname(source));
  const [w, h] = video.videoType === 1 ? [640, 320] : [640, 360];
  await runTool(tools.ffmpeg, testClipArgs(`${source}.part.mp4`, DEMO_CLIP_SECONDS, w, h, video.title), {
    timeoutMs: 120_000,
    ...run,
  });
  await rename(`${source}.part.mp4`, source);
  await chmod(source, FILE_MODE);
}

/**
 * Cover and thumbnail of a demo video with a source, as an upload captures them before any transcoding (so a
 * raw upload or a failed encode has them too), and the record's `covers` set so that they are listed.
 */
async function captureCovers(
  account: Account,
  dir: string,
  tools: MediaTools,
  videoId: string,
  source: string,
  run: RunOptions,
): Promise<void> {
  const signal = run.signal!;
  if (account.store.get('videos', videoId)?.covers) return;
  // The demo's own clip (testClipArgs): an MP4.
  await ensureCovers(tools.ffmpeg, dir, videoId, { file: source, demuxer: 'mov' }, 1, run);
  const current = account.store.get('videos', videoId);
  if (current && !signal.aborted) await account.store.commit(new Tx().put('videos', { ...current, covers: true }));
}

async function makeDemoMedia(account: Account, dir: string, tools: MediaTools, run: RunOptions): Promise<void> {
  const { store } = account;
  const signal = run.signal!;
  // Logo images the demo's logo groups and live logos name.
  const uris = new Set<string>();
  for (const g of store.values('logoGroups')) for (const l of g.logos) uris.add(l.uri);
  for (const l of store.values('liveLogos')) uris.add(l.uri);
  for (const uri of uris) {
    const file = logoFile(dir, uri);
    if (!file || existsSync(file)) continue;
    await makeDir(dirname(file));
    const label = uri
      .replace(/^.*\//, '')
      .replace(/\.[a-z]+$/, '')
      .toUpperCase();
    await runTool(
      tools.ffmpeg,
      [
        ...['-hide_banner', '-nostdin', '-y', '-v', 'error', '-f', 'lavfi', '-i', 'color=c=orange:size=160x60'],
        ...[
          '-vf',
          `drawtext=text='${label.replace(/[^A-Z0-9 -]/g, '')}':fontsize=20:fontcolor=black:x=(w-text_w)/2:y=(h-text_h)/2`,
        ],
        ...['-frames:v', '1', '-f', 'image2', '-c:v', 'png', file],
      ],
      run,
    );
    await chmod(file, FILE_MODE);
  }
  const defaultGroup = metaOf(store).defaultTemplateGroupId;
  for (const video of [...store.values('videos')]) {
    // Uploads that failed (4) or were not media (5) have no source.
    if (video.status === VideoStatuses.uploadFailed || video.status === VideoStatuses.unknownFileType) continue;
    if (video.parentId) {
      // A saved-as item is transcoded from its parent's source, once (its folder marks it done).
      if (existsSync(videoDir(dir, video.id)) || !existsSync(sourceFile(dir, video.parentId))) continue;
      await makeDir(videoDir(dir, video.id));
    } else {
      const source = sourceFile(dir, video.id);
      const earlier = existsSync(source);
      if (!earlier) await makeSource(tools, source, video, run);
      if (signal.aborted) return;
      await captureCovers(account, dir, tools, video.id, source, run);
      // Made on an earlier start: nothing more to do (a video with its source was already queued then).
      if (earlier) continue;
    }
    if (signal.aborted) return;
    const current = store.get('videos', video.id);
    if (!TRANSCODED_STATUSES.has(video.status)) continue;
    if (!current || [...store.values('jobs')].some((j) => j.videoId === video.id)) continue;
    // Done videos keep their profiles; videos shown as transcoding run with the default group.
    let templates: JobTemplate[] = current.streams.map((s) => ({
      name: s.name,
      videoWidth: s.videoWidth,
      videoHeight: s.videoHeight,
      videoBitrate: s.videoBitrate,
      audioBitrate: s.audioBitrate,
      hls: s.hlsPath !== null,
      mp4: s.mp4Path !== null,
      flv: s.flvPath !== null,
      ts: s.tsPath !== null,
      hlsEncryptType: s.hlsEncryptType,
      mp4EncryptType: s.mp4EncryptType,
      flvEncryptType: s.flvEncryptType,
      tsEncryptType: s.tsEncryptType,
      defaultVideo: s.defaultVideo,
    }));
    let logoGroupId = current.logoGroupId;
    if (templates.length === 0) templates = demoProfilesOf(video.id, metaOf(store).userId) ?? [];
    if (templates.length === 0) {
      const group = defaultGroup === null ? undefined : findTemplateGroup(store, defaultGroup);
      if (!group) continue;
      const plan = fromGroup(group);
      templates = plan.templates;
      logoGroupId = plan.logoGroupId;
    }
    const now = Date.now();
    const job: JobRec = {
      id: newId(),
      videoId: video.id,
      replace: true,
      first: current.status === VideoStatuses.transcoding,
      templates,
      trailor: false,
      trailorDuration: 0,
      logoGroupId,
      videoType: null,
      startAt: now,
      doneAt: now,
      createTime: now,
    };
    // The status stays as listed (1, 6 or 7): the queue moves it forward to 6 and 2, never back.
    await store.commit(new Tx().put('jobs', job));
    account.transcoder.reschedule();
  }
}
