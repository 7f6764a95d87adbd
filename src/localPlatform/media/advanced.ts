/**
 * A template item's `advancedArguments` (rest-interface 4.3) read for ffmpeg. Only keys with an
 * ffmpeg equivalent change the command (table in src/localPlatform/README.md, "Media"); values
 * outside the documented ranges are ignored (the group was stored as given), never passed through.
 */
export interface Advanced {
  /** Keyframe interval in seconds (gopSize with gopType), undefined: the 2 s default. */
  keyframeSeconds?: number;
  bFrames?: number;
  refFrames?: number;
  /** Constant bitrate (rc `cbr`/1). */
  cbr: boolean;
  /** x264 CRF from qualityLevel (0-51), replacing the average bitrate target. */
  crf?: number;
  /** interlace 3: MBAFF. */
  interlaced: boolean;
  /** smartBorder: 0 stretch (default), 1 black bars, 2 crop. */
  border: 0 | 1 | 2;
}

function int(value: unknown, min: number, max: number): number | undefined {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof n === 'number' && Number.isInteger(n) && n >= min && n <= max ? n : undefined;
}

/** `frameRate` is the source's, for a gopSize given in frames. */
export function readAdvanced(text: string | null | undefined, frameRate: number): Advanced {
  let o: Record<string, unknown> = {};
  try {
    const parsed: unknown = text ? JSON.parse(text) : {};
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) o = parsed as Record<string, unknown>;
  } catch {
    o = {};
  }
  const gop = int(o.gopSize, 1, 100_000);
  const gopType = int(o.gopType, 0, 1) ?? 0;
  let keyframeSeconds: number | undefined;
  if (gop !== undefined) keyframeSeconds = gopType === 1 ? gop / 1000 : gop / (frameRate > 0 ? frameRate : 25);
  if (keyframeSeconds !== undefined && (keyframeSeconds < 0.1 || keyframeSeconds > 60)) keyframeSeconds = undefined;
  const rc = String(o.rc ?? '').toLowerCase();
  const border = int(o.smartBorder, 0, 2) ?? 0;
  return {
    keyframeSeconds,
    bFrames: int(o.bFrame ?? o.bframe, 0, 16),
    refFrames: int(o.refFrame, 1, 16),
    cbr: rc === 'cbr' || rc === '1',
    crf: int(o.qualityLevel, 0, 51),
    interlaced: int(o.interlace, -1, 3) === 3,
    border: border as 0 | 1 | 2,
  };
}
