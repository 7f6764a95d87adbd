/**
 * A request's parameters (request.ts): a query with nothing to decode is cut by the platform itself, and must give
 * exactly what URLSearchParams gives for it (the signature is checked over those values and handlers read them);
 * repeated names and the bound on their number are refused whichever way the query was read.
 */
import * as assert from 'node:assert/strict';
import { Codes } from '../../../src/api/errorCodes';
import { parseRequest, type QueryOf } from '../../../src/localPlatform/http/request';

const NO_BODY = Buffer.alloc(0);

/** The query read as the platform reads an unescaped one, and as URLSearchParams reads it. */
function bothWays(query: string): { cut: Array<[string, string]>; decoded: Array<[string, string]> } {
  const target = (unescapedQuery: string | undefined): QueryOf => ({
    searchParams: new URLSearchParams(query),
    unescapedQuery,
  });
  const pairs = (t: QueryOf): Array<[string, string]> => {
    const { pairs: read } = parseRequest(t, undefined, NO_BODY, false);
    return read.names.map((name, i) => [name, read.values[i]]);
  };
  return { cut: pairs(target(query)), decoded: pairs(target(undefined)) };
}

function refusal(query: string): { code: number; message: string } | undefined {
  try {
    parseRequest({ searchParams: new URLSearchParams(query), unescapedQuery: query }, undefined, NO_BODY, false);
    return undefined;
  } catch (error) {
    const { code, message } = error as { code: number; message: string };
    return { code, message };
  }
}

describe('local platform: request parameters', () => {
  it('cuts a query with nothing to decode exactly as URLSearchParams reads it', () => {
    for (const query of [
      'a=1&b=2',
      'a=b=c&d==&==e',
      '?a=1',
      '??a=1',
      '&&a=1&&&b&',
      'flag&a=&=x',
      `note=x?y/z;1,2:@!*()~$'"`,
      'a=1&a=1&b=2',
      '',
      '=',
      '&',
      'a',
    ]) {
      const { cut, decoded } = bothWays(query);
      assert.deepEqual(cut, decoded, query);
    }
  });

  it('keeps the first of a name given twice with the same value, and refuses different values', () => {
    assert.deepEqual(bothWays('a=1&b=2&a=1').cut, [
      ['a', '1'],
      ['b', '2'],
    ]);
    for (const query of ['a=1&b=2&a=3', 'b=2&a=1&a=']) {
      assert.deepEqual(refusal(query), {
        code: Codes.parameterInvalid,
        message: 'parameter_invalid: a is given more than once with different values',
      });
    }
  });

  it('refuses more than 200 parameters, repeats counted, with nothing else kept past the bound', () => {
    const many = (n: number, name: (i: number) => string): string =>
      Array.from({ length: n }, (_, i) => `${name(i)}=v`).join('&');
    assert.equal(refusal(many(200, (i) => `p${i}`)), undefined);
    const tooMany = {
      code: Codes.parameterInvalid,
      message: 'parameter_invalid: a request may carry at most 200 parameters',
    };
    assert.deepEqual(refusal(many(201, (i) => `p${i}`)), tooMany);
    assert.deepEqual(refusal(many(201, () => 'same')), tooMany);
    // 100,000 names: refused for their number (read in one pass, not compared with each other).
    assert.deepEqual(refusal(many(100_000, (i) => `p${i}`)), tooMany);
  });
});
