/**
 * `POST /multipart/upload` (facts section 6) on the platform's own origin. The multipart body is
 * parsed as it arrives (http/multipartStream.ts) and the file streamed to disk, never held whole in memory. The
 * access token (getToken) is checked; a file larger than the limit is refused with an envelope
 * error. ffprobe measures what arrived: media becomes a video (queued for transcoding when
 * `isTranscoder` is 1, the default), anything else status 5; a body cut off mid-file status 4.
 */
import { chmod, rename, rm } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { Codes } from '../../api/errorCodes';
import { VideoStatuses } from '../../api/types';
import { readMedia, type MediaReading } from '../../media/read';
import { runTool } from '../../media/tools';
import { fromGroup } from '../actions/transcode';
import { findTemplateGroup } from '../actions/templateGroups';
import type { Account } from '../actions/context';
import { newId } from '../store/ids';
import { metaOf } from '../store/meta';
import { newVideoRecord, type JobRec, type VideoRec } from '../store/records';
import { Tx } from '../store/store';
import { fileUrl, type Origin } from '../http/addresses';
import { send, type Envelope } from '../http/answer';
import { boundaryOf } from '../http/multipart';
import { MultipartError, MultipartReader } from '../http/multipartStream';
import { frameArgs, sourceDemuxer, type SourceInput } from './commands';
import type { MediaEngine, MediaLimits } from './engine';
import { coversOnDisk, FILE_MODE, makeDir, mediaRoot, sourceFile, videoDir } from './files';
import { UploadFault, UploadParts, type Received } from './uploadParts';

export const UPLOAD_PATH = '/multipart/upload';
const MAX_CAPTURE_POINTS = 8;
/** A part's header lines: a name, a file name (255 characters kept) and a type need far less. */
const MAX_PART_HEADER_BYTES = 16 * 1024;

/** Upload answers are readable by pages of any origin (a browser form posts them) and end the connection. */
const UPLOAD_HEADERS = { 'Access-Control-Allow-Origin': '*', Connection: 'close' } as const;

/** The envelope, written by the same answer step as /rest's (http/answer.ts). */
function answer(res: ServerResponse, envelope: Envelope): void {
  send(res, 200, envelope, UPLOAD_HEADERS);
}

/**
 * Reads what is left of the body (discarded) before a refusal is answered: an answer with
 * `Connection: close` while the client still sends makes its socket reset, losing the answer.
 */
async function drained(req: IncomingMessage): Promise<void> {
  if (req.complete || req.destroyed) return;
  await new Promise<void>((resolve) => {
    req.once('end', resolve);
    req.once('close', resolve);
    req.resume();
  });
}

/**
 * Reads the body through the multipart reader, each piece handed on as it arrives: complete, cut off (the client
 * gone), or not well-formed (the reason).
 */
async function readBody(req: IncomingMessage, body: MultipartReader): Promise<'complete' | 'cut' | MultipartError> {
  try {
    // Not destroyed on the way out: a refusal is still answered on this connection.
    for await (const chunk of req.iterator({ destroyOnReturn: false })) await body.write(chunk as Buffer);
    body.end();
  } catch (error) {
    if (error instanceof MultipartError) return error;
    if (req.complete) throw error;
  }
  return req.complete && body.complete ? 'complete' : 'cut';
}

/** Answers a refusal; returns its code (for the request log). */
function fail(res: ServerResponse, code: number, message: string): number {
  answer(res, { code, message, result: null, success: false });
  return code;
}

interface Options {
  categoryId: number;
  videoType: 0 | 1;
  isTranscoder: boolean;
  groupId: number | undefined;
  capturePoints: number[];
  tag: string | null;
}

