/**
 * The simulated transcoding clock of one account. A second transcoding is queued (status 7), runs
 * (status 6) and completes (status 2) with its renditions. Deadlines are stored with the job as
 * wall-clock times, so a restart resumes (or completes) what was in flight. `clockSpeed` divides the
 * simulated durations: tests use a large value so a run takes milliseconds.
 */
import { VideoStatuses } from '../api/types';
import { newId } from './store/ids';
import type { JobRec, JobTemplate, StreamRec, VideoRec } from './store/records';
import { Tx, type AccountStore } from './store/store';

/** Simulated durations at clock speed 1. */
export const QUEUE_MS = 2_000;
export const RUN_MS = 8_000;

/** What the operations need of an account's transcoding queue: this clock, or ffmpeg (media/jobs.ts). */
export interface TranscodeQueue {
  /** When a job queued now starts and completes (stored with the job; the simulated clock's deadlines). */
  plan(now: number): { startAt: number; doneAt: number };
  /** Call after jobs change. */
  reschedule(): void;
  /** Call after videos are deleted (their files go). */
  videosDeleted(ids: string[]): void;
  close(): void;
}

export class Transcoder implements TranscodeQueue {
  private timer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly store: AccountStore,
    private readonly clockSpeed: number,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** When a job queued now starts and completes. */
  plan(now: number): { startAt: number; doneAt: number } {
    const startAt = now + Math.round(QUEUE_MS / this.clockSpeed);
    return { startAt, doneAt: startAt + Math.round(RUN_MS / this.clockSpeed) };
  }

  /** Arms the timer for the next due step of any job; call after jobs change. */
  reschedule(): void {
    if (this.closed) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    let next = Infinity;
    for (const job of this.store.values('jobs')) {
      const video = this.store.get('videos', job.videoId);
      next = Math.min(next, video?.status === VideoStatuses.waiting ? job.startAt : job.doneAt);
    }
    if (next === Infinity) return;
    const delay = Math.max(0, Math.min(next - Date.now(), 2 ** 31 - 1));
    this.timer = setTimeout(() => this.tick(), delay);
    this.timer.unref();
  }

  videosDeleted(): void {
    this.reschedule();
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private tick(): void {
    this.timer = undefined;
    if (this.closed) return;
    const now = Date.now();
    const tx = new Tx();
    for (const job of this.store.values('jobs')) {
      const video = this.store.get('videos', job.videoId);
      if (!video) {
        tx.del('jobs', job.id);
      } else if (now >= job.doneAt) {
        this.complete(tx, job, video, now);
      } else if (now >= job.startAt && video.status === VideoStatuses.waiting) {
        tx.put('videos', { ...video, status: VideoStatuses.secondTranscoding });
      }
    }
    this.store.commit(tx).catch(this.onError);
    this.reschedule();
  }

  private complete(tx: Tx, job: JobRec, video: VideoRec, now: number): void {
    tx.del('jobs', job.id);
    if (job.replace) {
      // Replace: the earlier renditions are removed once the new ones exist.
      tx.put('videos', {
        ...video,
        status: VideoStatuses.completed,
        streams: renditions(job, video.id, video.duration),
        logoGroupId: job.logoGroupId ?? video.logoGroupId,
      });
      return;
    }
    // Save as: a new video item holds the result; the source keeps its renditions.
    tx.put('videos', { ...video, status: VideoStatuses.completed });
    const id = newId();
    const item: VideoRec = {
      ...video,
      id,
      parentId: video.id,
      status: VideoStatuses.completed,
      uploadTime: now,
      playNum: 0,
      streams: renditions(job, id, video.duration),
      type: SECONDARY_TYPE[video.type] ?? video.type,
      videoType: job.videoType ?? video.videoType,
      logoGroupId: job.logoGroupId,
      // The simulated clock writes no files: the item has no pictures of its own, whatever its source has.
      covers: false,
    };
    tx.put('videos', item);
  }
}

/** Source type -> its "with secondary transcoding" type (rest-interface 2.8 `type`). */
const SECONDARY_TYPE: Record<number, number> = { 3: 5, 4: 6, 7: 8 };

function slug(name: string): string {
  return name.replace(/[^A-Za-z0-9_-]+/g, '_').slice(0, 40) || 'rendition';
}

/** Bytes of a rendition: (video kbps * 1000 + audio bps) * seconds / 8, slightly varied per container. */
function sizeOf(t: JobTemplate, durationMs: number, overhead: number): number {
  return Math.round((((t.videoBitrate * 1000 + t.audioBitrate) * durationMs) / 8000) * overhead);
}

function renditions(job: JobRec, videoId: string, durationMs: number): StreamRec[] {
  return renditionsFor(job.id, job.templates, job.trailor ? job.trailorDuration : 0, videoId, durationMs);
}

/** The `transcodedVideoList` entries of one run: one per template (plus preview clips when asked). */
export function renditionsFor(
  taskId: string,
  templates: JobTemplate[],
  trailorSeconds: number,
  videoId: string,
  durationMs: number,
): StreamRec[] {
  const streams: StreamRec[] = [];
  const folder = `/vod/${videoId}/${taskId.slice(0, 12)}`;
  const used = new Set<string>();
  const add = (t: JobTemplate, type: 0 | 1, ms: number): void => {
    let base = `${folder}/${slug(t.name)}-${t.videoWidth}x${t.videoHeight}${type === 1 ? '-preview' : ''}`;
    // Two templates of one run with the same name and size get distinct files (real media writes them).
    if (used.has(base)) base = `${base}-${streams.length}`;
    used.add(base);
    const vendor = t.hlsEncryptType === 7 || t.mp4EncryptType === 7 || t.flvEncryptType === 7 || t.tsEncryptType === 7;
    streams.push({
      name: t.name,
      hlsPath: t.hls ? `${base}.m3u8` : null,
      mp4Path: t.mp4 ? `${base}.mp4` : null,
      flvPath: t.flv ? `${base}.flv` : null,
      tsPath: t.ts ? `${base}.ts` : null,
      hlsSize: t.hls ? sizeOf(t, ms, 1.04) : 0,
      mp4Size: t.mp4 ? sizeOf(t, ms, 1.01) : 0,
      flvSize: t.flv ? sizeOf(t, ms, 1.02) : 0,
      tsSize: t.ts ? sizeOf(t, ms, 1.05) : 0,
      videoWidth: t.videoWidth,
      videoHeight: t.videoHeight,
      videoBitrate: t.videoBitrate,
      audioBitrate: t.audioBitrate,
      defaultVideo: type === 0 ? t.defaultVideo : 0,
      taskId,
      status: 2,
      idx: streams.length,
      type,
      hlsEncryptType: t.hls ? t.hlsEncryptType : 0,
      mp4EncryptType: t.mp4 ? t.mp4EncryptType : 0,
      flvEncryptType: t.flv ? t.flvEncryptType : 0,
      tsEncryptType: t.ts ? t.tsEncryptType : 0,
      contentId: vendor ? newId() : null,
      customId: vendor ? newId() : null,
      aesKey: t.hls && t.hlsEncryptType === 6 ? newId() : null,
    });
  };
  for (const t of templates) add(t, 0, durationMs);
  if (trailorSeconds > 0) {
    for (const t of templates) add(t, 1, Math.min(durationMs, trailorSeconds * 1000));
  }
  return streams;
}
