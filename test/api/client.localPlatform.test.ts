/**
 * The client against the project's local platform over real HTTP on loopback: the signing,
 * carriage and JSON-text parameters are accepted by an independent implementation of the
 * interface, and what the user sees (records, codes, explanations) comes back intact.
 */
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PlatformClient } from '../../src/api/client';
import { Codes, explainCode } from '../../src/api/errorCodes';
import { ApiError } from '../../src/api/errors';
import { startLocalPlatform, type LocalPlatform } from '../../src/localPlatform/server';
import { ACCESS_KEY, SECRET_KEY, rejection } from './fixtures';

describe('PlatformClient against the local platform', function () {
  this.timeout(30_000);
  let dataDir: string;
  let platform: LocalPlatform;
  let client: PlatformClient;

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'vpt-client-'));
    platform = await startLocalPlatform({
      dataDir,
      accounts: [{ accessKey: ACCESS_KEY, secretKey: SECRET_KEY }],
      demo: true,
      clockSpeed: 1000,
    });
    client = new PlatformClient({ baseUrl: platform.restUrl, accessKey: ACCESS_KEY, secretKey: SECRET_KEY });
  });
  after(async () => {
    await client?.close();
    await platform?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('runs a channel through create, update, start, play addresses, stop and delete', async () => {
    const template = await client.liveTemplateCreate({
      displayName: 'IT',
      videoWidth: 1280,
      videoHeight: 720,
      videoBitrate: 2000,
      audioBitrate: 128,
      frameRate: 25,
      advancedArguments: { gopSize: 50 },
    });
    assert.match(template.id, /^[0-9a-f]{32}$/);
    const created = await client.liveCreateChannel({
      name: 'Client IT 频道',
      signalType: '1',
      outputGroupList: [{ protocolType: 1, outputTemplateList: [{ templateId: template.id, isDefault: '1' }] }],
    });
    assert.equal(created.name, 'Client IT 频道');
    assert.deepEqual([created.status, created.streamStatus], [0, 2]);

    const renamed = await client.liveUpdate({
      id: created.id,
      name: 'Client IT renamed',
      signalType: '1',
      outputGroupList: [
        {
          id: created.outputGroupList[0]!.id,
          protocolType: 1,
          outputTemplateList: [{ templateId: template.id, isDefault: '1' }],
        },
      ],
    });
    assert.equal(renamed.name, 'Client IT renamed');
    assert.equal((await client.liveGetChannelById(created.id)).name, 'Client IT renamed');

    const started = await client.liveStartChannel(created.id);
    assert.deepEqual([started.status, started.streamStatus], [2, 1]);
    const playUrls = await client.liveGetChannelsPlayUrl([created.id]);
    assert.equal(playUrls.length, 1);
    assert.equal(playUrls[0]!.channelId, created.id);
    const stopped = await client.liveStopChannel(created.id);
    assert.equal(stopped.status, 1);
    assert.ok(stopped.endTime !== null);

    await client.liveDelete([created.id]);
    const gone = await rejection(client.liveGetChannelById(created.id));
    assert.ok(gone instanceof ApiError);
    assert.equal(gone.code, Codes.channelNotExists);
    assert.equal(gone.explanation, explainCode(Codes.channelNotExists));
  });

  it('creates logo and template groups from JSON-text parameters', async () => {
    const logos = [
      {
        uri: 'logo/it.png',
        width: 120,
        height: 60,
        leftPos: 90,
        topPos: 5,
        opacity: 80,
        resize: 100,
        start: 0,
        end: 100,
      },
    ];
    await client.logoGroup({ name: 'IT logos', logos });
    const logoGroup = (await client.getLogoGroupList()).find((g) => g.name === 'IT logos');
    assert.ok(logoGroup, 'the new logo group is listed');

    const groupId = await client.templateGroup({
      name: 'IT group',
      type: 0,
      trailor: false,
      trailorDuration: 0,
      logoGroupId: logoGroup.id,
      transcodeTemplates: [
        {
          name: '720p',
          videoWidth: 1280,
          videoHeight: 720,
          videoBitrate: 2000,
          audioBitrate: 64000,
          format: 0,
          encryptType: 0,
          defaultVideo: 1,
          advancedArguments: { gopSize: 50 },
        },
      ],
    });
    assert.ok(Number.isInteger(groupId));
    assert.ok((await client.templateGroupList()).some((g) => g.id === groupId && g.name === 'IT group'));

    // Deleting: the logo group is refused while the template group uses it; in order, both go.
    await assert.rejects(client.deleteLogoGroup({ ids: [String(logoGroup.id)] }), (error: unknown) => {
      assert.ok(error instanceof ApiError, String(error));
      assert.equal(error.code, Codes.parameterInvalid);
      return true;
    });
    await client.deleteTemplateGroup({ ids: [String(groupId)] });
    assert.ok(!(await client.templateGroupList()).some((g) => g.id === groupId), 'the template group is gone');
    await client.deleteLogoGroup({ ids: [String(logoGroup.id)] });
    assert.ok(!(await client.getLogoGroupList()).some((g) => g.id === logoGroup.id), 'the logo group is gone');
  });

  it('returns per-video transcoding outcomes instead of throwing', async () => {
    const [known] = await client.queryVideo({ start: 1, number: 1, sort: 'uploadTime', order: 'desc' });
    const unknown = '00000000000000000000000000000000';
    const results = await client.secondTranscodeV2({
      videoIds: [known!.id, unknown],
      transcodeTemplateGroupId: 1,
      replace: false,
    });
    assert.deepEqual(
      results.map((r) => r.id),
      [known!.id, unknown],
    );
    assert.equal(results[1]!.code, Codes.videoNotExists, 'the unknown video gets its own code');
    assert.equal(typeof results[0]!.code, 'number');
    // When none of the videos exists the call still succeeds, with each video's own code.
    const none = await client.secondTranscodeV2({ videoIds: [unknown], replace: false });
    assert.equal(none[0]!.code, Codes.videoNotExists);
  });

  it('a wrong secret key gives the signature error with its explanation, and no secret in the message', async () => {
    const wrongSecret = 'not-the-right-secret-key';
    const wrong = new PlatformClient({ baseUrl: platform.baseUrl, accessKey: ACCESS_KEY, secretKey: wrongSecret });
    try {
      const error = await rejection(wrong.getLogoGroupList());
      assert.ok(error instanceof ApiError);
      assert.equal(error.code, Codes.signatureIncorrect);
      assert.match(error.message, /check the secret key/);
      assert.ok(!error.message.includes(wrongSecret) && !error.message.includes(SECRET_KEY));
    } finally {
      await wrong.close();
    }
  });
});