function readOptions(fields: Map<string, string>, account: Account): Options {
  const int = (name: string, rule: (n: number) => boolean, text: string): number | undefined => {
    const raw = fields.get(name)?.trim();
    if (raw === undefined || raw === '') return undefined;
    const n = Number(raw);
    if (!/^-?\d+$/.test(raw) || !rule(n))
      throw new UploadFault(Codes.parameterInvalid, `${name} ${text} (got ${raw.slice(0, 40)})`);
    return n;
  };
  const categoryId = int('categoryId', (n) => n >= 0, 'must be a video category id') ?? 0;
  if (categoryId !== 0 && !account.store.get('videoCategories', categoryId)) {
    throw new UploadFault(Codes.parameterInvalid, `categoryId ${categoryId} is not a video category of this account`);
  }
  const videoType = (int('videoType', (n) => n === 0 || n === 1, 'must be 0 (normal) or 1 (VR)') ?? 0) as 0 | 1;
  const isTranscoder = (int('isTranscoder', (n) => n === 0 || n === 1, 'must be 0 or 1') ?? 1) === 1;
  const isEncrypt = int('isEncrypt', (n) => n === 0 || n === 1, 'must be 0 or 1') ?? 0;
  if (isEncrypt === 1 && !isTranscoder)
    throw new UploadFault(Codes.parameterInvalid, 'isEncrypt must not be 1 when isTranscoder is 0');
  int('isExtractFrame', (n) => n === 0 || n === 1, 'must be 0 or 1');
  int('frameInterval', (n) => n >= 1, 'must be a whole number of seconds, at least 1');
  const groupId = int('transcodeTemplateGroupId', (n) => n >= 1, 'must be a template group id');
  if (groupId !== undefined && !findTemplateGroup(account.store, groupId)) {
    throw new UploadFault(
      Codes.templateGroupNotExist,
      `transcodeTemplateGroupId ${groupId} is not a template group of this account`,
    );
  }
  const pointsText = fields.get('capturePoints')?.trim() ?? '';
  const capturePoints = pointsText === '' ? [] : pointsText.split(',').map((p) => Number(p.trim()));
  if (capturePoints.some((p) => !Number.isFinite(p) || p < 0) || capturePoints.length > MAX_CAPTURE_POINTS) {
    throw new UploadFault(
      Codes.parameterInvalid,
      `capturePoints must be at most ${MAX_CAPTURE_POINTS} times in seconds, comma-separated (got ${pointsText.slice(0, 60)})`,
    );
  }
  const tag = fields.get('tag')?.trim() || null;
  return { categoryId, videoType, isTranscoder, groupId, capturePoints, tag };
}

