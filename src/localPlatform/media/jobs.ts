/**
 * The real transcoding queue of one account: the same job records as the simulated clock
 * (transcoder.ts), run by ffmpeg. A queued video (7) starts when the engine has a free slot and
 * turns 6 (1 for the first transcoding after an upload), then 2 with renditions measured in-process,
 * or 3 with ffmpeg's error in the platform's log. Jobs stay stored until they end, so a restart runs
 * again what was in flight; a deleted video's job is killed and its files removed.
 */
import { randomBytes } from 'node:crypto';
import { chmod, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { readMedia, type MediaReading } from '../../media/read';
import { runTool, type MediaTools } from '../../media/tools';
import { VideoStatuses } from '../../api/types';
import { newId } from '../store/ids';
import type { JobRec, StreamRec, VideoRec } from '../store/records';
import { Tx, type AccountStore } from '../store/store';
import { renditionsFor, type TranscodeQueue } from '../transcoder';
import { readAdvanced } from './advanced';
import { encodeArgs, hlsArgs, remuxArgs, sourceDemuxer, type LogoInput, type SourceInput } from './commands';
import type { JobQueue, MediaEngine } from './engine';
import { ensureCovers } from './covers';
import { exists, FILE_MODE, logoFile, makeDir, sourceFile, videoDir, workDir } from './files';

/** Source type -> its "with secondary transcoding" type (rest-interface 2.8 `type`). */
const SECONDARY_TYPE: Record<number, number> = { 3: 5, 4: 6, 7: 8 };

export class MediaTranscoder implements TranscodeQueue, JobQueue {
  private readonly running = new Map<string, AbortController>();
  private closed = false;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly store: AccountStore,
    private readonly accountDir: string,
    private readonly engine: MediaEngine,
    private readonly tools: MediaTools,
    private readonly onError: (error: unknown) => void,
  ) {
    this.unsubscribe = engine.register(this);
  }

  plan(now: number): { startAt: number; doneAt: number } {
    return { startAt: now, doneAt: now };
  }

  reschedule(): void {
    if (this.closed) return;
    // A job whose record is gone (its video deleted) stops at once.
    for (const [jobId, control] of this.running) if (!this.store.get('jobs', jobId)) control.abort();
    this.engine.schedule();
  }

  /** Starts the oldest waiting job in a slot the engine took for this queue (engine.ts: round-robin). */
  startNext(): boolean {
    if (this.closed) return false;
    let oldest: JobRec | undefined;
    for (const j of this.store.values('jobs')) {
      if (this.running.has(j.id)) continue;
      if (!oldest || j.createTime < oldest.createTime || (j.createTime === oldest.createTime && j.id < oldest.id))
        oldest = j;
    }
    if (!oldest) return false;
    const job = oldest;
    const control = new AbortController();
    this.running.set(job.id, control);
    void this.run(job, control.signal).finally(() => {
      this.running.delete(job.id);
      this.engine.release();
    });
    return true;
  }

  /** Removes the files of deleted videos (their jobs were dropped with them: see reschedule). */
  videosDeleted(ids: string[]): void {
    this.reschedule();
    for (const id of ids) void rm(videoDir(this.accountDir, id), { recursive: true, force: true }).catch(this.onError);
  }

  close(): void {
    this.closed = true;
    this.unsubscribe();
    // Killed, not finished: the job records stay, and the next start runs them again.
    for (const control of this.running.values()) control.abort();
  }

  private async run(job: JobRec, signal: AbortSignal): Promise<void> {
    const work = workDir(this.accountDir, job.id);
    try {
      const video = this.store.get('videos', job.videoId);
      if (!video) {
        await this.store.commit(new Tx().del('jobs', job.id));
        return;
      }
      const runningStatus = job.first ? 1 : 6;
      if (video.status !== runningStatus)
        await this.store.commit(new Tx().put('videos', { ...video, status: runningStatus }));
      await rm(work, { recursive: true, force: true });
      await makeDir(work);
      const source = this.sourceOf(video);
      if (!source) throw new Error('the video has no source media (it was created without a file)');
      const info = await readMedia(source, { signal });
      const result = await this.transcode(
        job,
        video,
        { file: source, demuxer: sourceDemuxer(info.container) },
        info,
        work,
        signal,
      );
      if (this.closed || signal.aborted) return;
      await this.finish(job, result, work);
    } catch (error) {
      if (this.closed || signal.aborted) return;
      const message = error instanceof Error ? error.message : String(error);
      this.onError(new Error(`transcoding of video ${job.videoId} failed: ${message}`));
      const video = this.store.get('videos', job.videoId);
      const tx = new Tx().del('jobs', job.id);
      if (video) tx.put('videos', { ...video, status: VideoStatuses.failed });
      await this.store.commit(tx).catch(this.onError);
    } finally {
      if (!this.closed) await rm(work, { recursive: true, force: true }).catch(() => undefined);
      this.reschedule();
    }
  }

  /** The video's own source, or (for a saved-as item) its parent's. */
  private sourceOf(video: VideoRec): string | undefined {
    let current: VideoRec | undefined = video;
    for (let depth = 0; current && depth < 8; depth++) {
      const file = sourceFile(this.accountDir, current.id);
      if (exists(file)) return file;
      current = current.parentId ? this.store.get('videos', current.parentId) : undefined;
    }
    return undefined;
  }

  private async transcode(
    job: JobRec,
    video: VideoRec,
    source: SourceInput,
    info: MediaReading,
    work: string,
    signal: AbortSignal,
  ): Promise<Produced> {
    const targetId = job.replace || job.first ? video.id : newId();
    const durationSeconds = info.duration;
    const hasAudio = info.audio !== undefined;
    const logos = this.logosOf(job.logoGroupId);
    const trailor = job.trailor && job.trailorDuration > 0 ? Math.min(job.trailorDuration, durationSeconds) : 0;
    const streams = renditionsFor(job.id, job.templates, trailor, targetId, Math.round(durationSeconds * 1000));
    const run = (args: string[]): Promise<unknown> =>
      runTool(this.tools.ffmpeg, args, this.engine.runOptions({ signal, timeoutMs: 6 * 3600_000 }));
    const measured: StreamRec[] = [];
    // renditionsFor lists the templates in order, then their trial clips in the same order.
    for (const [i, s] of streams.entries()) {
      const t = job.templates[i % job.templates.length];
      const base = fileBase(s);
      const mp4 = join(work, `${base}.mp4`);
      await run(
        encodeArgs({
          source,
          output: mp4,
          template: t,
          preset: this.engine.preset,
          durationSeconds,
          hasAudio,
          logos,
          limitSeconds: s.type === 1 ? trailor : undefined,
          advanced: readAdvanced(t.advancedArguments, info.video?.frameRate ?? 0),
        }),
      );
      // The rendition as made, measured in-process while ffmpeg copies it into the other formats (its reading
      // was a step of its own after them, on the way to "done"); a failed reading is awaited, and thrown, below.
      const reading = readMedia(mp4, { signal });
      reading.catch(() => undefined);
      let aesKey: string | null = null;
      if (s.hlsPath) {
        let keyInfo: string | undefined;
        if (t.hlsEncryptType === 6) {
          const key = randomBytes(16);
          aesKey = key.toString('hex');
          await writeFile(join(work, `${base}.key`), key, { mode: FILE_MODE });
          keyInfo = join(work, `${base}.keyinfo`);
          // The key's address is relative to the playlist: it stays right when the port changes.
          await writeFile(keyInfo, `${base}.key\n${join(work, `${base}.key`)}\n`, { mode: FILE_MODE });
        }
        await run(hlsArgs(mp4, join(work, `${base}.m3u8`), join(work, `${base}-seg%03d.ts`), keyInfo));
        if (keyInfo) await rm(keyInfo);
      }
      if (s.flvPath) await run(remuxArgs(mp4, join(work, `${base}.flv`), 'flv'));
      if (s.tsPath) await run(remuxArgs(mp4, join(work, `${base}.ts`), 'mpegts'));
      const { video: v, audio: a } = await reading;
      const files = await readdir(work);
      const sizeOf = async (name: string): Promise<number> => (await stat(join(work, name))).size;
      const hlsSize = s.hlsPath
        ? (
            await Promise.all(
              files
                .filter(
                  (f) =>
                    f === `${base}.m3u8` ||
                    new RegExp(`^${base.replace(/[^A-Za-z0-9]/g, '\\$&')}-seg\\d+\\.ts$`).test(f),
                )
                .map(sizeOf),
            )
          ).reduce((x, y) => x + y, 0)
        : 0;
      measured.push({
        ...s,
        videoWidth: v?.width ?? s.videoWidth,
        videoHeight: v?.height ?? s.videoHeight,
        videoBitrate: Math.round((v?.bitRate ?? 0) / 1000) || s.videoBitrate,
        audioBitrate: a ? (a.bitRate ?? 0) || s.audioBitrate : 0,
        hlsSize,
        mp4Size: s.mp4Path ? await sizeOf(`${base}.mp4`) : 0,
        flvSize: s.flvPath ? await sizeOf(`${base}.flv`) : 0,
        tsSize: s.tsPath ? await sizeOf(`${base}.ts`) : 0,
        aesKey,
      });
      if (!s.mp4Path) await rm(mp4);
    }
    // Cover and thumbnail of the result, unless the video has them already (from its upload).
    await ensureCovers(
      ...[this.tools.ffmpeg, this.accountDir, targetId, source],
      Math.min(1, durationSeconds / 2),
      this.engine.runOptions({ signal }),
    );
    return { targetId, streams: measured, source: info };
  }

  private logosOf(groupId: number | null): LogoInput[] {
    if (groupId === null) return [];
    const group = this.store.get('logoGroups', groupId);
    const inputs: LogoInput[] = [];
    for (const item of group?.logos ?? []) {
      const file = logoFile(this.accountDir, item.uri);
      // A logo whose image was never stored cannot be drawn: skipped (and said in the log).
      if (file && exists(file)) inputs.push({ file, item });
      else this.onError(new Error(`logo ${item.uri} of logo group ${groupId} has no image file; not overlaid`));
    }
    return inputs;
  }

  /** Moves the result into place and stores it, like the simulated clock's completion. */
  private async finish(job: JobRec, produced: Produced, work: string): Promise<void> {
    const video = this.store.get('videos', job.videoId);
    if (!video || !this.store.get('jobs', job.id)) return;
    const target = join(videoDir(this.accountDir, produced.targetId), job.id.slice(0, 12));
    await makeDir(videoDir(this.accountDir, produced.targetId));
    await rm(target, { recursive: true, force: true });
    await rename(work, target);
    await chmodTree(target);
    const now = Date.now();
    const tx = new Tx().del('jobs', job.id);
    const src = produced.source;
    const v = src.video;
    const a = src.audio;
    const measuredSource: Partial<VideoRec> = {
      width: v?.width ?? video.width,
      height: v?.height ?? video.height,
      duration: Math.round(src.duration * 1000) || video.duration,
      bitrate: Math.round((src.bitRate ?? 0) / 1000) || video.bitrate,
      audioBitrate: a ? Math.round((a.bitRate ?? 0) / 1000) : video.audioBitrate,
    };
    if (job.replace || job.first) {
      const earlier = video.streams.map((s) => s.taskId.slice(0, 12)).filter((t) => t !== job.id.slice(0, 12));
      tx.put('videos', {
        ...video,
        ...measuredSource,
        status: VideoStatuses.completed,
        streams: produced.streams,
        logoGroupId: job.logoGroupId ?? video.logoGroupId,
        // ensureCovers wrote them (or the upload had): the next answer lists them.
        covers: true,
      });
      await this.store.commit(tx);
      // Replace: the earlier renditions' files go once the new ones are stored.
      for (const t of new Set(earlier)) {
        if (/^[0-9a-f]{12}$/.test(t))
          await rm(join(videoDir(this.accountDir, video.id), t), { recursive: true, force: true });
      }
      return;
    }
    tx.put('videos', { ...video, ...measuredSource, status: VideoStatuses.completed });
    const item: VideoRec = {
      ...video,
      ...measuredSource,
      id: produced.targetId,
      parentId: video.id,
      status: VideoStatuses.completed,
      uploadTime: now,
      playNum: 0,
      streams: produced.streams,
      type: SECONDARY_TYPE[video.type] ?? video.type,
      videoType: job.videoType ?? video.videoType,
      logoGroupId: job.logoGroupId,
      covers: true,
    };
    tx.put('videos', item);
    await this.store.commit(tx);
  }
}

interface Produced {
  targetId: string;
  streams: StreamRec[];
  source: MediaReading;
}

/** The file name (without extension) a rendition's stored path ends with. */
function fileBase(s: StreamRec): string {
  const path = s.hlsPath ?? s.mp4Path ?? s.flvPath ?? s.tsPath ?? '';
  return path.slice(path.lastIndexOf('/') + 1).replace(/\.[a-z0-9]+$/, '');
}

async function chmodTree(dir: string): Promise<void> {
  for (const name of await readdir(dir)) await chmod(join(dir, name), FILE_MODE);
}
