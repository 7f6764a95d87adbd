/** Ready JSON text is written into answers exactly as JSON.stringify would, and is made again when what it shows changes. */
import * as assert from 'node:assert/strict';
import { AnswerCache, JsonText, envelopeText, jsonList } from '../../src/localPlatform/answerCache';

describe('local platform: answer cache', () => {
  it('writes ready text into the envelope as JSON.stringify writes the value', () => {
    const result = [{ id: 'a', name: 'say "result":0 here', n: 1 }, { id: 'b' }];
    const ready = jsonList(result.map((r) => JSON.stringify(r)));
    for (const envelope of [
      { code: 0, message: 'success', result: ready, success: true },
      { code: 0, message: 'success', result: ready, success: true, count: 2 },
    ]) {
      assert.equal(envelopeText(envelope), JSON.stringify({ ...envelope, result }));
      assert.equal(JSON.stringify(envelope), JSON.stringify({ ...envelope, result }), 'toJSON gives the same JSON');
    }
    const plain = { code: 10001, message: 'no "result":0', result: null, success: false };
    assert.equal(envelopeText(plain), JSON.stringify(plain));
    assert.equal(new JsonText('[]').text, '[]');
  });

  it('makes a text once per record and key, again for a new record or key', () => {
    const cache = new AnswerCache<{ name: string }>(1000);
    let made = 0;
    const make = (r: { name: string }, key: string): string =>
      cache.text(r, key, () => {
        made++;
        return { name: r.name, key };
      });
    const one = { name: 'one' };
    assert.equal(make(one, 'k'), '{"name":"one","key":"k"}');
    assert.equal(make(one, 'k'), '{"name":"one","key":"k"}');
    assert.equal(made, 1);
    assert.equal(make(one, 'other origin'), '{"name":"one","key":"other origin"}');
    const changed = { name: 'one, renamed' }; // a write puts a new record object
    assert.equal(make(changed, 'other origin'), '{"name":"one, renamed","key":"other origin"}');
    assert.equal(made, 3);
  });

  it('keeps at most its size, dropping the least recently used text', () => {
    const cache = new AnswerCache<{ i: number }>(100);
    const records = Array.from({ length: 20 }, (_, i) => ({ i }));
    let made = 0;
    const make = (r: { i: number }): string =>
      cache.text(r, '', () => {
        made++;
        return { i: r.i, pad: 'xxxxxxxxxx' };
      });
    make(records[0]);
    for (const r of records) {
      make(r);
      make(records[0]); // kept in use
    }
    assert.equal(made, 20);
    made = 0;
    make(records[0]);
    make(records[19]);
    assert.equal(made, 0, 'recently used texts stay');
    make(records[1]);
    assert.equal(made, 1, 'the oldest was dropped');
  });
});