export async function handleUpload(
  engine: MediaEngine,
  accounts: Array<{ account: Account; dir: string }>,
  req: IncomingMessage,
  res: ServerResponse,
  origin: Origin,
): Promise<number> {
  if (req.method === 'OPTIONS') {
    res.writeHead(204, {
      'Access-Control-Allow-Origin': '*',
      'Access-Control-Allow-Methods': 'POST',
      'Access-Control-Allow-Headers': 'Content-Type',
    });
    res.end();
    return Codes.success;
  }
  if (req.method !== 'POST') {
    await drained(req);
    res.setHeader('Allow', 'POST');
    return fail(res, Codes.parameterInvalid, `method must be POST (got ${req.method ?? '?'})`);
  }
  const tools = engine.tools;
  if (!tools) {
    await drained(req);
    return fail(res, Codes.exception, `uploads need real media: ${engine.describe()}`);
  }
  const boundary = /^multipart\/form-data\s*;/i.test(req.headers['content-type'] ?? '')
    ? boundaryOf(req.headers['content-type']!)
    : undefined;
  if (!boundary) {
    await drained(req);
    return fail(res, Codes.parameterInvalid, 'the body must be multipart/form-data with the fields token and file');
  }
  const now = Date.now();
  const form = new UploadParts(accounts, engine.maxUploadBytes, now, readOptions);
  for (const a of accounts) await makeDir(join(mediaRoot(a.dir), 'incoming'));
  const read = await readBody(req, new MultipartReader(boundary, (part) => form.part(part), MAX_PART_HEADER_BYTES));
  const outcome = read === 'complete' ? 'complete' : 'cut';
  const broken = read instanceof MultipartError ? read : undefined;
  // A body that stopped mid-file never ends its file: end it here (its bytes are removed below).
  if (outcome === 'cut') form.destroyFiles();
  await form.written();
  form.findAccount();
  const { fields, received, account, dir } = form;
  const cleanup = async (): Promise<void> => {
    for (const r of received) await rm(r.temp, { force: true });
  };
  if (outcome === 'cut') {
    // The client went away mid-body: what it sent is recorded as a failed upload (status 4).
    if (account && dir) await recordCutOff(account, received, fields, now).catch(() => undefined);
    await cleanup();
    req.resume();
    const why = broken
      ? `the body is not well-formed multipart/form-data: ${broken.message}`
      : 'the upload was cut off before the body was complete';
    return fail(res, Codes.parameterInvalid, why);
  }
  const options = form.complete();
  if (form.refused || !account || !dir || !options) {
    await cleanup();
    const fault = form.refused ?? new UploadFault(Codes.exception, 'upload failed');
    return fail(res, fault.code, fault.message);
  }
  const measured: Array<MediaReading | undefined> = [];
  for (const r of received) measured.push(await measure(r.temp, AbortSignal.timeout(60_000)));
  const beyond = measured.map((info) => info && limitProblem(info, engine.limits)).find((p) => p !== undefined);
  if (beyond) {
    await cleanup();
    return fail(res, Codes.parameterInvalid, beyond);
  }
  const results: unknown[] = [];
  for (const [i, r] of received.entries()) {
    const videoId = newId();
    await makeDir(videoDir(dir, videoId));
    await rename(r.temp, sourceFile(dir, videoId));
    const video = await admit(account, dir, videoId, r, measured[i], options, engine, now);
    results.push({
      videoId,
      fileName: r.fileName,
      // As queryVideo lists them: "" when no picture was captured (see serialize.ts video()).
      // Composed by the address builder from the serving origin, as every answer's addresses are.
      thumbnail: video.covers ? fileUrl(origin, `/vod/${videoId}/thumbnail.jpg`) : '',
      cover: video.covers ? fileUrl(origin, `/vod/${videoId}/cover.jpg`) : '',
      title: video.title,
      size: video.size,
      duration: video.duration,
      width: video.width,
      height: video.height,
      status: video.status,
    });
  }
  await account.store.durable();
  account.transcoder.reschedule();
  answer(res, { code: Codes.success, message: 'success', result: results, success: true });
  return Codes.success;
}

function titleOf(fileName: string): string {
  return fileName.replace(/\.[^.]*$/, '').slice(0, 100) || 'upload';
}

async function recordCutOff(
  account: Account,
  received: Received[],
  fields: Map<string, string>,
  now: number,
): Promise<void> {
  const tx = new Tx();
  for (const r of received) {
    tx.put(
      'videos',
      newVideoRecord({
        id: newId(),
        fileName: r.fileName,
        title: titleOf(r.fileName),
        uploadTime: now,
        status: VideoStatuses.uploadFailed,
        size: Math.round(r.bytes / 1024),
        tag: fields.get('tag')?.trim() || null,
      }),
    );
  }
  await account.store.commit(tx);
}

/**
 * What an arrived file holds, read in-process as the container its bytes are (never as a playlist or a list of other
 * files); undefined when it is not media.
 */
async function measure(file: string, signal: AbortSignal): Promise<MediaReading | undefined> {
  try {
    return await readMedia(file, { signal });
  } catch {
    return undefined;
  }
}

/** Which bound of `media.limits` (engine.ts) a measured video passes, said with its value and the limit. */
export function limitProblem(info: MediaReading, limits: MediaLimits): string | undefined {
  const v = info.video;
  if (!v || v.width <= 0) return undefined;
  const pixels = v.width * v.height;
  if (pixels > limits.maxFramePixels) {
    return `file is ${v.width}x${v.height} (${pixels} pixels per frame): the limit is ${limits.maxFramePixels} pixels per frame`;
  }
  const fps = v.frameRate;
  if (fps > limits.maxFrameRate) {
    return `file has ${Math.round(fps * 100) / 100} frames per second: the limit is ${limits.maxFrameRate} frames per second`;
  }
  // The packets' span, and the container's own claim where the reading stopped early: whichever is longer.
  const seconds = Math.max(info.duration, info.wholeDuration ?? 0);
  if (seconds > limits.maxDurationSeconds) {
    return `file lasts ${Math.round(seconds)} s: the limit is ${limits.maxDurationSeconds} s of duration`;
  }
  const frames = Math.max(info.frameCount, Math.round(seconds * (fps || 25)));
  const total = frames * pixels;
  if (total > limits.maxTotalPixels) {
    return (
      `file has about ${frames} frames of ${pixels} pixels (${total.toExponential(2)} ` +
      `frames x pixels): the limit is ${limits.maxTotalPixels.toExponential(2)} frames x pixels`
    );
  }
  return undefined;
}

