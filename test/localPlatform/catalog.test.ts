/** Live templates, live logos, channel categories, logo groups and template groups. */
import * as assert from 'node:assert/strict';
import type { PlatformClient } from '../../src/api/client';
import { Codes } from '../../src/api/errorCodes';
import type { LogoItem, TemplateGroupInput, TemplateGroupItem } from '../../src/api/types';
import { apiError, raw, TestPlatform } from './harness';
import {
  assertFields,
  CATEGORY_FIELDS,
  HEX32,
  LIVE_LOGO_FIELDS,
  LIVE_TEMPLATE_FIELDS,
  TEMPLATE_GROUP_SUMMARY_FIELDS,
} from './specFields';

describe('local platform: templates, logos, categories and groups', () => {
  let p: TestPlatform;
  let client: PlatformClient;

  before(async () => {
    p = await TestPlatform.start();
    client = p.client();
  });
  after(async () => {
    await p.close();
  });

  describe('live templates', () => {
    it('creates a template whose name is <displayName>/<videoBitrate>kbps/<width>x<height>', async () => {
      const t = await client.liveTemplateCreate({
        displayName: 'Full HD',
        videoWidth: 1920,
        videoHeight: 1080,
        videoBitrate: 4500,
        frameRate: 30,
      });
      assertFields(t, LIVE_TEMPLATE_FIELDS, 'live template');
      assert.match(t.id, HEX32);
      assert.equal(t.name, 'Full HD/4500kbps/1920x1080');
      assert.equal(t.type, '1', 'type defaults to 1 and is text in the record');
      assert.equal(t.transcodeType, 0);
      assert.equal(t.frameRate, 30);
      assert.equal(typeof t.audioBitrate, 'number');
      assert.deepEqual(JSON.parse(t.advancedArguments ?? ''), t.advancedArgumentsObj);
      assert.deepEqual(Object.keys(t.advancedArgumentsObj ?? {}), [
        'rc',
        'refFrame',
        'gopSize',
        'bframe',
        'interlace',
        'gopType',
        'smartBorder',
      ]);
    });

    it('updates only the given fields, keeps the name composed, and stores advanced arguments', async () => {
      const t = await client.liveTemplateCreate({
        displayName: 'Mobile',
        videoWidth: 640,
        videoHeight: 360,
        videoBitrate: 500,
      });
      const u = await client.liveTemplateUpdate({
        id: t.id,
        videoBitrate: 700,
        advancedArguments: { gopSize: 60, bFrame: 2, interlace: -1, smartBorder: 1, rc: 'cbr' },
      });
      assert.equal(u.name, 'Mobile/700kbps/640x360');
      assert.equal(u.videoWidth, 640);
      assert.deepEqual(u.advancedArgumentsObj, {
        rc: 'cbr',
        refFrame: null,
        gopSize: 60,
        bframe: 2,
        interlace: -1,
        gopType: null,
        smartBorder: 1,
      });
      assert.equal(u.advancedArguments, JSON.stringify(u.advancedArgumentsObj));
      const listed = (await client.liveGetTemplates({ name: 'mobile' })).find((x) => x.id === t.id);
      assert.deepEqual(listed, u);
    });

    it('refuses bad template input naming the field', async () => {
      await apiError(
        client.liveTemplateCreate({ videoWidth: 640, videoHeight: 360, videoBitrate: 500 }),
        Codes.parameterMissing,
        'displayName is required',
      );
      await apiError(
        client.liveTemplateCreate({ displayName: 'x', videoWidth: 640, videoHeight: 360, videoBitrate: 0 }),
        Codes.parameterInvalid,
        'videoBitrate must be between 1 and',
      );
      await apiError(
        client.liveTemplateCreate({
          displayName: 'x',
          videoWidth: 640,
          videoHeight: 360,
          videoBitrate: 9,
          transcodeType: 1,
        }),
        Codes.parameterInvalid,
        'transcodeType must be one of 0, 2, 3, 4',
      );
      const t = await client.liveTemplateCreate({
        displayName: 'Keep',
        videoWidth: 640,
        videoHeight: 360,
        videoBitrate: 500,
      });
      await apiError(
        client.liveTemplateUpdate({ id: t.id, advancedArguments: { interlace: 1 as never } }),
        Codes.parameterInvalid,
        'advancedArguments.interlace must be one of -1, 0, 3',
      );
      await apiError(
        client.liveTemplateUpdate({ id: t.id, advancedArguments: { gopType: 5 as never } }),
        Codes.parameterInvalid,
        'advancedArguments.gopType must be one of 0, 1',
      );
      const text = await raw(p, 'liveTemplateUpdate', { id: t.id, advancedArguments: '{oops' }, { method: 'POST' });
      assert.equal(text.json.code, Codes.parameterInvalid);
      assert.match(text.json.message, /advancedArguments must be valid JSON/);
      await apiError(
        client.liveTemplateUpdate({ id: 'f'.repeat(32), videoBitrate: 1 }),
        Codes.liveTemplateNotExists,
        'id ffff',
      );
      assert.equal((await client.liveGetTemplates({ name: 'Keep' }))[0].videoBitrate, 500, 'nothing changed');
    });

    it('filters templates by type and transcodeType', async () => {
      await client.liveTemplateCreate({
        displayName: 'Adv',
        type: 2,
        transcodeType: 3,
        videoWidth: 1280,
        videoHeight: 720,
        videoBitrate: 1500,
      });
      const adv = await client.liveGetTemplates({ transcodeType: 3 });
      assert.deepEqual(
        adv.map((t) => t.displayName),
        ['Adv'],
      );
      assert.ok((await client.liveGetTemplates({ type: 2 })).every((t) => t.type === '2'));
    });
  });

  describe('live logos', () => {
    it('creates a logo with defaults opacity 100 and resize 100', async () => {
      const logo = await client.liveLogoCreate({
        name: 'Corner',
        uri: 'logos/corner.png',
        width: 120,
        height: 40,
        offsetWidth: 8,
        offsetHeight: 8,
      });
      assertFields(logo, LIVE_LOGO_FIELDS, 'live logo');
      assert.equal(logo.opacity, 100);
      assert.equal(logo.resize, 100);
      assert.equal(logo.httpUrl, `${p.platform.baseUrl}/logo/logos/corner.png`);
      assert.deepEqual(await client.liveLogoList({ id: logo.id }), [logo]);
      assert.deepEqual(
        (await client.liveLogoList({ name: 'corn' })).map((l) => l.id),
        [logo.id],
      );
    });

    it('refuses opacity outside 0-100, resize outside 1-100, a missing field and an absolute uri', async () => {
      const base = { name: 'L', uri: 'a.png', width: 10, height: 10, offsetWidth: 0, offsetHeight: 0 };
      await apiError(
        client.liveLogoCreate({ ...base, opacity: 101 }),
        Codes.parameterInvalid,
        'opacity must be between 0 and 100',
      );
      await apiError(
        client.liveLogoCreate({ ...base, resize: 0 }),
        Codes.parameterInvalid,
        'resize must be between 1 and 100',
      );
      await apiError(
        client.liveLogoCreate({ ...base, width: undefined as never }),
        Codes.parameterMissing,
        'width is required',
      );
      await apiError(
        client.liveLogoCreate({ ...base, uri: 'https://cdn.example/a.png' }),
        Codes.parameterInvalid,
        'uri must be a relative path',
      );
      await apiError(
        client.liveLogoCreate({ ...base, uri: '../../etc/passwd' }),
        Codes.parameterInvalid,
        'uri must not contain',
      );
      assert.equal((await client.liveLogoList({ name: 'L' })).filter((l) => l.name === 'L').length, 0);
    });
  });

  describe('channel categories', () => {
    it('creates and lists categories; a duplicate name is refused with 10915', async () => {
      const c = await client.liveChannelTypeCreate('Music');
      assertFields(c, CATEGORY_FIELDS, 'category');
      assert.match(c.id, HEX32);
      await apiError(client.liveChannelTypeCreate('music'), Codes.channelCategoryExists, 'name music');
      assert.deepEqual(await client.liveChannelTypeList({ id: c.id }), [c]);
      assert.deepEqual(
        (await client.liveChannelTypeList({ name: 'MUS' })).map((x) => x.name),
        ['Music'],
      );
      const blank = await raw(p, 'liveChannelTypeCreate', { name: '  ' }, { method: 'POST' });
      assert.equal(blank.json.code, Codes.parameterMissing);
      assert.match(blank.json.message, /name is required/);
    });
  });

  describe('logo groups', () => {
    const logo: LogoItem = {
      uri: 'logos/a.png',
      width: 100,
      height: 50,
      leftPos: 90,
      topPos: 5,
      opacity: 80,
      resize: 100,
      start: 0,
      end: 100,
    };

    it('creates (integer id, result "") and modifies a logo group', async () => {
      const answer = await raw(p, 'logoGroup', { name: 'Brand', logos: JSON.stringify([logo]) }, { method: 'POST' });
      assert.equal(answer.json.code, 0, answer.text);
      assert.equal(answer.json.result, '');
      const [group] = await client.getLogoGroupList();
      assert.ok(Number.isInteger(group.id));
      assert.equal(group.name, 'Brand');
      assert.deepEqual(group.logos, [logo]);
      await client.logoGroup({ id: group.id, name: 'Brand 2', logos: [logo, { ...logo, start: 50, end: 60 }] });
      const [changed] = await client.getLogoGroupList();
      assert.equal(changed.id, group.id);
      assert.equal(changed.name, 'Brand 2');
      assert.equal(changed.logos.length, 2);
    });

    it('refuses bad logo items naming the field, and unknown groups with 10912', async () => {
      await apiError(
        client.logoGroup({ name: 'x', logos: [{ ...logo, leftPos: 120 }] }),
        Codes.parameterInvalid,
        'logos[0].leftPos must be between 0 and 100',
      );
      await apiError(
        client.logoGroup({ name: 'x', logos: [{ ...logo, end: undefined as never }] }),
        Codes.parameterMissing,
        'logos[0].end is required',
      );
      await apiError(
        client.logoGroup({ name: 'x', logos: [] }),
        Codes.parameterInvalid,
        'logos must hold at least one logo',
      );
      await apiError(client.logoGroup({ id: 999, name: 'x', logos: [logo] }), Codes.logoGroupNotExists, 'id 999');
      const text = await raw(p, 'logoGroup', { name: 'x', logos: 'not json' }, { method: 'POST' });
      assert.match(text.json.message, /logos must be valid JSON/);
    });
  });

  describe('template groups', () => {
    const items: TemplateGroupItem[] = [
      {
        name: '720p',
        videoWidth: 1280,
        videoHeight: 720,
        videoBitrate: 2500,
        audioBitrate: 128000,
        format: 0,
        encryptType: 0,
        defaultVideo: 1,
      },
      {
        name: '720p',
        videoWidth: 1280,
        videoHeight: 720,
        videoBitrate: 2500,
        audioBitrate: 128000,
        format: 1,
        encryptType: 0,
        defaultVideo: 0,
      },
    ];
    const group = (extra: Partial<TemplateGroupInput> = {}): TemplateGroupInput => ({
      name: 'Web',
      type: 0,
      trailor: false,
      trailorDuration: 0,
      logoGroupId: 0,
      transcodeTemplates: items,
      ...extra,
    });

    it('lists the built-in groups and creates groups with integer ids; the first regular one is the default', async () => {
      const before = await client.templateGroupList();
      for (const g of before) assertFields(g, TEMPLATE_GROUP_SUMMARY_FIELDS, 'template group');
      assert.ok(before.length >= 1 && before.every((g) => g.defaultGroup === false));
      const vrId = await client.templateGroup(group({ name: 'VR first', type: 1 }));
      const id = await client.templateGroup(group());
      assert.ok(Number.isInteger(id));
      const id2 = await client.templateGroup(group({ name: 'Second' }));
      const list = await client.templateGroupList();
      assert.equal(list.find((g) => g.id === id)?.defaultGroup, true);
      // JSON types as the real platform answers them: a boolean, and the owning account's user id.
      assert.ok(list.every((g) => typeof g.defaultGroup === 'boolean'));
      const { userId } = await client.liveChannelTypeCreate(`Owner check ${id}`);
      // userId as text, as in the platform's published example of templateGroupList.
      assert.equal(list.find((g) => g.id === id)?.userId, String(userId));
      assert.equal(list.find((g) => g.id === 1)?.userId, '0', 'a built-in group belongs to no account');
      assert.equal(list.find((g) => g.id === id2)?.defaultGroup, false);
      // The items as templateGroup took them (advancedArguments as JSON text or null).
      assert.deepEqual(
        list.find((g) => g.id === id2)?.transcodeTemplates?.map(({ advancedArguments: _a, ...item }) => item),
        group({ name: 'Second' }).transcodeTemplates.map(({ advancedArguments: _a, ...item }) => item),
      );
      assert.equal(list.find((g) => g.id === vrId)?.defaultGroup, false);
      assert.deepEqual(
        (await client.templateGroupList({ type: 1 })).map((g) => g.type),
        (await client.templateGroupList({ type: 1 })).map(() => 1),
      );
    });

    it('modifies a group, refuses built-in ones (10082) and a type change of the default (10095)', async () => {
      const list = await client.templateGroupList();
      const builtIn = list.find((g) => g.id < 1000)!;
      const def = list.find((g) => g.defaultGroup)!;
      await apiError(
        client.templateGroup(group({ id: builtIn.id })),
        Codes.cannotModifyTemplateGroup,
        `id ${builtIn.id} is a built-in`,
      );
      await apiError(
        client.templateGroup(group({ id: def.id, type: 1 })),
        Codes.cannotModifyDefaultGroupType,
        'type of the default template group',
      );
      assert.equal(
        await client.templateGroup(group({ id: def.id, name: 'Web renamed', trailor: true, trailorDuration: 15 })),
        def.id,
      );
      const after = (await client.templateGroupList()).find((g) => g.id === def.id)!;
      assert.deepEqual([after.name, after.trailor, after.trailorDuration, after.type], ['Web renamed', true, 15, 0]);
      await apiError(client.templateGroup(group({ id: 987654 })), Codes.templateGroupNotExist, 'id 987654');
    });

    it('needs exactly one defaultVideo 1 and valid items (10061, naming the field)', async () => {
      const count = (await client.templateGroupList()).length;
      await apiError(
        client.templateGroup(group({ transcodeTemplates: items.map((i) => ({ ...i, defaultVideo: 1 })) })),
        Codes.transcodeTemplateNotCorrect,
        'exactly one template with defaultVideo 1 (found 2)',
      );
      await apiError(
        client.templateGroup(group({ transcodeTemplates: items.map((i) => ({ ...i, defaultVideo: 0 })) })),
        Codes.transcodeTemplateNotCorrect,
        'found 0',
      );
      await apiError(
        client.templateGroup(group({ transcodeTemplates: [{ ...items[0], format: 7 as never }] })),
        Codes.transcodeTemplateNotCorrect,
        'transcodeTemplates[0].format must be one of 0, 1, 2, 3',
      );
      await apiError(
        client.templateGroup(group({ transcodeTemplates: [items[0], { ...items[1], encryptType: 6 }] })),
        Codes.transcodeTemplateNotCorrect,
        'transcodeTemplates[1].encryptType 6 (AES) applies to HLS',
      );
      await apiError(
        client.templateGroup(group({ transcodeTemplates: [{ ...items[0], name: undefined as never }] })),
        Codes.transcodeTemplateNotCorrect,
        'transcodeTemplates[0].name is required',
      );
      await apiError(client.templateGroup(group({ logoGroupId: 4242 })), Codes.logoGroupNotExists, 'logoGroupId 4242');
      await apiError(
        client.templateGroup(group({ type: 2 as never })),
        Codes.parameterInvalid,
        'type must be one of 0, 1',
      );
      const noName = await raw(
        p,
        'templateGroup',
        {
          type: '0',
          trailor: 'false',
          trailorDuration: '0',
          logoGroupId: '0',
          transcodeTemplates: JSON.stringify(items),
        },
        { method: 'POST' },
      );
      assert.equal(noName.json.code, Codes.parameterMissing);
      assert.match(noName.json.message, /name is required/);
      assert.equal((await client.templateGroupList()).length, count, 'nothing was created');
    });
  });
});
