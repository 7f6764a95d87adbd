import * as assert from 'node:assert/strict';
import type { PlatformClient } from '../../src/api/client';
import { InvalidInputError } from '../../src/api/errors';
import { signParams } from '../../src/api/signing';
import { ACTIONS, type ActionName } from '../../src/api/operations';
import { CaptureServer, ok, sendJson, signatureOf, type Captured } from './captureServer';
import { ACCESS_KEY, SECRET_KEY, makeClient, rejection } from './fixtures';

const COMMON = ['accessKey', 'action', 'signature', 'timestamp', 'version'];

/** Checks the common parameters and recomputes the signature from the captured query. */
function assertSigned(request: Captured, action: string): void {
  assert.equal(request.path, '/rest');
  assert.equal(request.query.accessKey, ACCESS_KEY);
  assert.equal(request.query.action, action);
  assert.equal(request.query.version, '2.0');
  assert.match(request.query.timestamp ?? '', /^\d{13}$/);
  assert.ok(Math.abs(Number(request.query.timestamp) - Date.now()) < 60_000, 'timestamp is the current time in ms');
  const { expected, actual } = signatureOf(request, SECRET_KEY);
  assert.match(actual ?? '', /^[0-9a-f]{64}$/);
  assert.equal(actual, expected, 'signature matches an independent computation over the query');
  assert.equal(new Set(request.queryNames).size, request.queryNames.length, 'no parameter is sent twice');
}

