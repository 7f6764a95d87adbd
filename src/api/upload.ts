/**
 * The upload's form (facts section 6): the fields checked before anything is sent, and the
 * multipart body streamed from disk as the connection takes it (never the whole file in memory).
 */
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { Readable } from 'node:stream';
import { InputRule, requireWellFormed } from './params';
import type { UploadInput, UploadProgress } from './types';

/** The path of the single upload below the upload base URL. */
export const UPLOAD_PATH = '/multipart/upload';

const MAX_CAPTURE_POINTS = 8;

/** The checked form: its text fields in order (the token first) and the file. */
export interface UploadForm {
  fields: Array<[string, string]>;
  file: { path: string; name: string; size: number };
}

function flag(value: boolean | undefined, field: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'boolean') throw new InputRule(field, 'must be true or false');
  return value ? '1' : '0';
}

function wholeNumber(value: number | undefined, field: string, min: number, rule: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min) throw new InputRule(field, rule);
  return String(value);
}

function text(value: string | undefined, field: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new InputRule(field, 'must be a string');
  return value;
}

/** Checks the input (an InputRule naming the field otherwise) and reads the file's size. */
export async function checkUpload(input: UploadInput): Promise<Omit<UploadForm, 'fields'> & { input: UploadInput }> {
  if (typeof input !== 'object' || input === null || Array.isArray(input))
    throw new InputRule('input', 'must be an object');
  const path = input.file;
  if (typeof path !== 'string' || path.trim() === '') throw new InputRule('file', 'must be the path of a file');
  let size: number;
  try {
    const info = await stat(path);
    if (!info.isFile()) throw new InputRule('file', `must be a file (${path} is not)`);
    size = info.size;
  } catch (error) {
    if (error instanceof InputRule) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new InputRule(
      'file',
      `must be a readable file (${path}: ${code === 'ENOENT' ? 'no such file' : (code ?? 'unreadable')})`,
    );
  }
  const name = input.fileName ?? basename(path);
  if (typeof name !== 'string' || name.trim() === '' || /[\r\n\0]/.test(name))
    throw new InputRule('fileName', 'must be a non-empty name without line breaks');
  requireWellFormed({ fileName: name });
  return { input, file: { path, name, size } };
}

/** The form's text fields, checked; `token` is the access token to send. */
export function formFields(input: UploadInput, token: string): Array<[string, string]> {
  if (typeof token !== 'string' || token.trim() === '')
    throw new InputRule('token', 'must be a non-empty access token');
  const isTranscoder = flag(input.isTranscoder, 'isTranscoder');
  const isEncrypt = flag(input.isEncrypt, 'isEncrypt');
  if (isEncrypt === '1' && isTranscoder === '0')
    throw new InputRule('isEncrypt', 'must not be true when isTranscoder is false');
  if (input.videoType !== undefined && input.videoType !== 0 && input.videoType !== 1)
    throw new InputRule('videoType', 'must be 0 (normal) or 1 (VR)');
  let capturePoints: string | undefined;
  if (input.capturePoints !== undefined) {
    const points = input.capturePoints;
    if (
      !Array.isArray(points) ||
      points.length > MAX_CAPTURE_POINTS ||
      points.some((p) => typeof p !== 'number' || !Number.isFinite(p) || p < 0)
    )
      throw new InputRule('capturePoints', `must be at most ${MAX_CAPTURE_POINTS} times in seconds (0 or more)`);
    capturePoints = points.join(',');
  }
  const optional: Array<[string, string | undefined]> = [
    ['isEncrypt', isEncrypt],
    [
      'categoryId',
      wholeNumber(input.categoryId, 'categoryId', 0, 'must be a category id (a whole number, 0 for none)'),
    ],
    ['videoType', input.videoType === undefined ? undefined : String(input.videoType)],
    ['isTranscoder', isTranscoder],
    [
      'transcodeTemplateGroupId',
      wholeNumber(
        input.transcodeTemplateGroupId,
        'transcodeTemplateGroupId',
        1,
        'must be a template group id (a positive whole number)',
      ),
    ],
    ['capturePoints', capturePoints],
    ['isExtractFrame', flag(input.isExtractFrame, 'isExtractFrame')],
    [
      'frameInterval',
      wholeNumber(input.frameInterval, 'frameInterval', 1, 'must be a whole number of seconds, at least 1'),
    ],
    ['tag', text(input.tag, 'tag')],
  ];
  const fields: Array<[string, string]> = [['token', token]];
  for (const [name, value] of optional) if (value !== undefined) fields.push([name, value]);
  requireWellFormed(Object.fromEntries(fields));
  return fields;
}

/** A quoted header parameter as browsers write it (UTF-8; `"`, CR and LF percent-encoded). */
function quoted(value: string): string {
  return `"${value.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A')}"`;
}

/** RFC 8187 `filename*` value, for servers that read it before the plain one. */
function extended(value: string): string {
  return `UTF-8''${encodeURIComponent(value).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`;
}

export interface MultipartBody {
  contentType: string;
  /** The exact length of the body (sent as Content-Length). */
  length: number;
  /** A fresh stream of the body; the file is read as it is sent. */
  stream(onProgress?: (progress: UploadProgress) => void): Readable;
}

/** The multipart/form-data body: the text fields, then the file part. */
export function multipartBody(form: UploadForm): MultipartBody {
  const boundary = `----VideoPlatformUpload${randomBytes(12).toString('hex')}`;
  let head = '';
  for (const [name, value] of form.fields) {
    head += `--${boundary}\r\nContent-Disposition: form-data; name=${quoted(name)}\r\n\r\n${value}\r\n`;
  }
  head +=
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename=${quoted(form.file.name)}; ` +
    `filename*=${extended(form.file.name)}\r\nContent-Type: application/octet-stream\r\n\r\n`;
  const headBytes = Buffer.from(head, 'utf8');
  const tailBytes = Buffer.from(`\r\n--${boundary}--\r\n`, 'utf8');
  const { path, size } = form.file;
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    length: headBytes.length + size + tailBytes.length,
    stream(onProgress) {
      async function* parts(): AsyncGenerator<Buffer> {
        yield headBytes;
        let sent = 0;
        onProgress?.({ sentBytes: 0, totalBytes: size });
        const file = createReadStream(path, { highWaterMark: 256 * 1024 });
        try {
          for await (const chunk of file as AsyncIterable<Buffer>) {
            // A file that grew since it was measured would break the declared length: stop at its size.
            const room = size - sent;
            const piece = chunk.length > room ? chunk.subarray(0, room) : chunk;
            if (piece.length > 0) {
              sent += piece.length;
              yield piece;
              onProgress?.({ sentBytes: sent, totalBytes: size });
            }
            if (sent >= size) break;
          }
        } finally {
          file.destroy();
        }
        if (sent < size) throw new Error(`${path} became shorter while it was sent (${sent} of ${size} bytes)`);
        yield tailBytes;
      }
      return Readable.from(parts(), { objectMode: false });
    },
  };
}
