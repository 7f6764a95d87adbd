/** deleteTemplateGroup and deleteLogoGroup (issue 12): POST, `ids` comma-separated, all or nothing, result null. */
import * as assert from 'node:assert/strict';
import type { PlatformClient } from '../../src/api/client';
import type { TemplateGroupItem } from '../../src/api/types';
import { Codes } from '../../src/api/errorCodes';
import { assertFault, raw, TestPlatform } from './harness';

const ITEM: TemplateGroupItem = {
  name: 'a',
  videoWidth: 640,
  videoHeight: 360,
  videoBitrate: 500,
  audioBitrate: 64000,
  format: 0,
  encryptType: 0,
  defaultVideo: 1,
};
const LOGO = {
  uri: 'l/a.png',
  width: 10,
  height: 10,
  leftPos: 1,
  topPos: 1,
  opacity: 100,
  resize: 100,
  start: 0,
  end: 100,
};

describe('local platform: deleting template groups and logo groups', () => {
  let p: TestPlatform;
  let client: PlatformClient;

  beforeEach(async () => {
    p = await TestPlatform.start();
    client = p.client();
  });
  afterEach(async () => {
    await p.close();
  });

  const templateGroup = (name: string, type: 0 | 1 = 0, logoGroupId = 0): Promise<number> =>
    client.templateGroup({ name, type, trailor: false, trailorDuration: 0, logoGroupId, transcodeTemplates: [ITEM] });
  const logoGroup = async (name: string): Promise<number> => {
    await client.logoGroup({ name, logos: [LOGO] });
    return (await client.getLogoGroupList()).find((g) => g.name === name)!.id;
  };
  const groupIds = async (): Promise<number[]> => (await client.templateGroupList()).map((g) => g.id);
  const del = (action: 'deleteTemplateGroup' | 'deleteLogoGroup', ids: string) =>
    raw(p, action, { ids }, { method: 'POST' });

  it('deletes template groups listed in ids, answering null', async () => {
    const a = await templateGroup('A');
    const b = await templateGroup('B');
    const c = await templateGroup('C');
    const answer = await del('deleteTemplateGroup', `${a}, ${c}`);
    assert.equal(answer.json.code, 0, answer.text);
    assert.equal(answer.json.result, null);
    const left = await groupIds();
    assert.ok(left.includes(b) && !left.includes(a) && !left.includes(c), left.join());
  });

  it('deletes all or nothing: an unknown or built-in id refuses the whole call', async () => {
    const a = await templateGroup('A');
    assertFault(await del('deleteTemplateGroup', `${a},987654`), Codes.templateGroupNotExist, 'ids: 987654');
    assertFault(
      await del('deleteTemplateGroup', `${a},1`),
      Codes.cannotModifyTemplateGroup,
      'built-in',
      'cannot be deleted',
    );
    assertFault(await del('deleteTemplateGroup', `${a},x`), Codes.parameterInvalid, 'ids must list group ids');
    assertFault(await del('deleteTemplateGroup', `${a},`), Codes.parameterInvalid, 'no empty id');
    assertFault(await raw(p, 'deleteTemplateGroup', {}, { method: 'POST' }), Codes.parameterMissing, 'ids is required');
    assert.ok((await groupIds()).includes(a), 'nothing was deleted');
  });

  it('makes the lowest remaining regular group the default when the default group is deleted', async () => {
    const first = await templateGroup('First');
    await templateGroup('VR', 1);
    const second = await templateGroup('Second');
    const third = await templateGroup('Third');
    const defaultOf = async (): Promise<number | undefined> =>
      (await client.templateGroupList()).find((g) => g.defaultGroup)?.id;
    assert.equal(await defaultOf(), first);
    assert.equal((await del('deleteTemplateGroup', String(first))).json.code, 0);
    assert.equal(await defaultOf(), second);
    assert.equal((await del('deleteTemplateGroup', `${second},${third}`)).json.code, 0);
    assert.equal(await defaultOf(), undefined, 'no regular group left: no default');
    const next = await templateGroup('Next');
    assert.equal(await defaultOf(), next);
  });

  it('deletes logo groups all or nothing, and keeps one a template group uses', async () => {
    const a = await logoGroup('LA');
    const b = await logoGroup('LB');
    const used = await logoGroup('Used');
    const user = await templateGroup('With logo', 0, used);
    assertFault(await del('deleteLogoGroup', `${a},4242`), Codes.logoGroupNotExists, 'ids: 4242');
    assertFault(
      await del('deleteLogoGroup', `${a},${used}`),
      Codes.parameterInvalid,
      `logo group ${used} is used by template group ${user}`,
    );
    assert.equal((await client.getLogoGroupList()).length, 3, 'nothing was deleted');
    const answer = await del('deleteLogoGroup', `${a},${b}`);
    assert.equal(answer.json.code, 0, answer.text);
    assert.equal(answer.json.result, null);
    assert.deepEqual(
      (await client.getLogoGroupList()).map((g) => g.name),
      ['Used'],
    );
  });

  it('answers GET as well as POST, as every action does', async () => {
    // Every action answers GET and POST alike (README: Methods); the deletes are no exception.
    const a = await templateGroup('A');
    const answer = await raw(p, 'deleteTemplateGroup', { ids: String(a) }, { method: 'GET' });
    assert.equal(answer.json.code, 0, answer.text);
  });
});