describe('PlatformClient requests', () => {
  let server: CaptureServer;
  let client: PlatformClient;

  beforeEach(async () => {
    server = await CaptureServer.start();
    client = makeClient(server.baseUrl);
  });
  afterEach(async () => {
    await client.close();
    await server.close();
  });

  it('GET: every parameter in the query, signed, empty body', async () => {
    server.respond = (_r, res) => sendJson(res, ok([]));
    const videos = await client.queryVideo({
      start: 2,
      number: 20,
      sort: 'uploadTime',
      order: 'desc',
      keyword: undefined,
      status: 2,
    });
    assert.deepEqual(videos, []);
    const request = server.last;
    assert.equal(request.method, 'GET');
    assertSigned(request, 'queryVideo');
    assert.deepEqual(
      Object.keys(request.query).sort(),
      [...COMMON, 'number', 'order', 'sort', 'start', 'status'].sort(),
      'undefined parameters are left out',
    );
    assert.equal(request.query.start, '2');
    assert.equal(request.query.number, '20');
    assert.equal(request.query.status, '2');
    assert.equal(request.body, '');
    assert.equal(request.headers['content-type'], undefined);
  });

  it('POST: signed parameters in the query and an empty body', async () => {
    server.respond = (_r, res) => sendJson(res, ok({ id: 'c1', status: 2 }));
    const channel = await client.liveStartChannel('0123456789abcdef0123456789abcdef');
    assert.equal(channel.status, 2);
    const request = server.last;
    assert.equal(request.method, 'POST');
    assertSigned(request, 'liveStartChannel');
    assert.equal(request.query.id, '0123456789abcdef0123456789abcdef');
    assert.equal(request.body, '');
    assert.ok(request.headers['content-length'] === undefined || request.headers['content-length'] === '0');
  });

  it('liveCreateChannel: only the common parameters in the query, the definition as an unsigned JSON body', async () => {
    server.respond = (_r, res) => sendJson(res, ok({ id: 'new', name: 'Main', status: 0, streamStatus: 2 }));
    const definition = {
      name: 'Main 频道',
      signalType: '1' as const,
      outputGroupList: [
        {
          protocolType: 1 as const,
          isRecord: '1' as const,
          outputTemplateList: [{ templateId: 't1', isDefault: '1' as const }],
        },
      ],
    };
    const channel = await client.liveCreateChannel(definition);
    assert.equal(channel.id, 'new');
    const request = server.last;
    assert.equal(request.method, 'POST');
    assertSigned(request, 'liveCreateChannel');
    assert.deepEqual(Object.keys(request.query).sort(), COMMON);
    assert.match(String(request.headers['content-type']), /^application\/json/);
    assert.deepEqual(JSON.parse(request.body), definition);
  });

  it('liveUpdate: the id travels in the JSON body, not in the query', async () => {
    server.respond = (_r, res) => sendJson(res, ok({ id: 'c1' }));
    await client.liveUpdate({ id: 'c1', name: 'Renamed', signalType: 1, outputGroupList: [] });
    const request = server.last;
    assertSigned(request, 'liveUpdate');
    assert.deepEqual(Object.keys(request.query).sort(), COMMON);
    assert.deepEqual(JSON.parse(request.body), { id: 'c1', name: 'Renamed', signalType: 1, outputGroupList: [] });
  });

  it('secondTranscodeV2: JSON text, booleans as true/false, comma-joined ids; per-video codes returned, not thrown', async () => {
    const perVideo = [
      { id: 'v1', code: 0, message: 'success' },
      { id: 'v2', code: 10012, message: 'video_not_exists' },
    ];
    server.respond = (_r, res) => sendJson(res, ok(perVideo));
    const templates = {
      logoGroupId: 7,
      templates: [
        {
          name: '720p',
          videoWidth: 1280,
          videoHeight: 720,
          videoBitrate: 1500,
          audioBitrate: 64000,
          hls: true,
          mp4: false,
          flv: false,
        },
      ],
    };
    const results = await client.secondTranscodeV2({
      videoIds: ['v1', 'v2'],
      transcodeTemplates: templates,
      trailor: false,
      replace: true,
    });
    assert.deepEqual(results, perVideo);
    const request = server.last;
    assert.equal(request.method, 'POST');
    assertSigned(request, 'secondTranscodeV2');
    assert.equal(request.query.videoIds, 'v1,v2');
    assert.equal(request.query.replace, 'true');
    assert.equal(request.query.trailor, 'false');
    assert.equal(typeof request.query.transcodeTemplates, 'string');
    assert.deepEqual(JSON.parse(request.query.transcodeTemplates!), templates);
    assert.ok(!('transcodeTemplateGroupId' in request.query));
    assert.equal(request.body, '');
  });

  it('templateGroup: items travel as JSON text, each advancedArguments as JSON text inside it; returns the group id', async () => {
    server.respond = (_r, res) => sendJson(res, ok(42));
    const id = await client.templateGroup({
      name: 'Web',
      type: 0,
      trailor: false,
      trailorDuration: 0,
      logoGroupId: 3,
      transcodeTemplates: [
        {
          name: 'sd',
          videoWidth: 640,
          videoHeight: 360,
          videoBitrate: 800,
          audioBitrate: 64000,
          format: 0,
          encryptType: 0,
          defaultVideo: 1,
          advancedArguments: { gopSize: 50, rc: 'vbr' },
        },
      ],
    });
    assert.equal(id, 42);
    const request = server.last;
    assertSigned(request, 'templateGroup');
    const items = JSON.parse(request.query.transcodeTemplates!) as Array<{ advancedArguments: unknown }>;
    assert.equal(typeof items[0]!.advancedArguments, 'string');
    assert.deepEqual(JSON.parse(items[0]!.advancedArguments as string), { gopSize: 50, rc: 'vbr' });
    assert.equal(request.query.trailor, 'false');
    assert.equal(request.query.logoGroupId, '3');
    assert.ok(!('id' in request.query), 'no id: create');
  });

  it('templateGroup: items that are not objects travel as they are, for the platform to judge (no TypeError)', async () => {
    server.respond = (_r, res) =>
      sendJson(res, { code: 10061, message: 'transcode_template_is_not_correct', success: false, result: null });
    const odd = [null, 'sd'] as never;
    const error = await rejection(
      client.templateGroup({
        name: 'g',
        type: 0,
        trailor: false,
        trailorDuration: 0,
        logoGroupId: 0,
        transcodeTemplates: odd,
      }),
    );
    assert.equal((error as { code?: number }).code, 10061, String(error));
    assert.equal(server.last.query.transcodeTemplates, '[null,"sd"]');
  });

  it('liveTemplateUpdate and logoGroup: advancedArguments and logos as JSON text; logoGroup accepts result ""', async () => {
    server.respond = (r, res) =>
      sendJson(res, ok(r.query.action === 'logoGroup' ? '' : { id: 't1', displayName: 'HD' }));
    const template = await client.liveTemplateUpdate({
      id: 't1',
      displayName: 'HD',
      videoBitrate: 2000,
      advancedArguments: { bframe: 2 },
    });
    assert.equal(template.displayName, 'HD');
    assertSigned(server.last, 'liveTemplateUpdate');
    assert.deepEqual(JSON.parse(server.last.query.advancedArguments!), { bframe: 2 });
    assert.equal(server.last.query.videoBitrate, '2000');

    const logos = [
      {
        uri: 'logo/a.png',
        width: 100,
        height: 50,
        leftPos: 90,
        topPos: 5,
        opacity: 80,
        resize: 100,
        start: 0,
        end: 100,
      },
    ];
    assert.equal(await client.logoGroup({ id: 9, name: 'Brand', logos }), undefined);
    assertSigned(server.last, 'logoGroup');
    assert.deepEqual(JSON.parse(server.last.query.logos!), logos);
    assert.equal(server.last.query.id, '9');
  });

  it('deleteTemplateGroup and deleteLogoGroup POST their comma-joined ids, signed, and give nothing back', async () => {
    // Request shape only: the local platform serves these two actions in another change.
    server.respond = (_r, res) => sendJson(res, ok(null));
    assert.equal(await client.deleteTemplateGroup({ ids: ['11', '12'] }), undefined);
    assert.equal(server.last.method, 'POST');
    assertSigned(server.last, 'deleteTemplateGroup');
    assert.deepEqual(Object.keys(server.last.query).sort(), [...COMMON, 'ids'].sort());
    assert.equal(server.last.query.ids, '11,12');
    assert.equal(server.last.body, '');

    assert.equal(await client.deleteLogoGroup({ ids: ['7'] }), undefined);
    assert.equal(server.last.method, 'POST');
    assertSigned(server.last, 'deleteLogoGroup');
    assert.equal(server.last.query.ids, '7');

    for (const call of [
      () => client.deleteTemplateGroup({ ids: [] }),
      () => client.deleteLogoGroup({ ids: ['a,b'] }),
      () => client.deleteLogoGroup(undefined as never),
    ]) {
      const error = await rejection(call());
      assert.ok(error instanceof InvalidInputError, String(error));
      assert.match(error.field, /^(ids|ids\[0\]|input)$/);
    }
    assert.equal(server.requests.length, 2, 'nothing sent for bad input');
  });

  it('signs raw UTF-8 text and sends it percent-encoded (spaces as %20)', async () => {
    server.respond = (_r, res) => sendJson(res, ok({ id: 'k', name: 'x' }));
    const name = '直播 分类&a=b+c 🎥';
    await client.liveChannelTypeCreate(name);
    const request = server.last;
    assert.equal(request.query.name, name);
    assert.ok(!request.rawQuery.includes('+'), 'no "+" for spaces: servers differ on decoding it');
    const { signature, ...signed } = request.query;
    assert.equal(signature, signParams(signed, SECRET_KEY));
  });

  it('sends every printable ASCII character of a value as encodeURIComponent writes it', async () => {
    server.respond = (_r, res) => sendJson(res, ok({ id: 'k', name: 'x' }));
    const name = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)).join('');
    await client.liveChannelTypeCreate(name);
    const request = server.last;
    assert.equal(request.query.name, name);
    assert.ok(request.rawQuery.includes(`name=${encodeURIComponent(name)}&`), request.rawQuery);
    const { signature, ...signed } = request.query;
    assert.equal(signature, signParams(signed, SECRET_KEY));
  });

  it('accepts a base URL with a trailing /rest or a path prefix', async () => {
    const withRest = makeClient(`${server.baseUrl}/rest/`);
    const prefixed = makeClient(`${server.baseUrl}/platform/rest`);
    try {
      assert.equal(withRest.baseUrl, server.baseUrl);
      assert.equal(prefixed.baseUrl, `${server.baseUrl}/platform`);
      server.respond = (_r, res) => sendJson(res, ok([]));
      await withRest.getLogoGroupList();
      assert.equal(server.last.path, '/rest');
      await prefixed.getLogoGroupList();
      assert.equal(server.last.path, '/platform/rest');
    } finally {
      await withRest.close();
      await prefixed.close();
    }
  });

  it('liveGetChannelsByPage returns the page and the total count beside result', async () => {
    server.respond = (_r, res) => sendJson(res, ok([{ id: 'a' }, { id: 'b' }], { count: 17 }));
    const page = await client.liveGetChannelsByPage({ start: 1, number: 2, sort: 'createTime', order: 'desc' });
    assert.deepEqual(page, { channels: [{ id: 'a' }, { id: 'b' }], count: 17 });
    assert.equal(server.last.query.start, '1');
    assert.equal(server.last.query.number, '2');
  });

  it('every operation uses its method and carriage from the ACTIONS table', async () => {
    server.respond = (r, res) => {
      const action = r.query.action as ActionName;
      const listy = [
        'liveGetChannelsPlayUrl',
        'liveChannelTypeList',
        'liveGetTemplates',
        'liveLogoList',
        'getLogoGroupList',
        'templateGroupList',
        'secondTranscodeV2',
        'queryVideo',
        'getTranscodedVideos',
      ];
      const result =
        action === 'templateGroup'
          ? 5
          : action === 'logoGroup'
            ? ''
            : listy.includes(action) || action === 'liveGetChannelsByPage'
              ? []
              : ['liveDelete', 'deleteVideo', 'deleteTemplateGroup', 'deleteLogoGroup'].includes(action)
                ? null
                : { id: 'x' };
      sendJson(res, ok(result, action === 'liveGetChannelsByPage' ? { count: 0 } : {}));
    };
    const def = { name: 'n', signalType: '1' as const, outputGroupList: [] };
    const calls: Record<ActionName, () => Promise<unknown>> = {
      liveCreateChannel: () => client.liveCreateChannel(def),
      liveUpdate: () => client.liveUpdate({ ...def, id: 'c' }),
      liveGetChannelsByPage: () => client.liveGetChannelsByPage(),
      liveGetChannelById: () => client.liveGetChannelById('c'),
      liveStartChannel: () => client.liveStartChannel('c'),
      liveStopChannel: () => client.liveStopChannel('c'),
      liveDelete: () => client.liveDelete(['c', 'd']),
      deleteTemplateGroup: () => client.deleteTemplateGroup({ ids: ['11', '12'] }),
      deleteLogoGroup: () => client.deleteLogoGroup({ ids: ['11', '12'] }),
      liveGetChannelsPlayUrl: () => client.liveGetChannelsPlayUrl(['c', 'd']),
      liveChannelTypeList: () => client.liveChannelTypeList({ name: 'news' }),
      liveChannelTypeCreate: () => client.liveChannelTypeCreate('news'),
      liveTemplateUpdate: () => client.liveTemplateUpdate({ id: 't', frameRate: 25 }),
      liveTemplateCreate: () => client.liveTemplateCreate({ displayName: 'HD', videoWidth: 1280 }),
      liveGetTemplates: () => client.liveGetTemplates({ transcodeType: 0 }),
      liveLogoCreate: () =>
        client.liveLogoCreate({ name: 'l', uri: 'a.png', width: 1, height: 1, offsetWidth: 0, offsetHeight: 0 }),
      liveLogoList: () => client.liveLogoList({ name: 'l' }),
      logoGroup: () => client.logoGroup({ name: 'g', logos: [] }),
      getLogoGroupList: () => client.getLogoGroupList(),
      templateGroup: () =>
        client.templateGroup({
          name: 'g',
          type: 0,
          trailor: true,
          trailorDuration: 10,
          logoGroupId: 1,
          transcodeTemplates: [],
        }),
      templateGroupList: () => client.templateGroupList({ type: 1 }),
      secondTranscodeV2: () =>
        client.secondTranscodeV2({ videoIds: ['v'], transcodeTemplateGroupId: 3, replace: false }),
      queryVideo: () => client.queryVideo({ start: 1, number: 10, sort: 'title', order: 'asc' }),
      getTranscodedVideos: () => client.getTranscodedVideos(['v', 'w']),
      getVideoInfo: () => client.getVideoInfo('v'),
      deleteVideo: () => client.deleteVideo(['v']),
      getToken: () => client.getToken(),
    };
    assert.deepEqual(Object.keys(calls).sort(), Object.keys(ACTIONS).sort(), 'one method per action');
    for (const [action, call] of Object.entries(calls) as Array<[ActionName, () => Promise<unknown>]>) {
      await call();
      const request = server.last;
      const carriage: { method: string; jsonBody?: boolean } = ACTIONS[action];
      assert.equal(request.method, carriage.method, action);
      assertSigned(request, action);
      if (carriage.jsonBody) {
        assert.deepEqual(Object.keys(request.query).sort(), COMMON, `${action}: only common parameters in the query`);
        assert.ok(request.body.startsWith('{'), `${action}: JSON body`);
      } else {
        assert.equal(request.body, '', `${action}: empty body`);
      }
    }
    assert.equal(server.requests.length, Object.keys(ACTIONS).length);
    const byAction = new Map(server.requests.map((r) => [r.query.action, r.query]));
    assert.equal(byAction.get('liveGetChannelsPlayUrl')?.channelId, 'c,d');
    assert.equal(byAction.get('getTranscodedVideos')?.ids, 'v,w');
    assert.equal(byAction.get('liveDelete')?.ids, 'c,d');
    assert.equal(byAction.get('deleteVideo')?.videoIds, 'v');
    assert.equal(byAction.get('getVideoInfo')?.videoId, 'v');
    assert.equal(byAction.get('secondTranscodeV2')?.replace, 'false');
    assert.equal(byAction.get('templateGroup')?.trailor, 'true');
  });

  describe('bad input', () => {
    const cases: Array<[string, (c: PlatformClient) => Promise<unknown>, string]> = [
      ['an empty channel id', (c) => c.liveGetChannelById(''), 'id'],
      ['an empty id list', (c) => c.liveDelete([]), 'ids'],
      ['an id holding a comma', (c) => c.getTranscodedVideos(['a', 'b,c']), 'ids[1]'],
      ['a page number of 0', (c) => c.queryVideo({ start: 0, number: 10, sort: 'title', order: 'asc' }), 'start'],
      ['a fractional page size', (c) => c.liveGetChannelsByPage({ number: 1.5 }), 'number'],
      ['a missing replace flag', (c) => c.secondTranscodeV2({ videoIds: ['v'] } as never), 'replace'],
      [
        'a non-finite number',
        (c) => c.liveLogoCreate({ name: 'l', uri: 'u', width: Number.NaN, height: 1, offsetWidth: 0, offsetHeight: 0 }),
        'width',
      ],
      [
        'JSON text that does not parse',
        (c) => c.liveTemplateUpdate({ id: 't', advancedArguments: '{oops' as never }),
        'advancedArguments',
      ],
      ['an update without id', (c) => c.liveUpdate({ name: 'n', signalType: '1', outputGroupList: [] } as never), 'id'],
      ['list filters that are not an object', (c) => c.liveLogoList('corner' as never), 'query'],
      ['an unpaired surrogate (half an emoji) in a text value', (c) => c.liveChannelTypeCreate('news \ud83c'), 'name'],
      [
        'an unpaired surrogate in JSON text given as a string',
        (c) => c.liveTemplateUpdate({ id: 't', advancedArguments: '{"rc":"\udfa5"}' as never }),
        'advancedArguments',
      ],
    ];
    for (const [what, call, field] of cases) {
      it(`refuses ${what}, naming ${field}, and sends nothing`, async () => {
        const error = await rejection(call(client));
        assert.ok(error instanceof InvalidInputError, String(error));
        assert.equal(error.field, field);
        assert.ok(error.message.includes(field) && error.message.includes(error.rule), error.message);
        assert.equal(server.requests.length, 0);
      });
    }

    it('takes null list filters as no filters (JavaScript callers), with no TypeError', async () => {
      server.respond = (r, res) =>
        sendJson(res, ok([], r.query.action === 'liveGetChannelsByPage' ? { count: 0 } : {}));
      await client.liveGetChannelsByPage(null as never);
      await client.liveChannelTypeList(null as never);
      await client.liveGetTemplates(null as never);
      await client.liveLogoList(null as never);
      await client.templateGroupList(null as never);
      assert.equal(server.requests.length, 5);
      for (const request of server.requests)
        assert.deepEqual(Object.keys(request.query).sort(), COMMON, request.query.action);
    });

    it('refuses bad options at construction, naming the option, never echoing the keys', () => {
      const base = { baseUrl: server.baseUrl, accessKey: ACCESS_KEY, secretKey: SECRET_KEY };
      const bad: Array<[Record<string, unknown>, RegExp]> = [
        [{ baseUrl: 'ftp://127.0.0.1' }, /baseUrl must start with http/],
        [{ baseUrl: 'not a url' }, /baseUrl must be a valid absolute URL/],
        [{ baseUrl: `http://user:${SECRET_KEY}@127.0.0.1` }, /baseUrl must not contain a user name or password/],
        [{ baseUrl: `${server.baseUrl}/rest?x=1` }, /baseUrl must not contain a query string/],
        [{ accessKey: '' }, /accessKey must be a non-empty string/],
        [{ secretKey: '   ' }, /secretKey must be a non-empty string/],
        [{ timeouts: { headersMs: -1 } }, /timeouts.headersMs must be a positive number/],
        [{ retry: { attempts: 0 } }, /retry.attempts must be a whole number from 1 to 10/],
        [{ proxy: 'socks://x' }, /proxy must start with http/],
      ];
      for (const [override, message] of bad) {
        assert.throws(
          () => makeClient(server.baseUrl, { ...base, ...override }),
          (error: unknown) =>
            error instanceof TypeError && message.test(error.message) && !error.message.includes(SECRET_KEY),
          JSON.stringify(Object.keys(override)),
        );
      }
    });
  });
});
