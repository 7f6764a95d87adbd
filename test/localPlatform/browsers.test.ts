/**
 * Web pages must not reach the local platform: a request naming a host the platform does not
 * listen on (DNS rebinding) or sent by a page of another origin (a cross-site form post) is
 * refused before anything is read or changed.
 */
import * as assert from 'node:assert/strict';
import { Codes } from '../../src/api/errorCodes';
import { rawSocket, signed, TestPlatform } from './harness';

interface HttpAnswer {
  status: number;
  json: { code: number; message: string };
}

describe('local platform: browsers', () => {
  let p: TestPlatform;

  before(async () => {
    p = await TestPlatform.start({ allowedHosts: ['platform.test'] });
  });
  after(async () => {
    await p.close();
  });

  async function request(headers: Record<string, string>, method = 'GET', body = ''): Promise<HttpAnswer> {
    const q = new URLSearchParams(
      signed(
        method === 'POST' ? 'liveChannelTypeCreate' : 'liveChannelTypeList',
        method === 'POST' ? { name: 'From a page' } : {},
      ),
    ).toString();
    const lines = Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`);
    const text = await rawSocket(
      p.platform.port,
      `${method} /rest?${q} HTTP/1.1\r\n${lines.join('')}Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
    const status = Number(/^HTTP\/1\.1 (\d+)/.exec(text)?.[1]);
    return { status, json: JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)) as HttpAnswer['json'] };
  }

  const categories = async (): Promise<string[]> => (await p.client().liveChannelTypeList()).map((c) => c.name);

  it('serves the names it listens on and the configured ones, whatever the port', async () => {
    const port = p.platform.port;
    for (const host of [
      `127.0.0.1:${port}`,
      `localhost:${port}`,
      `[::1]:${port}`,
      'LOCALHOST',
      `platform.test:${port}`,
    ]) {
      const answer = await request({ Host: host });
      assert.equal(answer.json.code, 0, `${host}: ${answer.json.message}`);
    }
  });

  it('refuses another host name (DNS rebinding) with 403 and a clear message', async () => {
    const answer = await request({ Host: `attacker.example:${p.platform.port}` });
    assert.equal(answer.status, 403);
    assert.equal(answer.json.code, Codes.requestNotAllowed);
    assert.match(answer.json.message, /Host "attacker\.example:\d+" is not a name of this local platform/);
    assert.match(answer.json.message, /--allowed-host/);
  });

  it('refuses another host name after serving allowed ones on many ports, and again when asked again', async () => {
    // The Host values read are remembered, to skip reading them again: only allowed ones, and only so many.
    for (let port = 1; port <= 80; port++) {
      const answer = await request({ Host: `${port % 2 ? 'localhost' : '127.0.0.1'}:${port}` });
      assert.equal(answer.json.code, 0, `port ${port}: ${answer.json.message}`);
    }
    for (let i = 0; i < 2; i++) {
      const answer = await request({ Host: `attacker.example:${p.platform.port}` });
      assert.equal(answer.status, 403);
      assert.equal(answer.json.code, Codes.requestNotAllowed);
    }
  });

  it('refuses a request from a page of another origin, and changes nothing (a cross-site form post)', async () => {
    const answer = await request(
      {
        Host: `127.0.0.1:${p.platform.port}`,
        Origin: 'https://evil.example',
        'Content-Type': 'application/x-www-form-urlencoded',
      },
      'POST',
    );
    assert.equal(answer.status, 403);
    assert.equal(answer.json.code, Codes.requestNotAllowed);
    assert.match(answer.json.message, /requests from web pages of another origin \(https:\/\/evil\.example\)/);
    const opaque = await request({ Host: `127.0.0.1:${p.platform.port}`, Origin: 'null' }, 'POST');
    assert.equal(opaque.status, 403);
    assert.ok(!(await categories()).includes('From a page'));
  });

  it('accepts an Origin of an allowed host, and no Origin at all', async () => {
    const same = await request({ Host: `127.0.0.1:${p.platform.port}`, Origin: `http://localhost:${p.platform.port}` });
    assert.equal(same.json.code, 0, same.json.message);
    const none = await request({ Host: `127.0.0.1:${p.platform.port}` });
    assert.equal(none.json.code, 0);
  });

  it('refuses an absolute-form request line naming another host', async () => {
    const q = new URLSearchParams(signed('liveChannelTypeList', {})).toString();
    const text = await rawSocket(
      p.platform.port,
      `GET http://attacker.example/rest?${q} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`,
    );
    assert.match(text, /^HTTP\/1\.1 403/);
    assert.match(text, /"code":10918/);
  });

  /** A request line and headers on a raw socket: the status, the headers (lower case) and the body text. */
  async function rawRequest(line: string, headers: Record<string, string>, body = '') {
    const lines = Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`);
    const text = await rawSocket(
      p.platform.port,
      `${line} HTTP/1.1\r\n${lines.join('')}Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
    const head = text.slice(0, text.indexOf('\r\n\r\n')).toLowerCase();
    return {
      status: Number(/^http\/1\.1 (\d+)/.exec(head)?.[1]),
      head,
      body: text.slice(text.indexOf('\r\n\r\n') + 4),
    };
  }

  it('lets pages of any origin read media files (CORS, as from a CDN), but checks their Host', async () => {
    const host = `127.0.0.1:${p.platform.port}`;
    // No such video: 404 from the media route (not the Origin refusal), with CORS so a player reads why.
    const read = await rawRequest('GET /vod/0123456789abcdef0123456789abcdef/cover.jpg', {
      Host: host,
      Origin: 'https://player.example',
    });
    assert.equal(read.status, 404);
    assert.match(read.head, /access-control-allow-origin: \*/);
    const rebound = await rawRequest('GET /vod/0123456789abcdef0123456789abcdef/cover.jpg', {
      Host: 'attacker.example',
      Origin: 'https://player.example',
    });
    assert.equal(rebound.status, 403);
    assert.match(JSON.parse(rebound.body).message, /Host "attacker\.example" is not a name of this local platform/);
  });

  it('refuses an upload sent by a page of another origin, before reading it', async () => {
    const answer = await rawRequest(
      'POST /multipart/upload',
      { Host: `127.0.0.1:${p.platform.port}`, Origin: 'https://evil.example', 'Content-Type': 'text/plain' },
      'token=x',
    );
    assert.equal(answer.status, 403);
    assert.match(
      JSON.parse(answer.body).message,
      /requests from web pages of another origin \(https:\/\/evil\.example\)/,
    );
  });

  it('refuses a malformed allowedHosts entry at start', async () => {
    await assert.rejects(
      TestPlatform.start({ allowedHosts: ['bad host/'] }),
      /allowedHosts: "bad host\/" is not a host name/,
    );
  });
});