/** Stores a measured file as a video (queued when asked) with its covers; not media: status 5. */
async function admit(
  account: Account,
  dir: string,
  videoId: string,
  r: Received,
  info: MediaReading | undefined,
  options: Options,
  engine: MediaEngine,
  now: number,
): Promise<VideoRec> {
  const source = sourceFile(dir, videoId);
  // Read in-process as the container its bytes are (never as a playlist or a list of other files).
  const v = info?.video && info.video.width > 0 ? info.video : undefined;
  const a = info?.audio;
  const base = newVideoRecord({
    id: videoId,
    fileName: r.fileName,
    title: titleOf(r.fileName),
    uploadTime: now,
    categoryId: options.categoryId,
    videoType: options.videoType,
    tag: options.tag,
    size: Math.round(r.bytes / 1024),
  });
  if (!info || !v) {
    // Not media (or no picture): kept as status 5, its bytes removed.
    await rm(source, { force: true });
    const video: VideoRec = { ...base, status: VideoStatuses.unknownFileType };
    await account.store.commit(new Tx().put('videos', video));
    return video;
  }
  const seconds = info.duration;
  const measured: VideoRec = {
    ...base,
    width: v.width,
    height: v.height,
    duration: Math.round(seconds * 1000),
    bitrate: Math.round((info.bitRate ?? 0) / 1000),
    audioBitrate: a ? Math.round((a.bitRate ?? 0) / 1000) : 0,
    status: VideoStatuses.uploadFinished,
    covers: await captureCovers(
      engine,
      { file: source, demuxer: sourceDemuxer(info.container) },
      dir,
      videoId,
      options.capturePoints,
      seconds,
    ),
  };
  const tx = new Tx();
  let video = measured;
  if (options.isTranscoder) {
    const groupId = options.groupId ?? metaOf(account.store).defaultTemplateGroupId;
    const group = groupId === null ? undefined : findTemplateGroup(account.store, groupId);
    if (group) {
      const plan = fromGroup(group);
      const job: JobRec = {
        id: newId(),
        videoId,
        replace: true,
        first: true,
        ...plan,
        ...account.transcoder.plan(now),
        createTime: now,
      };
      video = { ...measured, status: VideoStatuses.waiting };
      tx.put('jobs', job);
    }
  }
  await account.store.commit(tx.put('videos', video));
  return video;
}

/**
 * cover.jpg at the first capture point (1 s or the middle of a short clip by default), thumbnail.jpg beside it,
 * cover-N.jpg for the others; true when cover.jpg and thumbnail.jpg were written (ffmpeg may find no frame).
 */
async function captureCovers(
  engine: MediaEngine,
  source: SourceInput,
  dir: string,
  videoId: string,
  points: number[],
  seconds: number,
): Promise<boolean> {
  const at = (p: number): number => Math.max(0, Math.min(p, Math.max(0, seconds - 0.1)));
  const first = points.length > 0 ? at(points[0]) : Math.min(1, seconds / 2);
  const folder = videoDir(dir, videoId);
  const shots: Array<[string, number, number | undefined]> = [
    ['cover.jpg', first, undefined],
    ['thumbnail.jpg', first, 320],
    ...points.slice(1).map((p, i): [string, number, number | undefined] => [`cover-${i + 2}.jpg`, at(p), undefined]),
  ];
  for (const [name, time, width] of shots) {
    const file = join(folder, name);
    await runTool(
      engine.tools!.ffmpeg,
      frameArgs(source, time, file, width),
      engine.runOptions({ timeoutMs: 60_000 }),
    ).catch(() => undefined);
    await chmod(file, FILE_MODE).catch(() => undefined);
  }
  return coversOnDisk(dir, videoId);
}
