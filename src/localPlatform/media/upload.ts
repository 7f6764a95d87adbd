/**
 * `POST /multipart/upload` (facts section 6) on the platform's own origin. The multipart body is
 * parsed as it arrives (http/multipartStream.ts) and the file streamed to disk, never held whole in memory. The
 * access token (getToken) is checked; a file larger than the limit is refused with an envelope
 * error. ffprobe measures what arrived: media becomes a video (queued for transcoding when
 * `isTranscoder` is 1, the default), anything else status 5; a body cut off mid-file status 4.
 */
import { createWriteStream, type WriteStream } from 'node:fs';
import { chmod, rename, rm } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
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
import { boundaryOf, decodePart } from '../http/multipart';
import { DISCARD, MultipartError, MultipartReader, type PartInfo, type PartSink } from '../http/multipartStream';
import { plainStorageProblem } from '../store/storageErrors';
import { frameArgs, sourceDemuxer, type SourceInput } from './commands';
import type { MediaEngine, MediaLimits } from './engine';
import { coversOnDisk, FILE_MODE, makeDir, mediaRoot, sourceFile, videoDir } from './files';
import { checkToken } from './tokens';

export const UPLOAD_PATH = '/multipart/upload';
const MAX_CAPTURE_POINTS = 8;
const MAX_FIELD_BYTES = 64 * 1024;
const MAX_FIELDS = 50;
const MAX_FILES = 20;
const MAX_PARTS = 80;
const MAX_PART_HEADER_BYTES = 16 * 1024;
/**
 * What a file's write stream may hold before the body waits for the disk. Node's default, 16 KiB, is less than one
 * socket read (64 KiB): every piece then waited for its own write; 1 MiB lets pieces gather into one `writev`
 * (measured: about 70 ms less CPU per 64 MiB).
 */
const WRITE_BUFFER_BYTES = 1024 * 1024;

class UploadFault extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

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

/** Answers a refusal; returns its code (for the request log). */
function fail(res: ServerResponse, code: number, message: string): number {
  answer(res, { code, message, result: null, success: false });
  return code;
}

interface Received {
  fileName: string;
  temp: string;
  bytes: number;
  truncated: boolean;
}

/** A file part written to its temporary file as it arrives, within the upload limit. */
class FileSink implements PartSink {
  /** Settles when the file is written and closed, or destroyed; never rejects (a failure is kept in `failure`). */
  readonly written: Promise<void>;
  failure: Error | undefined;
  private readonly out: WriteStream;

  constructor(
    private readonly entry: Received,
    private readonly limit: number,
    private readonly overLimit: () => void,
  ) {
    this.out = createWriteStream(entry.temp, { mode: FILE_MODE, highWaterMark: WRITE_BUFFER_BYTES });
    this.out.on('error', (error) => (this.failure ??= error));
    this.written = finished(this.out).catch(() => undefined);
  }

  write(chunk: Buffer): Promise<void> | undefined {
    if (this.entry.truncated || this.failure) return undefined;
    if (this.entry.bytes + chunk.length > this.limit) {
      this.entry.truncated = true;
      this.overLimit();
      return undefined;
    }
    this.entry.bytes += chunk.length;
    if (this.out.write(chunk)) return undefined;
    // The disk is behind: the body waits (in the socket) until it caught up, or the file failed.
    return new Promise((resolve) => {
      const go = (): void => {
        this.out.off('drain', go).off('close', go);
        resolve();
      };
      this.out.on('drain', go).on('close', go);
    });
  }

  end(): void {
    this.out.end();
  }

