/** Common parameters, signature, envelope and where parameters travel (facts sections 1 and 2). */
import * as assert from 'node:assert/strict';
import { Codes } from '../../../src/api/errorCodes';
import { signParams } from '../../../src/api/signing';
import { ReplayGuard } from '../../../src/localPlatform/http/auth';
import { ACCOUNT, assertFault, multipartBody, raw, rawSocket, signed, TestPlatform } from '../harness';

describe('local platform: authentication and carriage', () => {
  let p: TestPlatform;

  before(async () => {
    p = await TestPlatform.start({ timestampWindowMs: 60_000 });
  });
  after(async () => {
    await p.close();
  });

  async function categoryNames(): Promise<string[]> {
    const answer = await raw(p, 'liveChannelTypeList');
    return (answer.json.result as Array<{ name: string }>).map((c) => c.name);
  }

  it('answers a correctly signed call with the envelope {code, message, result, success}', async () => {
    const answer = await raw(p, 'liveChannelTypeList');
    assert.equal(answer.status, 200);
    assert.match(String(answer.headers['content-type']), /^application\/json/);
    assert.deepEqual(Object.keys(answer.json), ['code', 'message', 'result', 'success']);
    assert.equal(answer.json.code, 0);
    assert.equal(answer.json.success, true);
    assert.deepEqual(answer.json.result, []);
  });

  it('refuses a wrong signature with 10903 and changes nothing', async () => {
    const answer = await raw(
      p,
      'liveChannelTypeCreate',
      { name: 'Tampered' },
      { method: 'POST', tamper: (q) => (q.name = 'Other') },
    );
    assertFault(answer, Codes.signatureIncorrect, 'signature');
    assert.ok(!(await categoryNames()).includes('Other'));
    assert.ok(!(await categoryNames()).includes('Tampered'));
  });

  it('refuses a signature made with another secret', async () => {
    const answer = await raw(
      p,
      'liveChannelTypeList',
      {},
      { tamper: (q) => (q.signature = signParams({ ...q, signature: '' }, 'wrong-secret')) },
    );
    assertFault(answer, Codes.signatureIncorrect);
  });

  it('accepts the signature in upper-case hex', async () => {
    const answer = await raw(
      p,
      'liveChannelTypeList',
      {},
      { tamper: (q) => (q.signature = q.signature.toUpperCase()) },
    );
    assert.equal(answer.json.code, 0, answer.text);
  });

  for (const name of ['accessKey', 'version', 'timestamp', 'signature', 'action']) {
    it(`refuses a request without ${name} with 10901 naming it`, async () => {
      const answer = await raw(p, 'liveChannelTypeList', {}, { tamper: (q) => delete q[name] });
      assertFault(answer, Codes.parameterMissing, `${name} is required`);
    });
  }

  it('refuses an unknown access key with 10906', async () => {
    const answer = await raw(p, 'liveChannelTypeList', {}, { account: { accessKey: 'nobody', secretKey: 'x' } });
    assertFault(answer, Codes.accessKeyNotExists, 'accessKey');
  });

  it('refuses a version other than 2.0 with 10905', async () => {
    const answer = await raw(p, 'liveChannelTypeList', { version: '1.0' });
    assertFault(answer, Codes.versionNotSupported, 'version must be 2.0');
  });

  it('refuses a timestamp outside the window with 10904, and a non-numeric one with 10902', async () => {
    const old = await raw(p, 'liveChannelTypeList', { timestamp: String(Date.now() - 5 * 60_000) });
    assertFault(old, Codes.timestampExpired, 'timestamp must be within 60 s');
    const future = await raw(p, 'liveChannelTypeList', { timestamp: String(Date.now() + 5 * 60_000) });
    assertFault(future, Codes.timestampExpired);
    const text = await raw(p, 'liveChannelTypeList', { timestamp: 'yesterday' });
    assertFault(text, Codes.parameterInvalid, 'timestamp');
  });

  it('answers an unknown action with 10201 api_not_exists', async () => {
    const answer = await raw(p, 'liveMakeCoffee');
    assertFault(answer, Codes.apiNotExists, 'api_not_exists', 'liveMakeCoffee');
  });

  it('serves only /rest (404 envelope elsewhere) and only GET and POST (405)', async () => {
    const other = await raw(p, 'liveChannelTypeList', {}, { path: '/api' });
    assert.equal(other.status, 404);
    assert.equal(other.json.code, Codes.apiNotExists);
    const put = await raw(p, 'liveChannelTypeList', {}, { method: 'PUT' });
    assert.equal(put.status, 405);
    assert.equal(put.headers.allow, 'GET, POST');
  });

  it('reads every parameter from an urlencoded form body with no query string', async () => {
    const answer = await raw(p, 'liveChannelTypeCreate', { name: 'Form body' }, { placement: 'form' });
    assert.equal(answer.json.code, 0, answer.text);
    assert.equal((answer.json.result as { name: string }).name, 'Form body');
  });

  it('reads every parameter from a multipart form body', async () => {
    const answer = await raw(p, 'liveChannelTypeCreate', { name: 'Multipart body é' }, { placement: 'multipart' });
    assert.equal(answer.json.code, 0, answer.text);
    assert.equal((answer.json.result as { name: string }).name, 'Multipart body é');
  });

  it('merges query and form parameters before checking the signature', async () => {
    const answer = await raw(p, 'liveChannelTypeCreate', {}, { formExtra: { name: 'Merged' } });
    assert.equal(answer.json.code, 0, answer.text);
    assert.equal((answer.json.result as { name: string }).name, 'Merged');
  });

  it('accepts a literal null body and an empty body on POST', async () => {
    const nul = await raw(
      p,
      'liveChannelTypeCreate',
      { name: 'Null body' },
      { body: 'null', contentType: 'application/json' },
    );
    assert.equal(nul.json.code, 0, nul.text);
    const empty = await raw(p, 'liveChannelTypeCreate', { name: 'Empty body' }, { body: '' });
    assert.equal(empty.json.code, 0, empty.text);
  });

  it('routes an absolute-form request line (as sent through a proxy) by its path', async () => {
    const q = new URLSearchParams(signed('liveChannelTypeList', {})).toString();
    const text = await rawSocket(
      p.platform.port,
      `GET http://localhost:${p.platform.port}/rest?${q} HTTP/1.1\r\nHost: localhost:${p.platform.port}\r\nConnection: close\r\n\r\n`,
    );
    assert.match(text, /^HTTP\/1\.1 200/);
    assert.match(text, /"code":0/);
  });

  it('signs empty values too, and refuses an empty parameter added to a signed request unsigned', async () => {
    const withEmpty = await raw(p, 'liveChannelTypeList', { name: '' });
    assert.equal(withEmpty.json.code, 0, withEmpty.text);
    const base: Record<string, string> = {
      accessKey: ACCOUNT.accessKey,
      action: 'liveChannelTypeList',
      version: '2.0',
      timestamp: String(Date.now()),
    };
    const signature = signParams(base, ACCOUNT.secretKey);
    const sentWithEmpty = await raw(p, '', { ...base, name: '', signature }, { bare: true });
    assertFault(sentWithEmpty, Codes.signatureIncorrect, 'empty ones too');
  });

  it('refuses a signature that is not 64 hexadecimal characters, even one whose low bytes match', async () => {
    const answer = await raw(
      p,
      'liveChannelTypeList',
      {},
      {
        // Each hex digit moved to a character with the same low byte (U+0100 + code): not hex.
        tamper: (q) =>
          (q.signature = [...q.signature].map((c) => String.fromCharCode(0x100 + c.charCodeAt(0))).join('')),
      },
    );
    assertFault(answer, Codes.signatureIncorrect, 'signature must be 64 hexadecimal characters');
    const short = await raw(p, 'liveChannelTypeList', {}, { tamper: (q) => (q.signature = q.signature.slice(0, 63)) });
    assertFault(short, Codes.signatureIncorrect, '64 hexadecimal');
    const zz = await raw(p, 'liveChannelTypeList', {}, { tamper: (q) => (q.signature = 'zz'.repeat(32)) });
    assertFault(zz, Codes.signatureIncorrect, '64 hexadecimal');
  });

  it('answers an unsigned request alike for a known and an unknown access key', async () => {
    const stranger = { accessKey: 'nobody', secretKey: 'x' };
    for (const tamper of [
      (q: Record<string, string>) => delete q.signature,
      (q: Record<string, string>) => (q.signature = 'not-a-signature'),
    ]) {
      const known = await raw(p, 'liveChannelTypeList', {}, { tamper });
      const unknown = await raw(p, 'liveChannelTypeList', {}, { tamper, account: stranger });
      assert.notEqual(known.json.code, 0);
      assert.deepEqual(unknown.json, known.json);
    }
  });

  describe('replay guard', () => {
    it('is off by default: the same signed request is served twice', async () => {
      const params = signed('liveChannelTypeList', {});
      const first = await raw(p, '', params, { bare: true });
      const again = await raw(p, '', params, { bare: true });
      assert.equal(first.json.code, 0);
      assert.equal(again.json.code, 0);
    });

    it('refuses a signed request seen before within the window, with its own code, and changes nothing', async () => {
      const guarded = await TestPlatform.start({ replayGuard: true, timestampWindowMs: 60_000 });
      try {
        const params = signed('liveChannelTypeCreate', { name: 'Once' });
        const first = await raw(guarded, '', params, { bare: true, method: 'POST' });
        assert.equal(first.json.code, 0, first.text);
        const replayed = await raw(guarded, '', params, { bare: true, method: 'POST' });
        assertFault(replayed, Codes.requestReplayed, 'already received');
        const list = await raw(guarded, 'liveChannelTypeList');
        assert.deepEqual(
          (list.json.result as Array<{ name: string }>).map((c) => c.name),
          ['Once'],
        );
        // A request signed anew (another timestamp) is served.
        const fresh = await raw(guarded, 'liveChannelTypeList', { timestamp: String(Date.now() + 1) });
        assert.equal(fresh.json.code, 0);
      } finally {
        await guarded.close();
      }
    });

    it('forgets signatures once their timestamp has left the window (memory bounded)', () => {
      const guard = new ReplayGuard(1000);
      const t0 = 1_000_000;
      for (let i = 0; i < 100; i++) guard.check(`sig-${i}`, t0, t0);
      assert.equal(guard.size, 100);
      assert.throws(() => guard.check('sig-1', t0, t0 + 500), /already received/);
      guard.check('later', t0 + 5000, t0 + 5000);
      assert.equal(guard.size, 1, 'expired entries were dropped');
      guard.check('sig-1', t0 + 5000, t0 + 5000);
    });
  });

  it('refuses a parameter given twice with different values', async () => {
    const answer = await raw(
      p,
      'liveChannelTypeCreate',
      { name: 'A' },
      { body: 'name=B', contentType: 'application/x-www-form-urlencoded' },
    );
    assertFault(answer, Codes.parameterInvalid, 'name is given more than once');
  });

  it('does not sign the JSON body of liveCreateChannel (changing it keeps the signature valid)', async () => {
    // A body the platform refuses for its content shows the signature was accepted.
    const answer = await raw(p, 'liveCreateChannel', {}, { body: '{"name":"x"}', contentType: 'application/json' });
    assertFault(answer, Codes.parameterMissing, 'signalType is required');
  });

  it('refuses malformed JSON with 10914 and a multipart body without its boundary', async () => {
    const bad = await raw(p, 'liveCreateChannel', {}, { body: '{"name": ', contentType: 'application/json' });
    assertFault(bad, Codes.bodyMalformed, 'not valid JSON');
    const mp = await raw(
      p,
      'liveChannelTypeCreate',
      {},
      { body: multipartBody({ name: 'x' }, 'b1'), contentType: 'multipart/form-data' },
    );
    assertFault(mp, Codes.bodyMalformed, 'multipart');
  });

  it('reports each answered request to onRequest with action and code only', async () => {
    const entries: Array<{ action: string; code: number; durationMs: number }> = [];
    const logged = await TestPlatform.start({ onRequest: (e) => entries.push(e) });
    try {
      await raw(logged, 'liveChannelTypeList');
      await raw(logged, 'liveChannelTypeList', {}, { tamper: (q) => (q.signature = '0'.repeat(64)) });
      await raw(logged, 'evil\nline');
      assert.deepEqual(
        entries.map((e) => [e.action, e.code]),
        [
          ['liveChannelTypeList', 0],
          ['liveChannelTypeList', Codes.signatureIncorrect],
          ['evil?line', Codes.apiNotExists],
        ],
      );
      assert.ok(entries.every((e) => e.durationMs >= 0));
      assert.ok(!JSON.stringify(entries).includes(ACCOUNT.secretKey));
    } finally {
      await logged.close();
    }
  });
});
