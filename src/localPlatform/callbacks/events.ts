/**
 * The callbacks the platform sends (facts section 5) and what is recorded of each delivery. Made from the
 * store's committed writes (store.ts `onCommitted`), so every path that changes a status sends them: the REST
 * operations, real and simulated live media, the real transcoding queue and the simulated clock.
 *
 * - `channel-status`: a channel's `status` or `streamStatus` changed (start, source present or lost, stop):
 *   `{channelId, channelStatus, streamStatus}`. Section 5 names the first two; `streamStatus` is our addition,
 *   since "source present / lost" on a pushed channel changes only it (the status stays 2).
 * - `transcode`: a video's transcoding started (`status` 1: its status became 1 or 6), ended (`status` 2: done,
 *   from 1, 6 or 7) or failed (`status` 3): `{videoId, status, playCode}`, `playCode` being the video's playCode
 *   object as the lists give it (`previewUrl`, `flashUrl`, `htmlEmbedCode`) when done, null otherwise.
 */
import { ChannelStatuses, VideoStatuses } from '../../api/types';
import * as serialize from '../http/serialize';
import type { View } from '../http/serialize';
import type { ChannelRec, VideoRec } from '../store/records';
import type { CommittedChange } from '../store/store';

export const CALLBACK_EVENTS = ['channel-status', 'transcode'] as const;
export type CallbackEvent = (typeof CALLBACK_EVENTS)[number];

export type CallbackBody = Record<string, unknown>;

/** One event to deliver to every callback URL of the account. */
export interface CallbackMessage {
  /** Sent as `X-Callback-Id`: the same for every attempt, duplicate and resend of this event. */
  eventId: string;
  event: CallbackEvent;
  body: CallbackBody;
  /** How it came: a status change, `trigger`, or `resend` of a record. */
  origin: 'change' | 'trigger' | 'resend';
  resendOf?: string;
}

/** One attempt of one delivery, as the delivery log keeps it (never the secret). */
export interface DeliveryRecord {
  id: string;
  eventId: string;
  event: CallbackEvent;
  url: string;
  /** When the attempt started, ms since 1970. */
  time: number;
  attempt: number;
  /** The receiver's HTTP status; null when there was no answer. */
  status: number | null;
  /** Why it failed (no answer, a refused address, a receiver fault). */
  error?: string;
  durationMs: number;
  /** `delivered`: 2xx; `retrying`: failed, another attempt follows; `failed`: no attempt follows. */
  outcome: 'delivered' | 'retrying' | 'failed';
  body: string;
  headers: Record<string, string>;
  origin: CallbackMessage['origin'];
  resendOf?: string;
  /** The receiver fault that shaped this attempt (`fail`, `delay`, `duplicate`, `out-of-order`). */
  fault?: string;
}

const TRANSCODING: ReadonlySet<number> = new Set([VideoStatuses.transcoding, VideoStatuses.secondTranscoding]);
const BEFORE_DONE: ReadonlySet<number> = new Set([
  VideoStatuses.transcoding,
  VideoStatuses.secondTranscoding,
  VideoStatuses.waiting,
]);

export function channelStatusBody(channel: ChannelRec): CallbackBody {
  return { channelId: channel.id, channelStatus: channel.status, streamStatus: channel.streamStatus };
}

export function transcodeBody(view: View, video: VideoRec, status: 1 | 2 | 3): CallbackBody {
  return {
    videoId: video.id,
    status,
    playCode: status === VideoStatuses.completed ? serialize.video(view, video).playCode : null,
  };
}

/** The transcode callback status a video's change means, if any. */
function transcodeStatus(old: VideoRec, now: VideoRec): 1 | 2 | 3 | undefined {
  if (old.status === now.status) return undefined;
  if (TRANSCODING.has(now.status) && !TRANSCODING.has(old.status)) return 1;
  if (now.status === VideoStatuses.completed && BEFORE_DONE.has(old.status)) return 2;
  if (now.status === VideoStatuses.failed) return 3;
  return undefined;
}

/** The events a committed write means (a record created or deleted is no status change). */
export function eventsOf(
  changes: readonly CommittedChange[],
  view: View,
): Array<{ event: CallbackEvent; body: CallbackBody }> {
  const events: Array<{ event: CallbackEvent; body: CallbackBody }> = [];
  for (const change of changes) {
    if (change.old === undefined || change.now === undefined) continue;
    if (change.c === 'channels') {
      const old = change.old as ChannelRec;
      const now = change.now as ChannelRec;
      if (old.status !== now.status || old.streamStatus !== now.streamStatus)
        events.push({ event: 'channel-status', body: channelStatusBody(now) });
    } else if (change.c === 'videos') {
      const status = transcodeStatus(change.old as VideoRec, change.now as VideoRec);
      if (status !== undefined)
        events.push({ event: 'transcode', body: transcodeBody(view, change.now as VideoRec, status) });
    }
  }
  return events;
}

/** Statuses a trigger may name (checked, so a receiver test never gets a status the platform cannot send). */
export const CHANNEL_STATUS_VALUES: readonly number[] = Object.values(ChannelStatuses);
export const TRANSCODE_STATUS_VALUES: readonly number[] = [1, 2, 3];
