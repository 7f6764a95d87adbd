/**
 * What the platform needs of one started channel's media, whichever kind runs it: a channel with an
 * encoder (channelMedia.ts: a pushed or pulled source through a ladder ffmpeg) or the looped test
 * pattern (patternLoop.ts: segments encoded once, served as a live window, no process).
 */
import type { ChannelRec } from '../store/records';
import type { AccountStore } from '../store/store';
import type { SourceFigures } from './ingestMeter';
import type { Rendition } from './ladder';
import type { NmsSession } from './nms';

export interface HlsGroupInfo {
  id: string;
  renditions: Rendition[];
  encrypted: boolean;
}

export interface LiveChannel {
  readonly channelId: string;
  readonly stream: string;
  readonly store: AccountStore;
  /** The HLS output groups (known once started). */
  readonly hlsGroups: HlsGroupInfo[];
  /** An encoder is connected to the RTMP server for this channel. */
  readonly publishing: boolean;
  /** An ffmpeg runs (or is about to) for this channel: what the limit on live channels counts. */
  readonly encoding: boolean;
  /** The thumbnail answers: lists name it. */
  readonly thumbnailReady: boolean;
  readonly thumbnailFile: string;
  channelRecord(): ChannelRec | undefined;
  start(): Promise<void>;
  /** Stops every process; `handOver` passes a recording on (a stop by the user, not a shutdown). */
  stop(handOver?: boolean): Promise<void>;
  published(session: NmsSession): void;
  unpublished(session: NmsSession): void;
  /** Child playlist `n` (0-based) of an HLS group; undefined while it does not exist yet. */
  childPlaylist(groupId: string, n: number): Promise<string | undefined>;
  /**
   * A segment or key named in a playlist (`<name>.<ext>`): the path of its file, or its bytes (made in memory);
   * undefined for a name not served.
   */
  mediaFile(name: string, ext: 'ts' | 'key'): string | Buffer | undefined;
  /** What the platform receives from the connected source now (ingestMeter.ts); undefined without one. */
  sourceFigures(): SourceFigures | undefined;
}
