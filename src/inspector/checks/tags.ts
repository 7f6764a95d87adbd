/**
 * A playlist's tags with their lines, for the text checks (an open `.m3u8` shows their problems on the line).
 * hls-parser (hls.ts) gives the model; the rules about where a tag is and how often need the lines themselves.
 */
import type { FindingCode } from '../findings';

export interface TagLine {
  /** Without the `#`, e.g. `EXT-X-MEDIA`. */
  readonly name: string;
  readonly value: string;
  /** 0-based, as editors count. */
  readonly line: number;
}

/** A problem of a playlist's text on one line (0-based lines and columns). */
export type AddProblem = (code: FindingCode, message: string, line: number, start?: number, end?: number) => void;

export function tagLines(lines: readonly string[]): TagLine[] {
  const out: TagLine[] = [];
  for (const [i, raw] of lines.entries()) {
    const line = raw.trim();
    if (!line.startsWith('#EXT')) continue;
    const colon = line.indexOf(':');
    out.push({
      name: (colon === -1 ? line : line.slice(0, colon)).slice(1),
      value: colon === -1 ? '' : line.slice(colon + 1),
      line: i,
    });
  }
  return out;
}

/** `A=1,B="x,y"` as a map (RFC 8216 4.2). */
export function parseAttributes(text: string): Map<string, string> {
  const out = new Map<string, string>();
  const re = /([A-Z0-9-]+)=("[^"]*"|[^,]*)/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    out.set(m[1]!, m[2]!.startsWith('"') ? m[2]!.slice(1, -1) : m[2]!);
  }
  return out;
}
