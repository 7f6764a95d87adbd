/**
 * Bounds on the encoding work one request can set up: renditions per template group, per ad-hoc
 * transcoding and per live channel, and their total pixels x bitrate. A refusal is 10902 naming the
 * field and the limit (src/localPlatform/README.md, "Security").
 */
import { Codes } from '../../api/errorCodes';
import { PlatformFault } from '../http/faults';

/** Renditions (distinct size and bitrate profiles) one group, transcoding or live channel may ask for. */
export const MAX_RENDITIONS = 10;
/** Sum over the renditions of width x height x video kbps: one 8K (7680x4320) rendition at 100 Mbit/s. */
export const MAX_PIXEL_KBPS = 7680 * 4320 * 100_000;

export interface RenditionProfile {
  videoWidth: number;
  videoHeight: number;
  videoBitrate: number;
  audioBitrate?: number;
}

/** Throws 10902 naming `field` when the profiles pass a bound. */
export function checkRenditionWork(field: string, profiles: readonly RenditionProfile[]): void {
  const distinct = new Map<string, RenditionProfile>();
  for (const p of profiles)
    distinct.set(`${p.videoWidth}x${p.videoHeight}@${p.videoBitrate}/${p.audioBitrate ?? 0}`, p);
  if (distinct.size > MAX_RENDITIONS) {
    throw new PlatformFault(
      Codes.parameterInvalid,
      `${field} asks for ${distinct.size} renditions: the limit is ${MAX_RENDITIONS} renditions`,
    );
  }
  let load = 0;
  for (const p of distinct.values()) load += p.videoWidth * p.videoHeight * p.videoBitrate;
  if (load > MAX_PIXEL_KBPS) {
    throw new PlatformFault(
      Codes.parameterInvalid,
      `${field} asks for ${load.toExponential(2)} pixels x kbps in all: the limit is ${MAX_PIXEL_KBPS.toExponential(2)} ` +
        '(width x height x video kbps summed over the renditions; one 7680x4320 rendition at 100000 kbps)',
    );
  }
}
