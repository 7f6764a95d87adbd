/**
 * The request target read as the URL parser reads it, whichever way the client wrote it: the platform reads plain
 * targets without a URL object (normalise.ts), so the parameters it checks the signature over must be the ones
 * the URL parser would give, for every spelling of the same values.
 */
import * as assert from 'node:assert/strict';
import { connect } from 'node:net';
import { Codes } from '../../../src/api/errorCodes';
import { signParams } from '../../../src/api/signing';
import { ACCOUNT, rawSocket, TestPlatform } from '../harness';

/** Values that URL encoders write in different ways (space, plus, quotes, a second `?`, non-ASCII). */
const NOTE = `a b+c 'q' "d" x?y/z=1;2,3:@!*()~$ é渠😀 100%`;

function signedWith(note: string): Record<string, string> {
  const params: Record<string, string> = {
    accessKey: ACCOUNT.accessKey,
    action: 'liveChannelTypeList',
    version: '2.0',
    timestamp: String(Date.now()),
    note,
  };
  return { ...params, signature: signParams(params, ACCOUNT.secretKey) };
}

/** The query with `note` spelt by `spell` and every other value as URLSearchParams writes it. */
function query(params: Record<string, string>, spell: (value: string) => string): string {
  return Object.entries(params)
    .map(([name, value]) =>
      name === 'note' ? `note=${spell(value)}` : new URLSearchParams({ [name]: value }).toString(),
    )
    .join('&');
}

/** Percent-encodes only what HTTP cannot carry raw (space, `%`, `&`, `#`, `+`, non-ASCII): the rest stays as it is. */
const minimal = (value: string): string =>
  [...value]
    .map((ch) => (/[ %&#+]/.test(ch) || ch.charCodeAt(0) > 0x7e ? encodeURIComponent(ch).replace(/%20/g, '+') : ch))
    .join('');

const SPELLINGS: Array<[string, (value: string) => string]> = [
  ['URLSearchParams', (v) => new URLSearchParams({ v }).toString().slice(2)],
  ['encodeURIComponent (%20 for space)', encodeURIComponent],
  ['lower-case escapes', (v) => encodeURIComponent(v).replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase())],
  ['raw quotes, slashes, a second ? and the like', minimal],
];

async function answer(p: TestPlatform, path: string): Promise<{ status: number; code: number }> {
  const text = await rawSocket(
    p.platform.port,
    `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${p.platform.port}\r\nConnection: close\r\n\r\n`,
  );
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1]);
  const code = Number(/"code":(\d+)/.exec(text)?.[1]);
  return { status, code };
}

describe('local platform: the request target', () => {
  let p: TestPlatform;

  before(async () => {
    p = await TestPlatform.start();
  });
  after(async () => {
    await p.close();
  });

  for (const [name, spell] of SPELLINGS) {
    it(`reads parameters written with ${name} as the client signed them`, async () => {
      const got = await answer(p, `/rest?${query(signedWith(NOTE), spell)}`);
      assert.deepEqual(got, { status: 200, code: 0 });
    });
  }

  it('tells a plus from an encoded plus and a space from an encoded percent sign (the signature fails)', async () => {
    const params = signedWith('a b');
    assert.equal((await answer(p, `/rest?${query(params, () => 'a%2Bb')}`)).code, Codes.signatureIncorrect);
    assert.equal((await answer(p, `/rest?${query(params, () => 'a%2520b')}`)).code, Codes.signatureIncorrect);
    assert.equal((await answer(p, `/rest?${query(params, () => 'a+b')}`)).code, 0);
  });

  it('reads a query with nothing to decode as written: a second ?, = in a value, empty pairs, a name alone', async () => {
    // No `%` and no `+`: the platform cuts such a query at `&` and the first `=` itself; it must give what
    // URLSearchParams gives, or the signature of a genuine request fails (or a changed one passes).
    const note = `a=b?c/d;e,f:@!*()~$'"`;
    const base = signedWith(note);
    const { signature, ...unsigned } = base;
    const withFlag = { ...unsigned, flag: '' };
    const flagged = { ...withFlag, signature: signParams(withFlag, ACCOUNT.secretKey) };
    const written = (params: Record<string, string>, value: string): string =>
      Object.entries(params)
        .map(([name, v]) => (name === 'flag' ? 'flag' : `${name}=${name === 'note' ? value : v}`))
        .join('&&');
    for (const path of [`/rest?${written(flagged, note)}`, `/rest??${written(flagged, note)}&`]) {
      assert.deepEqual(await answer(p, path), { status: 200, code: 0 }, path);
    }
    assert.equal((await answer(p, `/rest?${written(flagged, `${note}x`)}`)).code, Codes.signatureIncorrect);
    // The empty `flag` is signed: the same query without it is refused, and so is the unflagged signature with it.
    const unflagged = Object.fromEntries(Object.entries(flagged).filter(([name]) => name !== 'flag'));
    assert.equal((await answer(p, `/rest?${written(unflagged, note)}`)).code, Codes.signatureIncorrect);
    assert.equal(
      (await answer(p, `/rest?${written({ ...withFlag, signature }, note)}`)).code,
      Codes.signatureIncorrect,
    );
  });

  it('routes paths the URL parser rewrites (dot segments, repeated slashes, escapes) to where it points', async () => {
    const q = query(signedWith(NOTE), encodeURIComponent);
    for (const path of ['/rest/', '//rest', '/x/../rest', '/./rest', '/x/%2E%2E/rest']) {
      assert.deepEqual(await answer(p, `${path}?${q}`), { status: 200, code: 0 }, path);
    }
    // An escaped letter is not decoded in a path (the URL parser keeps it), nor is a trailing dot dropped.
    for (const path of ['/rest.', '/x/rest', '/rest/x', '/%72est']) {
      assert.equal((await answer(p, `${path}?${q}`)).status, 404, path);
    }
  });
});

describe('local platform: closing with a request in flight', () => {
  it('answers a request whose body is still arriving, then closes at once (not after its 5 s limit)', async () => {
    const p = await TestPlatform.start();
    let closed: Promise<void> | undefined;
    try {
      const form = new URLSearchParams(signedWith('in flight')).toString();
      const socket = connect(p.platform.port, '127.0.0.1');
      const chunks: Buffer[] = [];
      socket.on('data', (chunk: Buffer) => chunks.push(chunk));
      const ended = new Promise((resolve) => socket.on('close', resolve));
      await new Promise((resolve) => socket.on('connect', resolve));
      socket.write(
        `POST /rest HTTP/1.1\r\nHost: 127.0.0.1:${p.platform.port}\r\nContent-Type: application/x-www-form-urlencoded\r\n` +
          `Content-Length: ${Buffer.byteLength(form)}\r\n\r\n${form.slice(0, 20)}`,
      );
      await new Promise((resolve) => setTimeout(resolve, 200));
      const started = performance.now();
      closed = p.close();
      await new Promise((resolve) => setTimeout(resolve, 200));
      socket.end(form.slice(20));
      await closed;
      const took = performance.now() - started;
      await ended;
      const text = Buffer.concat(chunks).toString();
      assert.match(text, /^HTTP\/1\.1 200/, text);
      assert.match(text, /"code":0/, text);
      assert.ok(took < 3000, `closed ${took.toFixed(0)} ms after close() was called`);
    } finally {
      if (!closed) await p.close();
    }
  });
});
