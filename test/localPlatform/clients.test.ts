/**
 * Requests as independent clients of the real service send them, beyond what the project's own
 * client produces: base addresses with a trailing slash, `null` bodies under a form content type,
 * JSON bodies labelled as forms, and the interface's codes on both lists.
 */
import * as assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import type { PlatformClient } from '../../src/api/client';
import { Codes } from '../../src/api/errorCodes';
import { ACCOUNT, assertFault, raw, rawSocket, signed, TestPlatform } from './harness';

describe('local platform: independent clients', () => {
  let p: TestPlatform;
  let client: PlatformClient;
  let templateId: string;

  before(async () => {
    p = await TestPlatform.start();
    client = p.client();
    templateId = (
      await client.liveTemplateCreate({ displayName: 'HD', videoWidth: 1280, videoHeight: 720, videoBitrate: 2000 })
    ).id;
  });
  after(async () => {
    await p.close();
  });

  it('serves `//rest` (a base address given with a trailing slash) like `/rest`', async () => {
    const q = new URLSearchParams(signed('liveChannelTypeList', {})).toString();
    for (const target of [`//rest?${q}`, `///rest/?${q}`, `http://127.0.0.1:${p.platform.port}//rest?${q}`]) {
      const text = await rawSocket(
        p.platform.port,
        `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`,
      );
      assert.match(text, /^HTTP\/1\.1 200/, target);
      assert.match(text, /"code":0/, `${target}: ${text}`);
    }
    const other = await rawSocket(
      p.platform.port,
      `GET //other?${q} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`,
    );
    assert.match(other, /^HTTP\/1\.1 404/);
    assert.match(other, /only \/rest, \/multipart\/upload and the media files it lists are served \(got \/other\)/);
  });

  it('reads a `null` or blank body under any content type as no body, with signed empty values', async () => {
    for (const contentType of [
      'application/x-www-form-urlencoded',
      'application/x-www-form-urlencoded; charset=UTF-8',
      'multipart/form-data; boundary=zz',
      'text/plain',
      'application/json',
      '',
    ]) {
      for (const body of [
        'null',
        ' null\r\n',
        '  ',
        `${' '.repeat(40)}\r\n${' '.repeat(40)}`,
        `\n\n${' '.repeat(30)}null${' '.repeat(30)}`,
      ]) {
        // Empty optional values are signed and sent, as independent clients do.
        const answer = await raw(
          p,
          'liveChannelTypeList',
          { name: '', id: '' },
          { method: 'POST', body, contentType: contentType || undefined },
        );
        assert.equal(answer.json.code, 0, `${contentType} ${JSON.stringify(body)}: ${answer.text}`);
      }
    }
  });

  it('reads a liveCreateChannel JSON body labelled as a form, and a form labelled as JSON', async () => {
    const definition = {
      name: 'Labelled as a form',
      signalType: 1,
      outputGroupList: [{ protocolType: 2, outputTemplateList: [{ templateId, isDefault: '1' }] }],
    };
    const created = await raw(
      p,
      'liveCreateChannel',
      {},
      { body: JSON.stringify(definition), contentType: 'application/x-www-form-urlencoded' },
    );
    assert.equal(created.json.code, 0, created.text);
    assert.equal((created.json.result as { name: string }).name, 'Labelled as a form');

    const all = signed('liveChannelTypeCreate', { name: 'Form labelled as JSON' });
    const form = await raw(
      p,
      '',
      {},
      { bare: true, method: 'POST', body: new URLSearchParams(all).toString(), contentType: 'application/json' },
    );
    assert.equal(form.json.code, 0, form.text);
    assert.equal((form.json.result as { name: string }).name, 'Form labelled as JSON');

    // Text that is neither stays refused, and a broken JSON body under a JSON type stays 10914.
    assertFault(
      await raw(p, 'liveCreateChannel', {}, { body: '{"name": ', contentType: 'application/json' }),
      Codes.bodyMalformed,
      'not valid JSON',
    );
    const formJunk = await raw(
      p,
      'liveCreateChannel',
      {},
      { body: '{"name": ', contentType: 'application/x-www-form-urlencoded' },
    );
    // Read as a form, the text is a parameter that was not signed.
    assertFault(formJunk, Codes.signatureIncorrect, 'every parameter sent is signed');
  });

  it('reads a channel definition sent as form fields, and a liveUpdate id sent as a parameter', async () => {
    const groups = JSON.stringify([{ protocolType: 1, outputTemplateList: [{ templateId, isDefault: 1 }] }]);
    const created = await raw(
      p,
      'liveCreateChannel',
      { name: 'From a form', signalType: '1', outputGroupList: groups },
      { placement: 'form' },
    );
    assert.equal(created.json.code, 0, created.text);
    const ch = created.json.result as { id: string; name: string; outputGroupList: Array<{ id: string }> };
    assert.equal(ch.name, 'From a form');

    const update = {
      name: 'Renamed',
      signalType: '1',
      outputGroupList: [
        { id: ch.outputGroupList[0].id, protocolType: 1, outputTemplateList: [{ templateId, isDefault: '1' }] },
      ],
    };
    const updated = await raw(
      p,
      'liveUpdate',
      { id: ch.id },
      { body: JSON.stringify(update), contentType: 'application/json' },
    );
    assert.equal(updated.json.code, 0, updated.text);
    const after = updated.json.result as { id: string; name: string; outputGroupList: Array<{ id: string }> };
    assert.deepEqual([after.id, after.name, after.outputGroupList[0].id], [ch.id, 'Renamed', ch.outputGroupList[0].id]);

    const other = '0123456789abcdef0123456789abcdef';
    const clash = await raw(
      p,
      'liveUpdate',
      { id: other },
      { body: JSON.stringify({ ...update, id: ch.id }), contentType: 'application/json' },
    );
    assertFault(clash, Codes.parameterInvalid, `id is ${other} as a parameter but ${ch.id} in the JSON body`);
    assert.equal((await client.liveGetChannelById(ch.id)).name, 'Renamed');
  });

  it('reads multipart text parts in their own charset, and names given without quotes', async () => {
    const all = signed('liveChannelTypeCreate', { name: 'Café Zürich' });
    const b = 'Apache-like-boundary';
    const parts = Object.entries(all).map(([name, value]) => {
      if (name === 'name') {
        // ISO-8859-1 text part, as Apache HttpClient's addTextBody sends by default.
        return Buffer.concat([
          Buffer.from(
            `--${b}\r\nContent-Disposition: form-data; name="name"\r\nContent-Type: text/plain; charset=ISO-8859-1\r\nContent-Transfer-Encoding: 8bit\r\n\r\n`,
            'latin1',
          ),
          Buffer.from(value, 'latin1'),
          Buffer.from('\r\n', 'latin1'),
        ]);
      }
      const quoted = name === 'accessKey' ? `name=${name}` : `name="${name}"`;
      return Buffer.from(`--${b}\r\nContent-Disposition: form-data; ${quoted}\r\n\r\n${value}\r\n`, 'utf8');
    });
    const body = Buffer.concat([...parts, Buffer.from(`--${b}--\r\n`, 'utf8')]);
    const answer = await raw(
      p,
      '',
      {},
      { bare: true, method: 'POST', body, contentType: `multipart/form-data; boundary=${b}` },
    );
    assert.equal(answer.json.code, 0, answer.text);
    assert.equal((answer.json.result as { name: string }).name, 'Café Zürich');
  });

  it('reads an integer group id of 0 as "not given" (what clients with integer fields send for none)', async () => {
    // 0 means "not given" (the default group), not a range error: the call is read and answered per video.
    const transcode = await raw(
      p,
      'secondTranscodeV2',
      { videoIds: 'a'.repeat(32), replace: 'true', transcodeTemplateGroupId: '0' },
      { placement: 'form' },
    );
    assert.equal(transcode.json.code, 0, transcode.text);
    assert.equal((transcode.json.result as Array<{ code: number }>)[0].code, Codes.videoNotExists);
    const logos = JSON.stringify([
      { uri: 'l/a.png', width: 10, height: 10, leftPos: 1, topPos: 1, opacity: 100, resize: 100, start: 0, end: 100 },
    ]);
    const logoGroup = await raw(p, 'logoGroup', { id: '0', name: 'Zero id', logos }, { placement: 'form' });
    assert.equal(logoGroup.json.code, 0, logoGroup.text);
    assert.equal(logoGroup.json.result, '');
    assert.ok((await client.getLogoGroupList()).some((g) => g.name === 'Zero id' && g.id >= 1));
    const items = JSON.stringify([
      {
        name: 'a',
        videoWidth: 640,
        videoHeight: 360,
        videoBitrate: 500,
        audioBitrate: 64000,
        format: 0,
        encryptType: 0,
        defaultVideo: 1,
      },
    ]);
    const group = await raw(
      p,
      'templateGroup',
      {
        id: '0',
        name: 'Zero id',
        type: '0',
        trailor: 'false',
        trailorDuration: '0',
        logoGroupId: '0',
        transcodeTemplates: items,
      },
      { placement: 'form' },
    );
    assert.equal(group.json.code, 0, group.text);
    assert.ok(Number.isInteger(group.json.result) && (group.json.result as number) > 3, group.text);
    assertFault(
      await raw(p, 'templateGroup', { id: '-1', name: 'x' }, { placement: 'form' }),
      Codes.parameterInvalid,
      'id must be between 0 and',
    );
  });

  it('takes a long query (1000 ids on a GET) and refuses an oversized one with the envelope', async () => {
    const ids = Array.from({ length: 1000 }, (_, i) => i.toString(16).padStart(32, '0'));
    const answer = await raw(p, 'getTranscodedVideos', { ids: ids.join(',') });
    assert.equal(answer.json.code, 0, answer.text.slice(0, 300));
    assert.equal((answer.json.result as unknown[]).length, 1000);
    assert.deepEqual((answer.json.result as unknown[])[999], {
      id: ids[999],
      videoType: null,
      cdns: null,
      comments: null,
    });

    const q = new URLSearchParams(signed('getTranscodedVideos', { ids: 'f'.repeat(300 * 1024) })).toString();
    const text = await rawSocket(p.platform.port, `GET /rest?${q} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
    assert.match(text, /^HTTP\/1\.1 200/);
    assert.match(
      text,
      /"code":10913,"message":"request_body_too_large: the request line and headers are larger than the limit of 262144 bytes"/,
    );
    assert.equal((await raw(p, 'liveChannelTypeList')).json.code, 0);
  });

  it('answers a query with raw spaces or UTF-8 bytes (not HTTP) with 400 and an envelope saying why', async () => {
    const q = Object.entries(signed('liveChannelTypeList', { name: '直播' }))
      .map(([k, v]) => `${k}=${v}`)
      .join('&');
    const text = await rawSocket(
      p.platform.port,
      Buffer.from(`GET /rest?${q} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`, 'utf8'),
    );
    assert.match(text, /^HTTP\/1\.1 400/);
    const body = JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)) as {
      code: number;
      message: string;
      success: boolean;
    };
    assert.equal(body.code, Codes.parameterInvalid);
    assert.equal(body.success, false);
    assert.match(body.message, /the HTTP request cannot be read .*percent-encode spaces and non-ASCII characters/);
    assert.equal(
      (await raw(p, 'liveChannelTypeList', { name: '直播' })).json.code,
      0,
      'encoded, the same request is served',
    );
  });

  it('checks signatures made by an independent signer: case-folded order, shorter first, raw UTF-8, empty values', async () => {
    // Java's String.CASE_INSENSITIVE_ORDER, written out here apart from the project's signer.
    const javaOrder = (a: string, b: string): number => {
      for (let i = 0; i < Math.min(a.length, b.length); i++) {
        const x = a[i].toUpperCase().toLowerCase();
        const y = b[i].toUpperCase().toLowerCase();
        if (x !== y) return x.charCodeAt(0) - y.charCodeAt(0);
      }
      return a.length - b.length;
    };
    const params: Record<string, string> = {
      accessKey: ACCOUNT.accessKey,
      action: 'liveChannelTypeList',
      version: '2.0',
      timestamp: String(Date.now()),
      name: '',
      Zeta: 'é ü 直播',
      _x: 'a+b&c=d',
      a_b: '',
      AA: '1',
      aaa: '%41',
    };
    const names = Object.keys(params).sort(javaOrder);
    assert.deepEqual(
      names.slice(0, 4),
      ['_x', 'a_b', 'AA', 'aaa'],
      'underscore sorts before letters once case is folded',
    );
    const text = ACCOUNT.secretKey + names.map((n) => `${n}=${params[n]}`).join('');
    const signature = createHmac('sha256', ACCOUNT.secretKey).update(text, 'utf8').digest('hex');
    const answer = await raw(p, '', { ...params, signature }, { bare: true });
    assert.equal(answer.json.code, 0, answer.text);
    const form = await raw(p, '', { ...params, signature: signature.toUpperCase() }, { bare: true, placement: 'form' });
    assert.equal(form.json.code, 0, form.text);
    const wrong = await raw(p, '', { ...params, Zeta: 'changed', signature }, { bare: true });
    assertFault(wrong, Codes.signatureIncorrect);
  });

  it('answers a wrong channel list sort with 10013 and a wrong search type with 10018, changing nothing', async () => {
    const before = (await client.liveGetChannelsByPage({ number: 1 })).count;
    assertFault(
      await raw(p, 'liveGetChannelsByPage', { sort: 'size' }),
      Codes.sortTypeIncorrect,
      'sort must be one of name, type, status, streamStatus, createTime',
    );
    assertFault(
      await raw(p, 'liveGetChannelsByPage', { searchType: 'tag', keyword: 'x' }),
      Codes.searchTypeIncorrect,
      'searchType must be one of name, type, all',
    );
    assertFault(
      await raw(p, 'queryVideo', { start: '1', number: '5', sort: 'name', order: 'asc' }),
      Codes.sortTypeIncorrect,
    );
    assertFault(
      await raw(p, 'queryVideo', {
        start: '1',
        number: '5',
        sort: 'title',
        order: 'asc',
        searchType: 'name',
        keyword: 'x',
      }),
      Codes.searchTypeIncorrect,
    );
    assert.equal((await client.liveGetChannelsByPage({ number: 1 })).count, before);
  });
});
