/**
 * The content faults as pure rewrites: of a media playlist's text (segment-drop, extinf-lie, sequence-regress),
 * of a master playlist's text (bandwidth-lie), and of an MPEG-TS segment's bytes (timestamp-jump, no-idr-start,
 * audio-gap). playlist-stall and the reload count of sequence-regress are state, kept by board.ts.
 * (RFC 8216 4.3 for the tags; ISO/IEC 13818-1 for the 188-byte packets.)
 */
import { shiftSegment } from '../live/tsShift';
import { segmentHit, variantMatches, type Variant } from './match';
import type { FaultRule } from './profile';

/** A rule with the key its probability is drawn by. */
export interface KeyedRule {
  rule: FaultRule;
  key: string;
}

interface Entry {
  /** The tag lines before the URI, and the URI. */
  lines: string[];
  index: number;
  sequence: number;
}

function splitPlaylist(text: string): { head: string[]; entries: Entry[]; tail: string[] } {
  const lines = text.split('\n');
  const sequence = Number(/^#EXT-X-MEDIA-SEQUENCE:(\d+)/m.exec(text)?.[1] ?? 0);
  const head: string[] = [];
  const entries: Entry[] = [];
  let pending: string[] = [];
  let seenSegment = false;
  for (const line of lines) {
    if (
      !seenSegment &&
      !/^#EXT(INF|-X-PROGRAM-DATE-TIME|-X-KEY|-X-DISCONTINUITY|-X-BYTERANGE)/.test(line) &&
      (line.startsWith('#') || line === '')
    ) {
      head.push(line);
      continue;
    }
    seenSegment = true;
    pending.push(line);
    if (line !== '' && !line.startsWith('#')) {
      entries.push({ lines: pending, index: entries.length, sequence: sequence + entries.length });
      pending = [];
    }
  }
  return { head, entries, tail: pending };
}

function joinPlaylist(head: string[], entries: Entry[], tail: string[]): string {
  return [...head, ...entries.flatMap((e) => e.lines), ...tail].join('\n');
}

/** segment-drop and extinf-lie on the segments they select; the others as they are. */
export function rewriteMediaPlaylist(text: string, rules: readonly KeyedRule[], path: string): string {
  const segmentRules = rules.filter((r) => r.rule.fault === 'segment-drop' || r.rule.fault === 'extinf-lie');
  if (segmentRules.length === 0) return text;
  const { head, entries, tail } = splitPlaylist(text);
  const kept: Entry[] = [];
  for (const entry of entries) {
    const hits = segmentRules.filter(({ rule, key }) =>
      segmentHit(rule, key, { segmentIndex: entry.index, sequence: entry.sequence }, `${path}#${entry.sequence}`),
    );
    if (hits.some((h) => h.rule.fault === 'segment-drop')) continue;
    const lie = hits.find((h) => h.rule.fault === 'extinf-lie');
    if (lie) {
      const factor = lie.rule.factor ?? 0.5;
      entry.lines = entry.lines.map((line) =>
        line.replace(/^#EXTINF:([0-9.]+)/, (_, d: string) => `#EXTINF:${(Number(d) * factor).toFixed(3)}`),
      );
    }
    kept.push(entry);
  }
  return joinPlaylist(head, kept, tail);
}

/** sequence-regress: EXT-X-MEDIA-SEQUENCE `by` lower (by default 3), as a server that went back would say. */
export function regressSequence(text: string, by: number): string {
  return text.replace(
    /^#EXT-X-MEDIA-SEQUENCE:(\d+)/m,
    (_, n: string) => `#EXT-X-MEDIA-SEQUENCE:${Math.max(0, Number(n) - by)}`,
  );
}

/** bandwidth-lie: BANDWIDTH and AVERAGE-BANDWIDTH of the chosen variants times `factor` (by default 0.25). */
export function rewriteMaster(text: string, rules: readonly KeyedRule[], variants: readonly Variant[]): string {
  const lies = rules.filter((r) => r.rule.fault === 'bandwidth-lie');
  if (lies.length === 0) return text;
  let place = 0;
  return text
    .split('\n')
    .map((line) => {
      if (!line.startsWith('#EXT-X-STREAM-INF:')) return line;
      const variant = variants[place++];
      const lie = lies.find(({ rule }) => variantMatches(rule, variant));
      if (!lie) return line;
      const factor = lie.rule.factor ?? 0.25;
      return line.replace(
        /(^|[:,])(BANDWIDTH|AVERAGE-BANDWIDTH)=(\d+)/g,
        (_, sep: string, name: string, n: string) => `${sep}${name}=${Math.max(1, Math.round(Number(n) * factor))}`,
      );
    })
    .join('\n');
}

const PACKET = 188;

function pidOf(data: Buffer, at: number): number {
  return ((data[at + 1] & 0x1f) << 8) | data[at + 2];
}

function payloadStart(data: Buffer, at: number): number {
  const control = (data[at + 3] >> 4) & 0x03;
  return control & 0x02 ? at + 5 + data[at + 4] : at + 4;
}

/** The video and audio PIDs, from the first PMT (stream types: H.264/H.265 video; AAC/MP3/AC-3 audio). */
export function elementaryPids(data: Buffer): { video?: number; audio?: number } {
  let pmtPid: number | undefined;
  for (let at = 0; at + PACKET <= data.length; at += PACKET) {
    if (data[at] !== 0x47 || !(data[at + 1] & 0x40)) continue;
    const pid = pidOf(data, at);
    const p = payloadStart(data, at);
    const start = p + 1 + data[p];
    if (pid === 0 && pmtPid === undefined) {
      pmtPid = ((data[start + 10] & 0x1f) << 8) | data[start + 11];
    } else if (pid === pmtPid) {
      const sectionLength = ((data[start + 1] & 0x0f) << 8) | data[start + 2];
      const infoLength = ((data[start + 10] & 0x0f) << 8) | data[start + 11];
      const end = Math.min(start + 3 + sectionLength - 4, at + PACKET);
      const found: { video?: number; audio?: number } = {};
      for (let i = start + 12 + infoLength; i + 5 <= end;) {
        const type = data[i];
        const elementary = ((data[i + 1] & 0x1f) << 8) | data[i + 2];
        if ((type === 0x1b || type === 0x24) && found.video === undefined) found.video = elementary;
        if ([0x0f, 0x03, 0x04, 0x81, 0x11].includes(type) && found.audio === undefined) found.audio = elementary;
        i += 5 + (((data[i + 3] & 0x0f) << 8) | data[i + 4]);
      }
      return found;
    }
  }
  return {};
}

/** The PES packets of one PID (first packet offsets, from payload-unit start to the next), in order. */
function pesRuns(data: Buffer, pid: number): number[][] {
  const runs: number[][] = [];
  for (let at = 0; at + PACKET <= data.length; at += PACKET) {
    if (data[at] !== 0x47 || pidOf(data, at) !== pid) continue;
    if (data[at + 1] & 0x40) runs.push([at]);
    else runs[runs.length - 1]?.push(at);
  }
  return runs;
}

function withoutPackets(data: Buffer, drop: Set<number>): Buffer {
  const kept: Buffer[] = [];
  for (let at = 0; at + PACKET <= data.length; at += PACKET)
    if (!drop.has(at)) kept.push(data.subarray(at, at + PACKET));
  return Buffer.concat(kept);
}

/** The PTS (90 kHz) of a PES packet starting in the packet at `at`, if it has one. */
function ptsOf(data: Buffer, at: number): number | undefined {
  const p = payloadStart(data, at);
  if (p + 14 > at + PACKET || data[p] !== 0 || data[p + 1] !== 0 || data[p + 2] !== 1) return undefined;
  if (!(data[p + 7] & 0x80)) return undefined;
  const b = p + 9;
  return (
    ((data[b] >> 1) & 0x07) * 2 ** 30 +
    ((data[b + 1] << 7) | (data[b + 2] >> 1)) * 2 ** 15 +
    ((data[b + 3] << 7) | (data[b + 4] >> 1))
  );
}

/** The bytes a run of TS packets carries (the PES packet). */
function pesOf(data: Buffer, run: number[]): Buffer {
  return Buffer.concat(run.map((at) => data.subarray(payloadStart(data, at), at + PACKET)));
}

/** The parameter sets (SPS 7, PPS 8) of an H.264 PES, each with its start code: a decoder's configuration. */
function parameterSets(pes: Buffer): Buffer[] {
  const es = pes.subarray(9 + pes[8]);
  const starts: number[] = [];
  for (let i = 0; i + 3 <= es.length; i++) if (es[i] === 0 && es[i + 1] === 0 && es[i + 2] === 1) starts.push(i);
  return starts
    .map((start, k) => es.subarray(start, starts[k + 1] ?? es.length))
    .filter((nal) => [7, 8].includes(nal[3] & 0x1f))
    .map((nal) => Buffer.concat([Buffer.from([0]), nal]));
}

/** A PES packet as TS packets of `pid`, the last one filled by adaptation-field stuffing. */
function packetize(pes: Buffer, pid: number): Buffer[] {
  const out: Buffer[] = [];
  for (let at = 0; at < pes.length;) {
    const packet = Buffer.alloc(PACKET, 0xff);
    const take = Math.min(184, pes.length - at);
    packet[0] = 0x47;
    packet[1] = (at === 0 ? 0x40 : 0) | ((pid >> 8) & 0x1f);
    packet[2] = pid & 0xff;
    if (take < 184) {
      packet[3] = 0x30;
      packet[4] = 183 - take;
      if (take < 183) packet[5] = 0x00;
    } else {
      packet[3] = 0x10;
    }
    pes.copy(packet, PACKET - take, at, at + take);
    out.push(packet);
    at += take;
  }
  return out;
}

/**
 * no-idr-start: the segment's first video frame (its IDR) is left out, so it starts with a frame that needs one.
 * Its parameter sets (SPS, PPS) move to the next frame, as an encoder that repeats them writes: the segment still
 * names its decoder configuration, only the keyframe is missing. Continuity counters are numbered again.
 */
export function withoutFirstVideoFrame(data: Buffer): Buffer {
  const { video } = elementaryPids(data);
  if (video === undefined) return data;
  const [first, second] = pesRuns(data, video);
  if (!first || !second) return data;
  const next = pesOf(data, second);
  const sets = parameterSets(pesOf(data, first));
  const es = next.subarray(9 + next[8]);
  // After the access unit delimiter (NAL type 9, 00 00 00 01 09 xx) when the frame starts with one.
  const aud = es.length > 6 && es[0] === 0 && es[1] === 0 && es[2] === 0 && es[3] === 1 && (es[4] & 0x1f) === 9 ? 6 : 0;
  const rebuilt = Buffer.concat([next.subarray(0, 9 + next[8]), es.subarray(0, aud), ...sets, es.subarray(aud)]);
  const length = rebuilt.length - 6;
  rebuilt.writeUInt16BE(next.readUInt16BE(4) === 0 || length > 0xffff ? 0 : length, 4);
  const dropped = new Set([...first, ...second]);
  const out: Buffer[] = [];
  for (let at = 0; at + PACKET <= data.length; at += PACKET) {
    if (at === second[0]) out.push(...packetize(rebuilt, video));
    else if (!dropped.has(at)) out.push(data.subarray(at, at + PACKET));
  }
  // A copy (the input is never written to), its video counters numbered again from the first one.
  const result = Buffer.concat(out);
  let counter = data[first[0] + 3] & 0x0f;
  for (let at = 0; at + PACKET <= result.length; at += PACKET) {
    if (pidOf(result, at) !== video || !(result[at + 3] & 0x10)) continue;
    result[at + 3] = (result[at + 3] & 0xf0) | counter;
    counter = (counter + 1) % 16;
  }
  return result;
}

/** audio-gap: the audio frames of the segment's first `ms` are left out (silence a player has to fill). */
export function withoutLeadingAudio(data: Buffer, ms: number): Buffer {
  const { audio } = elementaryPids(data);
  if (audio === undefined) return data;
  const runs = pesRuns(data, audio);
  const start = runs.length ? ptsOf(data, runs[0][0]) : undefined;
  if (start === undefined) return data;
  const drop = new Set<number>();
  for (const run of runs) {
    const pts = ptsOf(data, run[0]);
    if (pts === undefined || pts - start >= (ms * 90_000) / 1000) break;
    for (const at of run) drop.add(at);
  }
  return withoutPackets(data, drop);
}

/** timestamp-jump: every PTS, DTS and PCR of the segment `seconds` later (earlier when negative). */
export function shiftedTimestamps(data: Buffer, seconds: number): Buffer {
  const ticks = Math.round(seconds * 90_000);
  // tsShift moves a loop's turn forward; a negative jump is a turn of the 33-bit clock minus the ticks.
  return shiftSegment(data, 1, { ticks: ticks >= 0 ? ticks : 2 ** 33 + ticks, counters: new Map() });
}

/** The segment's bytes with the content faults that hit it. */
export function rewriteSegment(data: Buffer, rules: readonly FaultRule[]): Buffer {
  let out = data;
  for (const rule of rules) {
    if (rule.fault === 'timestamp-jump') out = shiftedTimestamps(out, rule.seconds ?? 10);
    else if (rule.fault === 'no-idr-start') out = withoutFirstVideoFrame(out);
    else if (rule.fault === 'audio-gap') out = withoutLeadingAudio(out, rule.ms ?? 500);
  }
  return out;
}
