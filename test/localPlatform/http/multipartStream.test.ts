/**
 * The upload's multipart reader (http/multipartStream.ts) fed a body in every way a socket may cut it: whole, in two
 * pieces split at every byte, a byte at a time, and in random pieces; a file whose content holds every proper
 * start of the boundary line and the boundary without its line break; a body without its closing boundary; part
 * headers over their bound; back-pressure from a slow sink. The uploads over real HTTP are in
 * test/localPlatform/media/uploadBody.test.ts.
 */
import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import {
  MultipartError,
  MultipartReader,
  readPartHeaders,
  type PartInfo,
  type PartSink,
} from '../../../src/localPlatform/http/multipartStream';

const BOUNDARY = '----FormBoundary7MA4YWxkTrZu0gW';
const DELIMITER = `\r\n--${BOUNDARY}`;

interface Read {
  name: string | undefined;
  fileName: string | undefined;
  content: Buffer;
}

/** File content that holds every proper start of the delimiter, and the boundary with no line break before it. */
function trickyContent(): Buffer {
  const pieces: Buffer[] = [randomBytes(300)];
  for (let n = 1; n < DELIMITER.length; n++) pieces.push(Buffer.from(DELIMITER.slice(0, n), 'latin1'), randomBytes(7));
  pieces.push(Buffer.from(`--${BOUNDARY}--`, 'latin1'), randomBytes(5), Buffer.from(`\n--${BOUNDARY}\r\n`, 'latin1'));
  // Ends with a start of the delimiter: the real one follows right after it.
  pieces.push(Buffer.from(DELIMITER.slice(0, 12), 'latin1'));
  return Buffer.concat(pieces);
}

function body(content: Buffer): Buffer {
  return Buffer.concat([
    Buffer.from('a preamble, ignored\r\n', 'latin1'),
    Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="token"\r\n\r\nabc.123\r\n`),
    Buffer.from(`--${BOUNDARY} \t\r\nContent-Disposition: form-data; name=title\r\n\r\nÉté\r\n`),
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="C:\\\\clips\\\\a.mp4"\r\n` +
        'Content-Type: video/mp4\r\n\r\n',
    ),
    content,
    Buffer.from(`\r\n--${BOUNDARY}\r\n\r\nno headers\r\n--${BOUNDARY}--\r\nan epilogue, ignored`),
  ]);
}

/** Reads `pieces` in order; the parts as read. */
async function read(pieces: Buffer[]): Promise<Read[]> {
  const parts: Read[] = [];
  const reader = new MultipartReader(
    BOUNDARY,
    (info: PartInfo): PartSink => {
      const kept: Buffer[] = [];
      return {
        write: (chunk) => void kept.push(Buffer.from(chunk)),
        end: () => parts.push({ name: info.name, fileName: info.fileName, content: Buffer.concat(kept) }),
      };
    },
    16 * 1024,
  );
  for (const piece of pieces) await reader.write(piece);
  reader.end();
  return parts;
}

function expected(content: Buffer): Read[] {
  return [
    { name: 'token', fileName: undefined, content: Buffer.from('abc.123') },
    { name: 'title', fileName: undefined, content: Buffer.from('Été') },
    { name: 'file', fileName: 'a.mp4', content },
    { name: undefined, fileName: undefined, content: Buffer.from('no headers') },
  ];
}

describe('local platform: the upload multipart reader', () => {
  const content = trickyContent();
  const whole = body(content);

  it('reads a whole body: fields, a file whose content looks like boundaries, a part without headers', async () => {
    assert.deepEqual(await read([whole]), expected(content));
  });

  it('reads the same parts however the body is cut in two, at every byte', async () => {
    for (let at = 0; at <= whole.length; at++) {
      const parts = await read([whole.subarray(0, at), whole.subarray(at)]);
      assert.deepEqual(parts, expected(content), `cut at byte ${at}`);
    }
  });

  it('reads the same parts a byte at a time, and in random pieces', async () => {
    assert.deepEqual(await read([...whole].map((b) => Buffer.from([b]))), expected(content));
    for (let round = 0; round < 200; round++) {
      const pieces: Buffer[] = [];
      for (let at = 0; at < whole.length;) {
        const size = 1 + Math.floor(Math.random() * 90);
        pieces.push(whole.subarray(at, at + size));
        at += size;
      }
      assert.deepEqual(await read(pieces), expected(content), `pieces of ${pieces.map((p) => p.length).join(',')}`);
    }
  });

  it('says a body without its closing boundary is incomplete', async () => {
    const cut = whole.subarray(0, whole.indexOf(`\r\n--${BOUNDARY}--`));
    await assert.rejects(read([cut]), (e: Error) => {
      assert.ok(e instanceof MultipartError);
      assert.equal(e.message, 'the body ended inside a part, before its closing boundary');
      return true;
    });
    // The last boundary line without its `--`: no part is open, the body still is.
    await assert.rejects(read([Buffer.concat([cut, Buffer.from(`\r\n--${BOUNDARY}`)])]), {
      message: 'the body ended before its closing boundary',
    });
    await assert.rejects(read([Buffer.from('no boundary at all')]), {
      message: 'the body ended before its closing boundary',
    });
  });

  it("refuses a part's header lines over the bound, and a boundary line with anything after it", async () => {
    const long = Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="x"\r\nX-Pad: ${'p'.repeat(17_000)}`,
    );
    await assert.rejects(read([long]), { message: "a part's header lines are longer than 16384 bytes" });
    // Cut in small pieces: the bound holds while the lines are still arriving.
    const pieces = Array.from({ length: Math.ceil(long.length / 100) }, (_, i) =>
      long.subarray(i * 100, i * 100 + 100),
    );
    await assert.rejects(read(pieces), { message: "a part's header lines are longer than 16384 bytes" });
    await assert.rejects(read([Buffer.from(`--${BOUNDARY}x\r\n\r\n`)]), {
      message: 'a boundary line must end with a line break (or -- after the last part)',
    });
  });

  it("holds the reading while a part's sink is busy (back-pressure)", async () => {
    let release!: () => void;
    const busy = new Promise<void>((resolve) => (release = resolve));
    let written = 0;
    const reader = new MultipartReader(
      BOUNDARY,
      () => ({ write: (chunk) => ((written += chunk.length), busy), end: () => undefined }),
      1024,
    );
    let done = false;
    const writing = reader.write(whole).then(() => (done = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(done, false, 'the write waits for the sink');
    release();
    await writing;
    assert.equal(done, true);
    assert.ok(written > content.length);
  });

  it('reads the file name as browsers and RFC 8187 send it', () => {
    const header = (disposition: string): PartInfo =>
      readPartHeaders(`Content-Disposition: ${disposition}\r\nContent-Type: video/mp4`);
    assert.equal(header('form-data; name="file"; filename="vidéo été.mp4"').fileName, 'vidéo été.mp4');
    assert.equal(
      header(`form-data; name="file"; filename="x.mp4"; filename*=UTF-8''Clip%20%C3%A9%20%22q%22.mp4`).fileName,
      'Clip é "q".mp4',
    );
    assert.equal(header('form-data; name=file; filename="../../etc/passwd"').fileName, 'passwd');
    assert.equal(header('form-data; name="file"; filename=".."').fileName, '');
    assert.equal(header('form-data; name="a;b"').name, 'a;b');
    assert.equal(header('attachment; name="file"').name, undefined, 'only form-data parts are named');
  });
});
