/**
 * The samples the Channel Health panel draws: one per read of the platform, the last few minutes only (bounded
 * by count, so a panel left open for a day holds the same).
 */
import type { ChannelHealth } from './client';

export interface HealthSample {
  /** ms since 1970 (the platform's clock). */
  readonly at: number;
  readonly bitrateKbps?: number;
  readonly frameRate?: number;
  /** The oldest of the renditions' newest-segment ages: a stalled rendition shows here. */
  readonly segmentAgeSeconds?: number;
}

/** Read every 3 s; 5 minutes kept. */
export const SAMPLE_MS = 3_000;
export const HISTORY_SAMPLES = 100;

export class HealthHistory {
  private samples: HealthSample[] = [];

  add(health: ChannelHealth): void {
    const ages = health.renditions.flatMap((r) =>
      r.newestSegmentAgeSeconds === undefined ? [] : [r.newestSegmentAgeSeconds],
    );
    this.samples.push({
      at: health.measuredAt,
      bitrateKbps: health.source?.bitrateKbps,
      frameRate: health.source?.frameRate,
      segmentAgeSeconds: ages.length ? Math.max(...ages) : undefined,
    });
    if (this.samples.length > HISTORY_SAMPLES) this.samples = this.samples.slice(-HISTORY_SAMPLES);
  }

  get all(): readonly HealthSample[] {
    return this.samples;
  }
}
