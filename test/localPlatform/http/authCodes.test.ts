/** A channel's auth code lets one publish to it: it must not be derivable from the id that lists and tooltips show. */
import * as assert from 'node:assert/strict';
import { TestPlatform } from '../harness';

describe('local platform: push auth codes', () => {
  let p: TestPlatform | undefined;
  after(async () => p?.close());

  it('gives the demo channels auth codes that are not part of their ids, each its own', async () => {
    p = await TestPlatform.start({ demo: true });
    const client = p.client();
    const { channels } = await client.liveGetChannelsByPage();
    assert.ok(channels.length >= 3, 'the demo channels');
    const codes = channels.map((channel) => {
      const code = new URL(channel.pushUrl!).searchParams.get('auth');
      assert.ok(code && code.length >= 16, `${channel.name}: an auth code of 16 characters or more`);
      assert.ok(!channel.id.includes(code), `${channel.name}: the auth code ${code} is part of the id ${channel.id}`);
      return code;
    });
    assert.equal(new Set(codes).size, codes.length, 'each channel its own code');
  });
});