  destroy(): void {
    this.out.destroy();
  }
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
  const fields = new Map<string, string>();
  const received: Received[] = [];
  const writes: Array<Promise<void>> = [];
  const files: FileSink[] = [];
  const counts = { parts: 0, fields: 0, files: 0 };
  let account: Account | undefined;
  let dir: string | undefined;
  let refused: UploadFault | undefined;
  const refuse = (fault: UploadFault): void => {
    refused ??= fault;
  };
  const findAccount = (): void => {
    if (account || refused) return;
    const token = fields.get('token');
    if (token === undefined) return;
    const check = checkToken(
      token,
      accounts.map((a) => a.account),
      now,
    );
    if ('problem' in check) return refuse(new UploadFault(Codes.getAccessTokenFailed, check.problem));
    account = check.account;
    dir = accounts.find((a) => a.account === account)?.dir;
  };
  /** The token must be given and good, and the fields so far readable, before the first file part. */
  const admitFiles = (): void => {
    findAccount();
    if (refused) return;
    if (!account) {
      return refuse(
        new UploadFault(
          Codes.parameterMissing,
          'token is missing before the first file part (send the token field first)',
        ),
      );
    }
    try {
      readOptions(fields, account);
    } catch (error) {
      if (error instanceof UploadFault) refuse(error);
      else throw error;
    }
  };
  const field = (name: string, headers: string): PartSink => {
    const kept: Buffer[] = [];
    let bytes = 0;
    return {
      write: (chunk) => {
        if (bytes + chunk.length > MAX_FIELD_BYTES)
          refuse(
            new UploadFault(Codes.parameterInvalid, `${name.slice(0, 40)} is longer than ${MAX_FIELD_BYTES} bytes`),
          );
        else kept.push(chunk);
        bytes += chunk.length;
      },
      end: () => {
        fields.set(name, decodePart(Buffer.concat(kept), headers));
        if (name === 'token') findAccount();
      },
    };
  };
  const file = (fileName: string | undefined): PartSink => {
    // Written below the data folder (not /tmp): the same disk, so moving it into place is a rename.
    const entry: Received = {
      fileName: (fileName || 'upload').slice(0, 255),
      temp: join(mediaRoot(dir ?? accounts[0].dir), 'incoming', newId()),
      bytes: 0,
      truncated: false,
    };
    received.push(entry);
    const sink = new FileSink(entry, engine.maxUploadBytes, () =>
      refuse(
        new UploadFault(Codes.bodyTooLarge, `file is larger than the upload limit of ${engine.maxUploadBytes} bytes`),
      ),
    );
    files.push(sink);
    writes.push(sink.written);
    return sink;
  };
  const onPart = (part: PartInfo): PartSink => {
    if (++counts.parts > MAX_PARTS) {
      refuse(new UploadFault(Codes.parameterInvalid, `at most ${MAX_PARTS} parts per upload`));
      return DISCARD;
    }
    if (part.name === undefined) return DISCARD;
    if (part.fileName === undefined) {
      if (++counts.fields > MAX_FIELDS) {
        refuse(new UploadFault(Codes.parameterInvalid, `at most ${MAX_FIELDS} fields per upload`));
        return DISCARD;
      }
      return field(part.name, part.headers);
    }
    if (++counts.files > MAX_FILES) {
      refuse(new UploadFault(Codes.parameterInvalid, `at most ${MAX_FILES} files per upload`));
      return DISCARD;
    }
    // Nothing of a file is kept before the token and the fields before it are known good: a file
    // part sent first is drained and dropped, never written.
    if (part.name === 'file' && !refused) admitFiles();
    return part.name === 'file' && !refused ? file(part.fileName) : DISCARD;
  };
  for (const a of accounts) await makeDir(join(mediaRoot(a.dir), 'incoming'));
  const body = new MultipartReader(boundary, onPart, MAX_PART_HEADER_BYTES);
  let broken: MultipartError | undefined;
  try {
    // Not destroyed on the way out: a refusal is still answered on this connection.
    for await (const chunk of req.iterator({ destroyOnReturn: false })) await body.write(chunk as Buffer);
    body.end();
  } catch (error) {
    if (error instanceof MultipartError) broken = error;
    else if (req.complete) throw error;
  }
  const outcome = req.complete && body.complete ? 'complete' : 'cut';
  // A body that stopped mid-file never ends its file: end it here (its bytes are removed below).
  if (outcome === 'cut') for (const sink of files) sink.destroy();
  await Promise.allSettled(writes);
  findAccount();
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
  const failedWrite = files.find((sink) => sink.failure)?.failure;
  if (failedWrite) {
    const problem = plainStorageProblem(failedWrite) ?? 'could not be written';
    refuse(new UploadFault(Codes.storageUnavailable, `the upload was not stored: the data folder ${problem}`));
  }
  if (!refused && !account) refuse(new UploadFault(Codes.parameterMissing, 'token is missing (ask getToken for one)'));
  if (!refused && received.length === 0) refuse(new UploadFault(Codes.parameterMissing, 'file is missing'));
  let options: Options | undefined;
  try {
    if (!refused && account) options = readOptions(fields, account);
  } catch (error) {
    if (error instanceof UploadFault) refuse(error);
    else throw error;
  }
  if (refused || !account || !dir || !options) {
    await cleanup();
    const fault = refused ?? new UploadFault(Codes.exception, 'upload failed');
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
