/** Bodies over the limit, malformed input and a bounded fuzz run: the server keeps answering correctly. */
import * as assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import { connect } from 'node:net';
import { join } from 'node:path';
import type { PlatformClient } from '../../src/api/client';
import { Codes } from '../../src/api/errorCodes';
import { ACTIONS } from '../../src/api/operations';
import { eventually } from '../helpers/eventually';
import { assertFault, raw, rawSocket, send, signed, TestPlatform } from './harness';

/** A small deterministic generator, so a failing fuzz case can be replayed. */
function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

describe('local platform: robustness', () => {
  let p: TestPlatform;
  let client: PlatformClient;

  before(async () => {
    p = await TestPlatform.start({ maxBodyBytes: 64 * 1024, demo: true });
    client = p.client();
  });
  after(async () => {
    await p.close();
  });

  it('refuses a body over the limit with 10913 and creates nothing', async () => {
    const before = (await client.liveGetChannelsByPage()).count;
    const big = JSON.stringify({ name: 'x'.repeat(100 * 1024), signalType: '1', outputGroupList: [] });
    const answer = await raw(p, 'liveCreateChannel', {}, { body: big, contentType: 'application/json' });
    assertFault(answer, Codes.bodyTooLarge, 'larger than the limit of 65536 bytes');
    const form = await raw(p, 'liveChannelTypeCreate', { name: 'y'.repeat(80 * 1024) }, { placement: 'form' });
    assertFault(form, Codes.bodyTooLarge);
    assert.equal((await client.liveGetChannelsByPage()).count, before);
  });

  it('closes the connection after refusing a body far over the limit without reading it', async () => {
    const q = new URLSearchParams(signed('liveChannelTypeCreate', { name: 'huge' })).toString();
    const text = await rawSocket(
      p.platform.port,
      `POST /rest?${q} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${64 * 1024 * 1024}\r\n\r\n{"a":`,
    );
    assert.match(text, /^HTTP\/1\.1 200/);
    assert.match(text, /"code":10913/);
    assert.match(text, /Connection: close/i);
  });

  it('answers wrong JSON types with 10902 naming the field', async () => {
    const body = JSON.stringify({ name: 'x', signalType: '1', outputGroupList: { protocolType: 1 } });
    const answer = await raw(p, 'liveCreateChannel', {}, { body, contentType: 'application/json' });
    assertFault(answer, Codes.parameterInvalid, 'outputGroupList must be a JSON array');
    const bytes = await raw(
      p,
      'liveCreateChannel',
      {},
      { body: Buffer.from([0x7b, 0xff, 0xfe, 0x7d]), contentType: 'application/json' },
    );
    assertFault(bytes, Codes.bodyMalformed, 'UTF-8');
    const proto = await raw(
      p,
      'liveCreateChannel',
      {},
      { body: '{"__proto__":{"name":"x"},"constructor":{"prototype":{}}}', contentType: 'application/json' },
    );
    assertFault(proto, Codes.parameterMissing, 'name is required');
  });

  it('survives a few hundred malformed requests and still answers correctly', async function () {
    this.timeout(60_000);
    const random = prng(20260101);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
    const actions = [...Object.keys(ACTIONS), 'unknown', '', '../../etc/passwd'];
    const junk = [
      '',
      'null',
      '{',
      '[]',
      '{"a":1}',
      '"str"',
      '1e309',
      '%%%',
      'a=b&c',
      '\u0000\u0001',
      '{"name":{"$gt":""}}',
      '../'.repeat(20),
    ];
    const values = [
      '',
      '0',
      '-1',
      '1.5',
      'NaN',
      '99999999999999999999',
      'true',
      '[]',
      '{}',
      'null',
      'x'.repeat(3000),
      '../../x',
      '%00',
      '\u202e',
      '1,2,,3',
      ',',
    ];
    const fields = [
      'id',
      'ids',
      'name',
      'start',
      'number',
      'sort',
      'order',
      'searchType',
      'keyword',
      'videoIds',
      'replace',
      'transcodeTemplates',
      'logos',
      'type',
      'opacity',
      'channelId',
      'videoId',
      'advancedArguments',
      '__proto__',
      'constructor',
    ];
    const contentTypes = [
      undefined,
      'application/json',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=zz',
      'text/plain',
      'application/octet-stream',
    ];
    let answered = 0;
    for (let i = 0; i < 400; i++) {
      const params: Record<string, string> = {};
      for (let k = 0; k < 1 + Math.floor(random() * 4); k++) params[pick(fields)] = pick(values);
      const action = pick(actions);
      const mode = Math.floor(random() * 4);
      let answer;
      if (mode === 0) {
        // Signed, valid envelope parameters, nonsense operation parameters.
        answer = await raw(p, action, params, {
          method: random() < 0.5 ? 'GET' : 'POST',
          body: random() < 0.5 ? pick(junk) : undefined,
          contentType: pick(contentTypes),
        });
      } else if (mode === 1) {
        // Unsigned garbage.
        answer = await raw(p, action, params, { bare: true, body: pick(junk), contentType: pick(contentTypes) });
      } else if (mode === 2) {
        // Signed, then tampered.
        answer = await raw(p, action, params, { tamper: (q) => (q[pick(fields)] = pick(values)) });
      } else {
        answer = await send(
          p.platform.port,
          pick(['GET', 'POST', 'DELETE', 'OPTIONS']),
          pick(['/rest', '/rest?', '/rest?&&&=', '/%2e%2e/rest', '/rest?action=%ff', '//rest']),
          pick(junk),
          pick(contentTypes),
        );
      }
      assert.ok([200, 404, 405].includes(answer.status), `request ${i}: HTTP ${answer.status}`);
      assert.equal(typeof answer.json.code, 'number', `request ${i}: ${answer.text.slice(0, 200)}`);
      assert.notEqual(
        answer.json.code,
        Codes.exception,
        `request ${i} (${action} ${JSON.stringify(params).slice(0, 200)}) hit an unexpected failure`,
      );
      answered++;
    }
    assert.equal(answered, 400);
    // Still healthy: a correct call works, and no file appeared outside the account folders.
    const page = await client.liveGetChannelsByPage();
    assert.ok(page.count >= 4);
    const top = await readdir(p.dataDir);
    assert.deepEqual(top, ['accounts']);
    for (const folder of await readdir(join(p.dataDir, 'accounts'))) assert.match(folder, /^[0-9a-f]{32}$/);
  });

  it('answers structurally wrong JSON values in every JSON-carrying field without an internal failure', async function () {
    this.timeout(60_000);
    const random = prng(7);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
    const leaf = (): unknown =>
      pick([null, true, false, 0, -1, 1.5, 1e300, '', '0', '1', 'x', '90', [], {}, '2', 'rtmp://h/a']);
    const value = (depth: number): unknown => {
      if (depth <= 0 || random() < 0.4) return leaf();
      if (random() < 0.5) return Array.from({ length: Math.floor(random() * 3) }, () => value(depth - 1));
      const keys = [
        'name',
        'signalType',
        'pullStream',
        'protocolType',
        'outputGroupList',
        'outputTemplateList',
        'templateId',
        'isDefault',
        'id',
        'isTimeShift',
        'timeShiftDuration',
        'logoId',
        'templates',
        'logoGroupId',
        'hls',
        'videoWidth',
        'format',
        'defaultVideo',
        'uri',
        'start',
        'end',
      ];
      const o: Record<string, unknown> = {};
      for (let k = 0; k < 1 + Math.floor(random() * 5); k++) o[pick(keys)] = value(depth - 1);
      return o;
    };
    const templates = await client.liveGetTemplates();
    const videos = await client.queryVideo({ start: 1, number: 3, sort: 'title', order: 'asc' });
    for (let i = 0; i < 300; i++) {
      const kind = i % 5;
      let answer;
      if (kind === 0 || kind === 1) {
        // A channel definition that is right at the top and wrong somewhere inside.
        const body = {
          name: 'Fuzz',
          signalType: '1',
          outputGroupList: [{ protocolType: 1, outputTemplateList: [{ templateId: templates[0].id, isDefault: '1' }] }],
        } as Record<string, unknown>;
        const groups = body.outputGroupList as Array<Record<string, unknown>>;
        const target = pick([body, groups[0], (groups[0].outputTemplateList as Array<Record<string, unknown>>)[0]]);
        target[pick(Object.keys(target))] = value(3);
        answer = await raw(
          p,
          kind === 0 ? 'liveCreateChannel' : 'liveUpdate',
          {},
          { body: JSON.stringify(kind === 1 ? { ...body, id: 'x' } : body), contentType: 'application/json' },
        );
      } else if (kind === 2) {
        answer = await raw(
          p,
          'secondTranscodeV2',
          {
            videoIds: videos.map((v) => v.id).join(','),
            replace: pick(['true', '1', 'false']),
            transcodeTemplates: JSON.stringify(value(4)),
          },
          { placement: 'form' },
        );
      } else if (kind === 3) {
        answer = await raw(
          p,
          'templateGroup',
          {
            name: 'F',
            type: '0',
            trailor: 'false',
            trailorDuration: '0',
            logoGroupId: '0',
            transcodeTemplates: JSON.stringify(value(4)),
          },
          { method: 'POST' },
        );
      } else {
        answer = await raw(
          p,
          pick(['logoGroup', 'liveTemplateUpdate']),
          {
            id: templates[0].id,
            name: 'F',
            logos: JSON.stringify(value(3)),
            advancedArguments: JSON.stringify(value(3)),
          },
          { method: 'POST' },
        );
      }
      assert.equal(answer.status, 200);
      assert.notEqual(answer.json.code, Codes.exception, `case ${i}: ${answer.text.slice(0, 300)}`);
      if (answer.json.code !== 0)
        assert.match(answer.json.message, /^[a-z_]+: .+/, `case ${i}: a message that names the field and rule`);
    }
  });

  it('answers deeply nested JSON in every JSON-carrying place with a clear error, never an internal failure', async function () {
    this.timeout(30_000);
    // Its own platform with the default 1 MiB body limit, so the nesting is deep enough to matter.
    const big = await TestPlatform.start({ demo: true });
    const client = big.client();
    const p = big;
    try {
      const deep = (n: number): string => `${'{"a":['.repeat(n)}1${']}'.repeat(n)}`;
      const nested = deep(20_000);
      const item = {
        name: 'a',
        videoWidth: 640,
        videoHeight: 360,
        videoBitrate: 500,
        audioBitrate: 64000,
        format: 0,
        encryptType: 0,
        defaultVideo: 1,
      };
      const videos = await client.queryVideo({ start: 1, number: 1, sort: 'title', order: 'asc' });
      const groupsBefore = (await client.templateGroupList()).length;
      const answers = [
        await raw(p, 'liveCreateChannel', {}, { body: nested, contentType: 'application/json' }),
        await raw(
          p,
          'liveCreateChannel',
          {},
          { body: '['.repeat(200_000) + ']'.repeat(200_000), contentType: 'application/json' },
        ),
        await raw(
          p,
          'templateGroup',
          {
            name: 'Deep',
            type: '0',
            trailor: 'false',
            trailorDuration: '0',
            logoGroupId: '0',
            transcodeTemplates: JSON.stringify([{ ...item, advancedArguments: nested }]),
          },
          { placement: 'form' },
        ),
        await raw(
          p,
          'templateGroup',
          {
            name: 'Deep',
            type: '0',
            trailor: 'false',
            trailorDuration: '0',
            logoGroupId: '0',
            transcodeTemplates: JSON.stringify([{ ...item, advancedArguments: JSON.parse(deep(50)) as unknown }]),
          },
          { placement: 'form' },
        ),
        await raw(
          p,
          'templateGroup',
          {
            name: 'Deep',
            type: '0',
            trailor: 'false',
            trailorDuration: '0',
            logoGroupId: '0',
            transcodeTemplates: nested,
          },
          { placement: 'form' },
        ),
        await raw(
          p,
          'secondTranscodeV2',
          { videoIds: videos[0].id, replace: 'true', transcodeTemplates: nested },
          { placement: 'form' },
        ),
        await raw(p, 'logoGroup', { name: 'Deep', logos: nested }, { placement: 'form' }),
        await raw(
          p,
          'liveTemplateUpdate',
          { id: (await client.liveGetTemplates())[0].id, advancedArguments: `{"gopSize":${nested}}` },
          { placement: 'form' },
        ),
      ];
      for (const [i, answer] of answers.entries()) {
        assert.equal(answer.status, 200);
        // secondTranscodeV2 (case 5) answers 0 at the top and the refusal per video (rest-interface 4.3).
        const code = i === 5 ? (answer.json.result as Array<{ code: number }>)[0].code : answer.json.code;
        assert.notEqual(code, 0, `case ${i}`);
        assert.notEqual(code, Codes.exception, `case ${i}: ${answer.text.slice(0, 300)}`);
      }
      assert.match(answers[2].json.message, /advancedArguments values must be numbers, text, booleans or null/);
      assert.equal((await client.templateGroupList()).length, groupsBefore);
    } finally {
      await big.close();
    }
  });

  it('answers a broken HTTP request line with 400, an unreadable address with 404, and keeps serving', async () => {
    const text = await rawSocket(p.platform.port, 'GARBAGE\r\n\r\n');
    assert.match(text, /^HTTP\/1\.1 400/);
    const odd = await rawSocket(
      p.platform.port,
      'GET http://%zz/rest?action=x HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n',
    );
    assert.match(odd, /^HTTP\/1\.1 (400|404)/);
    assert.doesNotMatch(odd, /"code":10000/);
    assert.equal((await raw(p, 'liveChannelTypeList')).json.code, 0);
  });

  it('refuses an empty id after a comma in every comma-separated id list, naming the field', async () => {
    for (const [action, field, method] of [
      ['liveDelete', 'ids', 'POST'],
      ['liveGetChannelsPlayUrl', 'channelId', 'GET'],
      ['getTranscodedVideos', 'ids', 'GET'],
      ['deleteVideo', 'videoIds', 'POST'],
      ['secondTranscodeV2', 'videoIds', 'POST'],
    ] as const) {
      const answer = await raw(p, action, { [field]: 'abc,', replace: 'true' }, { method });
      assertFault(answer, Codes.parameterInvalid, `${field} must list ids separated by commas, with no empty id`);
    }
    const inMiddle = await raw(p, 'liveDelete', { ids: 'x,,y' }, { method: 'POST' });
    assertFault(inMiddle, Codes.parameterInvalid, 'ids', 'entry 2 is empty');
  });

  it('notes a client that disconnects mid-body in one plain line, not as an internal error', async () => {
    const logged: string[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => logged.push(args.map(String).join(' '));
    try {
      const q = new URLSearchParams(signed('liveChannelTypeCreate', { name: 'cut' })).toString();
      await new Promise<void>((resolve) => {
        const socket = connect(p.platform.port, '127.0.0.1', () => {
          socket.write(
            `POST /rest?${q} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"a":`,
          );
          setTimeout(() => socket.destroy(), 50);
        });
        socket.on('close', () => resolve());
      });
      const note = await eventually(
        'the note about the closed connection',
        async () => logged.find((line) => line.includes('closed the connection')),
        5000,
      );
      assert.match(
        note,
        /^local platform: note: the client closed the connection before sending the whole request body/,
      );
      assert.ok(!note.includes('\n'), note);
      assert.ok(!logged.some((line) => /exception|\n\s+at /.test(line)), logged.join('\n'));
    } finally {
      console.error = original;
    }
    assert.equal((await raw(p, 'liveChannelTypeList')).json.code, 0);
  });
});
