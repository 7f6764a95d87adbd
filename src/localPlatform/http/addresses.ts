/**
 * Play, push and file addresses, composed against the address the platform is being reached at
 * (never stored: the port may differ between runs).
 */
export interface Origin {
  /** `http://127.0.0.1:8790` */
  http: string;
  /** Host name only (brackets kept for IPv6), for rtmp:// addresses. */
  host: string;
  /** Port of the RTMP server (live/rtmpServer.ts) when real media runs. */
  rtmpPort?: number;
}

export function makeOrigin(host: string, port: number, rtmpPort?: number): Origin {
  const h = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  return { http: `http://${h}:${port}`, host: h, ...(rtmpPort ? { rtmpPort } : {}) };
}

/** RTMP port shown when media is simulated (nothing listens there; the address is what clients show). */
const RTMP_PORT = 1935;

export function rtmpBase(origin: Origin): string {
  return `rtmp://${origin.host}:${origin.rtmpPort ?? RTMP_PORT}/live`;
}

export function pushUrl(origin: Origin, stream: string, authCode: string): string {
  return `${rtmpBase(origin)}/${stream}?auth=${authCode}`;
}

export function rtmpPlayUrl(origin: Origin, stream: string): string {
  return `${rtmpBase(origin)}/${stream}`;
}

export function flvPlayUrl(origin: Origin, stream: string): string {
  return `${origin.http}/live/${stream}.flv`;
}

export function channelThumbnailUrl(origin: Origin, channelId: string): string {
  return `${origin.http}/live/thumbnail/${channelId}.jpg`;
}

/** HLS master playlist of an output group. */
export function hlsGroupUrl(origin: Origin, channelId: string, groupId: string): string {
  return `${origin.http}/live/hls/${channelId}/${groupId}.m3u8`;
}

/** HLS child playlist `n` (1-based, in template order) of an output group. */
export function hlsChildUrl(origin: Origin, channelId: string, groupId: string, n: number): string {
  return `${origin.http}/live/hls/${channelId}/${groupId}-${n}.m3u8`;
}

export function rtmpGroupUrl(origin: Origin, stream: string, groupId: string): string {
  return `${rtmpBase(origin)}/${stream}_${groupId}`;
}

export function rtmpChildUrl(origin: Origin, stream: string, groupId: string, n: number): string {
  return `${rtmpBase(origin)}/${stream}_${groupId}-${n}`;
}

export function logoHttpUrl(origin: Origin, uri: string): string {
  return `${origin.http}/logo/${uri.replace(/^\/+/, '')}`;
}

/** A stored path (`/vod/...`) made absolute. */
export function fileUrl(origin: Origin, path: string | null): string | null {
  return path === null ? null : `${origin.http}${path}`;
}
