import { strict as assert } from 'node:assert';
import { hasAuthCode, hideAuthCode } from '../../../src/app/util/secretAddress';

describe('secret parts of addresses', () => {
  it('hides the auth code of a push address and any password of a pull source', () => {
    assert.equal(
      hideAuthCode('rtmp://127.0.0.1:1935/live/abc?auth=0123456789abcdef'),
      'rtmp://127.0.0.1:1935/live/abc?auth=***',
    );
    assert.equal(hideAuthCode('rtmp://camera:s3cret@10.0.0.5/live/cam1'), 'rtmp://camera:***@10.0.0.5/live/cam1');
    assert.equal(hideAuthCode('srt://host:9000?passphrase=x'), 'srt://host:9000?passphrase=x');
    assert.equal(hideAuthCode('https://cdn.example.com/a/b.m3u8'), 'https://cdn.example.com/a/b.m3u8');
    assert.equal(hasAuthCode('http://user:pw@host/x.flv'), true);
    assert.equal(hasAuthCode('http://user@host/x.flv'), false);
  });
});
