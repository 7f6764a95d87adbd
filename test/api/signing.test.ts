import * as assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { OPERATIONS } from '../../src/api/operations';
import {
  compareCaseInsensitive,
  signatureOfPairs,
  signingOrder,
  signParams,
  stringToSign,
} from '../../src/api/signing';

/** The local platform's check: the HMAC of the parameters as two lists, into one buffer. */
const pairsHex = (params: Record<string, string>, key: string): string =>
  signatureOfPairs(Buffer.alloc(32), Object.keys(params), Object.values(params), key).toString('hex');

/** HMAC-SHA256 as node:crypto's createHmac computes it: what every way of signing here must equal. */
function nodeHmac(key: string, text: string): string {
  return createHmac('sha256', key).update(text, 'utf8').digest('hex');
}

describe('signing', () => {
  const example = {
    accessKey: 'a020e193-0f1',
    action: 'ugcCreateChannel',
    version: '2.0',
    timestamp: '1466488681033',
    name: '直播测试频道',
  };
  const secret = '5GcXHNYdAVVdFW0yervG';

  it("builds the platform's published string to sign", () => {
    assert.equal(
      stringToSign(example, secret),
      '5GcXHNYdAVVdFW0yervGaccessKey=a020e193-0f1action=ugcCreateChannelname=直播测试频道timestamp=1466488681033version=2.0',
    );
  });

  it("matches the platform's published signature", () => {
    assert.equal(signParams(example, secret), '69a22291e517179e76e55ad7c21269c17462e102adf0eb0526cc5012d9b4cd9a');
  });

  it("is Node's HMAC-SHA256 for keys of every length and text, several keys taking turns, long texts", () => {
    // signParams builds the HMAC from one-shot hashes over blocks kept per key: a key longer than the
    // 64-byte block is hashed first, a shorter one padded with zeros; texts longer than its scratch buffer.
    // An ASCII key up to 64 bytes is read as text beside the string to sign, any other through a buffer.
    const keys = ['k', 'x'.repeat(63), 'y'.repeat(64), 'z'.repeat(65), 'ключ', 'ключ-🙂'.repeat(20), '\x7f~', secret];
    const values = ['1', 'ü'.repeat(3000), '直播'.repeat(2000), '🙂'.repeat(1500), ''];
    for (let round = 0; round < 2; round++) {
      for (const key of keys) {
        for (const value of values) {
          const params = { ...example, name: value };
          const expected = nodeHmac(key, stringToSign(params, key));
          assert.equal(signParams(params, key), expected, `key of ${key.length} chars, value of ${value.length}`);
          assert.equal(pairsHex(params, key), expected, `as pairs, key of ${key.length} chars`);
        }
      }
    }
  });

  it('signs an unpaired surrogate as UTF-8 with U+FFFD, as createHmac does (what the local platform verifies)', () => {
    for (const key of ['k', 'ключ', 'z'.repeat(65)]) {
      for (const value of ['a\ud800b', '\udc00', '\ud83d']) {
        const params = { ...example, name: value };
        const expected = nodeHmac(key, stringToSign(params, key));
        assert.equal(signParams(params, key), expected);
        assert.equal(pairsHex(params, key), expected);
      }
    }
  });

  it('orders a set of names once: case-insensitively, each name once, the signature left out', () => {
    assert.deepEqual(signingOrder(['version', 'Zeta', 'signature', 'alpha', 'version', 'ID', 'idx']), [
      'alpha',
      'ID',
      'idx',
      'version',
      'Zeta',
    ]);
  });

  it("signs with an operation's order as without it, whichever of its names a call leaves out", () => {
    const common = ['accessKey', 'action', 'version', 'timestamp'];
    for (const [action, op] of Object.entries(OPERATIONS)) {
      const names = [...Object.keys(op.params), ...common];
      const order = signingOrder(names);
      // Every name given, then every other name left out, then each one alone with the common ones.
      const subsets = [names, names.filter((_, i) => i % 2 === 0), ...names.map((name) => [name, ...common])];
      for (const subset of subsets) {
        const params = Object.fromEntries(subset.map((name, i) => [name, `${action}-${i}-ü`]));
        const expected = nodeHmac(secret, stringToSign(params, secret));
        assert.equal(signParams(params, secret, order), expected, `${action}: ${subset.join(',')}`);
        assert.equal(stringToSign(params, secret, order), stringToSign(params, secret));
      }
    }
  });

  it('ignores a signature parameter already present', () => {
    assert.equal(signParams({ ...example, signature: 'x' }, secret), signParams(example, secret));
  });

  it('orders names case-insensitively, not by bytes', () => {
    // Byte order puts every upper-case letter before every lower-case one: "Zeta" < "alpha".
    const params = { Zeta: '1', alpha: '2', Beta: '3' };
    assert.equal(stringToSign(params, 'K'), 'Kalpha=2Beta=3Zeta=1');
    // "_" (0x5f) sits between upper (0x41-0x5a) and lower (0x61-0x7a) case letters.
    assert.equal(stringToSign({ aB: '1', a_b: '2' }, ''), 'a_b=2aB=1');
  });

  it('puts the shorter name first on a case-insensitive tie', () => {
    assert.equal(stringToSign({ idx: '2', ID: '1' }, ''), 'ID=1idx=2');
    assert.ok(compareCaseInsensitive('id', 'ID') === 0);
  });

  it("agrees with Java's String.CASE_INSENSITIVE_ORDER, including chars whose upper case is several chars", () => {
    // Signs of String.CASE_INSENSITIVE_ORDER.compare(row, column), printed by OpenJDK 17 for these names.
    // "ß", "ŉ", "ǰ" and "ᾀ" have multi-char full upper cases in JavaScript; Java keeps them as they are.
    const names = [
      'id',
      'ID',
      'Id',
      'idx',
      'IDX',
      '_a',
      'a_',
      'A',
      'a',
      '[',
      '`',
      '{',
      'ß',
      'ss',
      'SS',
      'tb',
      'İ',
      'i',
      'ı',
      'I',
      '\u212A',
      'k',
      'ǅ',
      'ǆ',
      'Ǆ',
      'ᾀ',
      'ἀ',
      'ᾈ',
      'Σ',
      'σ',
      'ς',
      'ŉ',
      'ǰ',
      'accessKey',
      'AccessKey',
      'action',
      'timestamp',
      'version',
      'versionX',
    ];
    const javaSigns = [
      '000--++++++-----++++-------------+++---',
      '000--++++++-----++++-------------+++---',
      '000--++++++-----++++-------------+++---',
      '+++00++++++-----++++-------------+++---',
      '+++00++++++-----++++-------------+++---',
      '-----0---+-----------------------------',
      '-----+0++++----------------------------',
      '-----+-00++----------------------------',
      '-----+-00++----------------------------',
      '---------0-----------------------------',
      '-----+---+0----------------------------',
      '+++++++++++0-+++++++++-----------++++++',
      '++++++++++++0+++++++++-----------++++++',
      '+++++++++++--00-++++++-----------+++---',
      '+++++++++++--00-++++++-----------+++---',
      '+++++++++++--++0++++++-----------+++---',
      '-----++++++-----0000-------------+++---',
      '-----++++++-----0000-------------+++---',
      '-----++++++-----0000-------------+++---',
      '-----++++++-----0000-------------+++---',
      '+++++++++++-----++++00-----------+++---',
      '+++++++++++-----++++00-----------+++---',
      '++++++++++++++++++++++000------+-++++++',
      '++++++++++++++++++++++000------+-++++++',
      '++++++++++++++++++++++000------+-++++++',
      '+++++++++++++++++++++++++0+0+++++++++++',
      '+++++++++++++++++++++++++-0-+++++++++++',
      '+++++++++++++++++++++++++0+0+++++++++++',
      '+++++++++++++++++++++++++---000++++++++',
      '+++++++++++++++++++++++++---000++++++++',
      '+++++++++++++++++++++++++---000++++++++',
      '++++++++++++++++++++++---------0-++++++',
      '+++++++++++++++++++++++++------+0++++++',
      '-----++++++----------------------00----',
      '-----++++++----------------------00----',
      '-----++++++----------------------++0---',
      '+++++++++++--+++++++++-----------+++0--',
      '+++++++++++--+++++++++-----------++++0-',
      '+++++++++++--+++++++++-----------+++++0',
    ];
    const sign = (n: number): string => (n < 0 ? '-' : n > 0 ? '+' : '0');
    const mismatches: string[] = [];
    names.forEach((a, i) =>
      names.forEach((b, j) => {
        const ours = sign(compareCaseInsensitive(a, b));
        if (ours !== javaSigns[i]![j]) mismatches.push(`${a} vs ${b}: Java ${javaSigns[i]![j]}, ours ${ours}`);
      }),
    );
    assert.deepEqual(mismatches, []);
    // "ß" (U+00DF) sorts after "t", not as "s"; "ᾀ" (U+1F80) after "ἀx" (U+1F00), not tied with it.
    assert.equal(stringToSign({ ßb: '1', tb: '2' }, ''), 'tb=2ßb=1');
    assert.equal(stringToSign({ ᾀ: '1', ἀx: '2' }, ''), 'ἀx=2ᾀ=1');
  });

  it('signs empty values and raw UTF-8 text, not URL-encoded', () => {
    assert.equal(stringToSign({ keyword: '', q: 'a b&c' }, 'S'), 'Skeyword=q=a b&c');
  });
});
