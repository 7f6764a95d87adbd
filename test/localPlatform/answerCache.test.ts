/** Ready JSON is written into answers exactly as JSON.stringify would, and is made again when what it shows changes. */
import * as assert from 'node:assert/strict';
import { AnswerCache, JsonList, envelopeChunks } from '../../src/localPlatform/answerCache';

const envelopeText = (envelope: { result: unknown }): string => Buffer.concat(envelopeChunks(envelope)).toString();
/** A list fragment as AnswerCache makes them: a comma and the JSON. */
const fragment = (value: unknown): Buffer => Buffer.from(`,${JSON.stringify(value)}`);

describe('local platform: answer cache', () => {
  it('writes ready fragments into the envelope as JSON.stringify writes the value', () => {
    const result = [{ id: 'a', name: 'say "result":[] here', n: 1 }, { id: 'b' }, { id: 'é', name: '渠道 "😀"' }];
    const ready = new JsonList(result.map(fragment));
    for (const envelope of [
      { code: 0, message: 'success', result: ready, success: true },
      { code: 0, message: 'success', result: ready, success: true, count: 3 },
    ]) {
      assert.equal(envelopeText(envelope), JSON.stringify({ ...envelope, result }));
      assert.equal(JSON.stringify(envelope), JSON.stringify({ ...envelope, result }), 'toJSON gives the same JSON');
    }
    const empty = { code: 0, message: 'success', result: new JsonList([]), success: true, count: 0 };
    assert.equal(envelopeText(empty), JSON.stringify({ ...empty, result: [] }));
    const plain = { code: 10001, message: 'no "result":[] here', result: null, success: false };
    assert.equal(envelopeText(plain), JSON.stringify(plain));
    assert.equal(new JsonList([fragment(1), fragment('x')]).text, '[1,"x"]');
  });

  it('writes each fragment as it is (no page is joined or copied), head and tail beside them', () => {
    const fragments = [fragment({ id: 'a' }), fragment({ id: 'b' })];
    const envelope = { code: 0, message: 'success', result: new JsonList(fragments), success: true, count: 2 };
    const chunks = envelopeChunks(envelope);
    assert.equal(chunks.length, 4, 'head, two fragments, tail');
    assert.equal(chunks[1].buffer, fragments[0].buffer, 'the first fragment without its comma, same memory');
    assert.equal(chunks[1].toString(), '{"id":"a"}');
    assert.equal(chunks[2], fragments[1], 'the next fragments as they are');
    const recountedEnvelope = { ...envelope, count: 3 };
    assert.equal(
      envelopeText(recountedEnvelope),
      '{"code":0,"message":"success","result":[{"id":"a"},{"id":"b"}],"success":true,"count":3}',
    );
  });

  it('makes the bytes once per record, key and extra, again for a new record, key or extra', () => {
    const cache = new AnswerCache<{ name: string }>(1000);
    let made = 0;
    const make = (r: { name: string }, key: string, extra = ''): string =>
      cache
        .bytes(r, key, extra, () => {
          made++;
          return { name: r.name, key, extra };
        })
        .toString();
    const one = { name: 'one' };
    assert.equal(make(one, 'k'), ',{"name":"one","key":"k","extra":""}');
    assert.equal(make(one, 'k'), ',{"name":"one","key":"k","extra":""}');
    assert.equal(made, 1);
    assert.equal(make(one, 'other origin'), ',{"name":"one","key":"other origin","extra":""}');
    assert.equal(make(one, 'other origin', 'News'), ',{"name":"one","key":"other origin","extra":"News"}');
    const changed = { name: 'one, renamed' }; // a write puts a new record object
    assert.equal(make(changed, 'other origin'), ',{"name":"one, renamed","key":"other origin","extra":""}');
    assert.equal(made, 4);
  });

  it('keeps at most its size in bytes, dropping fragments not read since they were made first', () => {
    const cache = new AnswerCache<{ i: number }>(100);
    const records = Array.from({ length: 20 }, (_, i) => ({ i }));
    let made = 0;
    const make = (r: { i: number }): Buffer =>
      cache.bytes(r, '', '', () => {
        made++;
        return { i: r.i, pad: 'é' }; // 2 bytes in UTF-8: the bound counts bytes, not characters
      });
    make(records[0]);
    for (const r of records) {
      make(r);
      make(records[0]); // kept in use
      assert.ok(cache.bytesHeld <= 100, `${cache.bytesHeld} bytes held`);
    }
    assert.equal(made, 20);
    made = 0;
    make(records[0]);
    make(records[19]);
    assert.equal(made, 0, 'fragments in use stay');
    make(records[1]);
    assert.equal(made, 1, 'an old one was dropped');
    // Each fragment has memory of its own: a slice of Node's shared pool would keep a whole slab alive.
    assert.equal(make(records[2]).buffer.byteLength, make(records[2]).length);
  });
});
