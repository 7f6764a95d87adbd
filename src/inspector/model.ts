/**
 * The model of a stream as read: what reading (readHls.ts) fills and the checks (checks/) judge. Nothing here
 * fetches or decides; a check is a pure function of this model, so that a test can build one by hand.
 */
import type * as HLS from 'hls-parser';
import type { MediaFacts } from './mediaFacts';

/** What a master playlist declares of a variant. */
export interface Declared {
  /** The variant's audio comes from an EXT-X-MEDIA rendition with its own playlist. */
  readonly externalAudio?: boolean;
  readonly bandwidth?: number;
  readonly averageBandwidth?: number;
  readonly resolution?: string;
  readonly codecs?: string;
  readonly frameRate?: number;
}

/** The HTTP answer a playlist or segment came with (absent for local files). */
export interface Delivery {
  readonly contentType?: string;
  readonly contentEncoding?: string;
  readonly cacheControl?: string;
  readonly accessControlAllowOrigin?: string;
}

export interface SegmentModel {
  /** As written in the playlist. */
  readonly uri: string;
  readonly sequence: number;
  /** EXTINF (s). */
  readonly duration: number;
  readonly discontinuity: boolean;
  /** Bytes, from HEAD, a byte range or the download; undefined when not sized. */
  size?: number;
  /** What the media reader found, when the segment was downloaded and read. */
  media?: MediaFacts;
  /** Downloaded (and decrypted) but not readable as media: why, and what its bytes start with. */
  unreadable?: {
    readonly message: string;
    /** The first ISO-BMFF box type (`moof`, `styp`...) or `ts` for MPEG-TS, when recognisable. */
    readonly leading?: string;
    /** Whether it was read with its initialization section (EXT-X-MAP). */
    readonly withInit: boolean;
    /** Whether it was decrypted first (AES-128). */
    readonly decrypted: boolean;
  };
  delivery?: Delivery;
}

export interface PlaylistReload {
  /** When it was read (ms on the run's clock). */
  readonly at: number;
  readonly text: string;
  readonly playlist: HLS.types.MediaPlaylist;
}

/** A blocking playlist reload (`_HLS_msn`/`_HLS_part`) asked for the part after the playlist's last. */
export interface BlockingReloadProbe {
  readonly msn: number;
  readonly part: number;
  /** How long the answer took (ms), or how long was waited for none. */
  readonly waitedMs: number;
  /** The answer lists the asked part, or a later one (absent when there was no answer). */
  readonly holdsAsked?: boolean;
  /** The last segment and part the answer lists, for messages. */
  readonly answeredUpTo?: { readonly msn: number; readonly parts: number };
  /** Why there was no playlist: an HTTP status, a timeout, a network error. */
  readonly failure?: string;
}

/** A playlist delta update (`_HLS_skip`) and the full playlist read just before it. */
export interface DeltaUpdateProbe {
  readonly skip: 'YES' | 'v2';
  readonly fullText: string;
  readonly full?: HLS.types.MediaPlaylist;
  readonly deltaText?: string;
  /** Absent when the answer is not a media playlist. */
  readonly delta?: HLS.types.MediaPlaylist;
  readonly failure?: string;
}

/** An INDEPENDENT=YES partial segment, downloaded (its byte range) and read. */
export interface IndependentPartProbe {
  readonly uri: string;
  readonly msn: number;
  readonly index: number;
  /** Absent when it could not be read (`failure` says why). */
  readonly media?: { readonly hasVideo: boolean; readonly startsWithKeyframe: boolean };
  readonly failure?: string;
}

/** What was asked of a low-latency server beyond reading its playlist (rfc8216bis 6.2.5). */
export interface LowLatencyProbe {
  readonly partTarget: number;
  readonly targetDuration: number;
  blocking?: BlockingReloadProbe;
  delta?: DeltaUpdateProbe;
  parts: IndependentPartProbe[];
}

export type PlaylistRole = 'variant' | 'audio' | 'subtitles' | 'video' | 'iframe';

export interface MediaPlaylistModel {
  /** As written in the master playlist (or the input's file name). */
  readonly name: string;
  readonly address: string;
  readonly role: PlaylistRole;
  readonly declared: Declared;
  /** The EXT-X-MEDIA group and name of a rendition. */
  readonly group?: string;
  /** Absent when the playlist could not be read. */
  text?: string;
  playlist?: HLS.types.MediaPlaylist;
  /** Read through a master playlist (its text checks ran there) or as the input itself. */
  readonly viaMaster: boolean;
  /** When the playlist was first read (ms on the run's clock). */
  readAt?: number;
  segments: SegmentModel[];
  /** Live reloads, in order; empty when not live or read once. */
  reloads: PlaylistReload[];
  /** How long the live playlist was watched (s); 0 when read once. */
  watchedSeconds?: number;
  /** Whether every segment's size is known (the bandwidth figures rest on all of them). */
  allSized?: boolean;
  /** The bytes of the initialization section (EXT-X-MAP) when read: fMP4 segments. */
  initBytes?: number;
  delivery?: Delivery;
  /** A live low-latency playlist: the blocking reload, delta update and parts asked for (lowLatency.ts). */
  lowLatency?: LowLatencyProbe;
}

export interface StreamModel {
  readonly address: string;
  /** The master playlist, when the input is one. */
  readonly master?: {
    readonly text: string;
    readonly playlist: HLS.types.MasterPlaylist;
    readonly delivery?: Delivery;
  };
  /** The media playlists (variants, renditions, I-frame playlists); the input itself when it is a media playlist. */
  readonly playlists: MediaPlaylistModel[];
  /** The clock (ms) when the checks run, for the live edge. */
  readonly checkedAt: number;
  /** How many segments per playlist were read at most (the rest were sized, or only listed). */
  readonly segmentsReadPerPlaylist: number;
}

export function variants(model: StreamModel): MediaPlaylistModel[] {
  return model.playlists.filter((p) => p.role === 'variant');
}

export function isLive(p: MediaPlaylistModel): boolean {
  return p.playlist !== undefined && !p.playlist.endlist && p.playlist.playlistType !== 'VOD';
}

/** Segments that were read as media, with their index in the playlist. */
export function readSegments(p: MediaPlaylistModel): Array<{ index: number; seg: SegmentModel; media: MediaFacts }> {
  return p.segments.flatMap((seg, index) => (seg.media ? [{ index, seg, media: seg.media }] : []));
}

/** The segment's media span: the video's when there is video (audio packets of a TS segment overhang its edges). */
export function mediaSpan(media: MediaFacts): { start: number; end: number } {
  return media.videoStart !== undefined && media.videoEnd !== undefined
    ? { start: media.videoStart, end: media.videoEnd }
    : { start: media.start, end: media.end };
}
