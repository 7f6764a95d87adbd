/** Ready JSON text is written into answers exactly as JSON.stringify would, and is made again when what it shows changes. */
import * as assert from 'node:assert/strict';
import { AnswerCache, JsonText, ListCache, envelopeBody, jsonList } from '../../src/localPlatform/answerCache';

const envelopeText = (envelope: { result: unknown }): string => envelopeBody(envelope).toString();

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

  it('answers a page asked again with the same bytes, and again with new ones when a count or a record changes', () => {
    const ready = jsonList(['{"id":"a"}', '{"id":"b"}']);
    const envelope = { code: 0, message: 'success', result: ready, success: true, count: 2 };
    const first = envelopeBody(envelope);
    assert.ok(Buffer.isBuffer(first));
    assert.equal(envelopeBody({ ...envelope }), first, 'the same bytes, not a copy');
    const recountedEnvelope = { ...envelope, count: 3 };
    const recounted = envelopeBody(recountedEnvelope);
    assert.equal(
      recounted.toString(),
      '{"code":0,"message":"success","result":[{"id":"a"},{"id":"b"}],"success":true,"count":3}',
    );
    assert.equal(
      envelopeBody({ ...envelope, result: jsonList(['{"id":"a"}']) })
        .toString()
        .includes('"b"'),
      false,
    );
  });

  it('makes a list once while its texts stay the same, and keeps at most its size', () => {
    const lists = new ListCache(200);
    const a = '{"id":"a"}';
    const b = '{"id":"b"}';
    const page = lists.list([a, b]);
    assert.equal(page.text, '[{"id":"a"},{"id":"b"}]');
    assert.equal(lists.list([a, b]), page, 'the same page again');
    assert.notEqual(lists.list([a]), page, 'a shorter page is another list');
    const changed = lists.list([a, '{"id":"b","name":"new"}']);
    assert.equal(changed.text, '[{"id":"a"},{"id":"b","name":"new"}]');
    assert.equal(lists.list([]).text, '[]');
    for (let i = 0; i < 20; i++) lists.list([`{"id":"${i}"}`]);
    assert.notEqual(lists.list([a, b]), page, 'dropped once more was made than its size holds');
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
