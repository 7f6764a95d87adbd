import * as assert from 'node:assert/strict';
import { inspect } from 'node:util';
import type { PlatformClient } from '../../src/api/client';
import { TransportError } from '../../src/api/errors';
import { CaptureServer, ok, sendJson, signatureOf } from './captureServer';
import { SECRET_KEY, makeClient, rejection } from './fixtures';
import { ForwardProxy } from './forwardProxy';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createTcpServer, type AddressInfo, type Socket } from 'node:net';
import { SELF_SIGNED_CERT, SELF_SIGNED_KEY } from './selfSigned';
import { bypassesProxy, chooseProxy } from '../../src/api/proxy';

const PROXY_VARIABLES = ['HTTP_PROXY', 'http_proxy', 'HTTPS_PROXY', 'https_proxy', 'NO_PROXY', 'no_proxy'] as const;

describe('PlatformClient proxies', () => {
  let server: CaptureServer;
  let proxy: ForwardProxy;
  let client: PlatformClient | undefined;
  const saved: Partial<Record<(typeof PROXY_VARIABLES)[number], string>> = {};

  beforeEach(async () => {
    for (const name of PROXY_VARIABLES) {
      saved[name] = process.env[name];
      delete process.env[name];
    }
    server = await CaptureServer.start((_r, res) => sendJson(res, ok([{ id: 'g' }])));
    proxy = await ForwardProxy.start();
  });
  afterEach(async () => {
    await client?.close();
    client = undefined;
    await proxy.close();
    await server.close();
    for (const name of PROXY_VARIABLES) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
  });

  /** The call went through the proxy as an absolute-form request and reached the platform intact. */
  function assertProxied(): void {
    assert.equal(proxy.seen.length, 1, 'the proxy saw the request');
    const [seen] = proxy.seen;
    assert.equal(seen!.method, 'GET');
    assert.ok(seen!.target.startsWith(`${server.baseUrl}/rest?`), `absolute-form target: ${seen!.target}`);
    assert.equal(server.requests.length, 1, 'the platform got it through the proxy');
    const { expected, actual } = signatureOf(server.last, SECRET_KEY);
    assert.equal(actual, expected);
  }

  it('uses an explicit proxy option', async () => {
    client = makeClient(server.baseUrl, { proxy: proxy.url });
    assert.deepEqual(await client.getLogoGroupList(), [{ id: 'g' }]);
    assertProxied();
  });

  it('honours HTTP_PROXY from the environment', async () => {
    process.env.HTTP_PROXY = proxy.url;
    client = makeClient(server.baseUrl);
    assert.deepEqual(await client.getLogoGroupList(), [{ id: 'g' }]);
    assertProxied();
  });

  it('honours lower-case http_proxy too', async () => {
    process.env.http_proxy = proxy.url;
    client = makeClient(server.baseUrl);
    await client.getLogoGroupList();
    assertProxied();
  });

  it('goes direct to loopback listed in NO_PROXY even with a proxy set', async () => {
    process.env.HTTP_PROXY = proxy.url;
    process.env.NO_PROXY = 'localhost,127.0.0.1';
    client = makeClient(server.baseUrl);
    assert.deepEqual(await client.getLogoGroupList(), [{ id: 'g' }]);
    assert.equal(proxy.seen.length, 0, 'the proxy was bypassed');
    assert.equal(server.requests.length, 1);
  });

  it('honours lower-case no_proxy', async () => {
    process.env.http_proxy = proxy.url;
    process.env.no_proxy = '127.0.0.1';
    client = makeClient(server.baseUrl);
    await client.getLogoGroupList();
    assert.equal(proxy.seen.length, 0);
    assert.equal(server.requests.length, 1);
  });

  it('NO_PROXY applies to an explicit proxy too (a platform on this machine stays reachable)', async () => {
    process.env.NO_PROXY = '127.0.0.1';
    client = makeClient(server.baseUrl, { proxy: proxy.url });
    assert.deepEqual(await client.getLogoGroupList(), [{ id: 'g' }]);
    assert.equal(proxy.seen.length, 0, 'the proxy was bypassed');
    assert.equal(server.requests.length, 1);
  });

  it('the noProxy option (VS Code http.noProxy) bypasses an explicit proxy, and replaces NO_PROXY', async () => {
    client = makeClient(server.baseUrl, { proxy: proxy.url, noProxy: ['intranet.example', '127.0.0.1'] });
    await client.getLogoGroupList();
    assert.equal(proxy.seen.length, 0);
    await client.close();

    process.env.NO_PROXY = '127.0.0.1';
    client = makeClient(server.baseUrl, { proxy: proxy.url, noProxy: 'intranet.example' });
    await client.getLogoGroupList();
    assert.equal(proxy.seen.length, 1, 'NO_PROXY gave way to the noProxy option');
    assert.equal(server.requests.length, 2);
  });

  it('HTTPS_PROXY alone leaves an http:// platform direct', async () => {
    process.env.HTTPS_PROXY = proxy.url;
    client = makeClient(server.baseUrl);
    await client.getLogoGroupList();
    assert.equal(proxy.seen.length, 0);
    assert.equal(server.requests.length, 1);
  });

  it('HTTP_PROXY without a scheme means http://, as curl reads it', async () => {
    process.env.HTTP_PROXY = `127.0.0.1:${proxy.port}`;
    client = makeClient(server.baseUrl);
    await client.getLogoGroupList();
    assertProxied();
  });

  it('a proxy variable that is not a URL is refused at construction, named but not echoed', () => {
    process.env.http_proxy = 'http://user:pw-s3cret@[bad';
    assert.throws(
      () => makeClient(server.baseUrl),
      (error: unknown) =>
        error instanceof TypeError &&
        /http_proxy environment variable is not a proxy URL/.test(error.message) &&
        !error.message.includes('pw-s3cret'),
    );
    assert.throws(() => makeClient(server.baseUrl, { noProxy: 5 as never }), /noProxy must be a string of hosts/);
  });

  it('matches NO_PROXY entries: *, names with subdomains, leading dots, ports, IPv6', () => {
    const cases: Array<[string, string, boolean]> = [
      ['http://api.example.com', '*', true],
      ['http://api.example.com', 'example.com', true],
      ['http://example.com', 'example.com', true],
      ['http://badexample.com', 'example.com', false],
      ['http://api.example.com', '.example.com', true],
      ['http://example.com', '.example.com', true],
      ['http://api.example.com', '*.example.com', true],
      ['http://API.Example.COM:8080', 'api.example.com:8080', true],
      ['http://api.example.com:8080', 'api.example.com:9090', false],
      ['http://api.example.com', 'api.example.com:80', true],
      ['https://api.example.com', 'api.example.com:80', false],
      ['http://[::1]:8790', '::1', true],
      ['http://[::1]:8790', '[::1]:8790', true],
      ['http://[::1]:8790', '[::1]:1', false],
      ['http://127.0.0.1:8790', 'localhost, 127.0.0.1', true],
      ['http://10.0.0.5', 'localhost 127.0.0.1', false],
      ['http://10.0.0.5', '', false],
    ];
    for (const [origin, list, expected] of cases)
      assert.equal(bypassesProxy(new URL(origin), list), expected, `${origin} vs "${list}"`);
  });

  it('chooses the proxy per scheme, HTTPS falling back to HTTP_PROXY; an explicit proxy wins', () => {
    const vars = { HTTP_PROXY: 'http://h:1', https_proxy: 'http://s:2' };
    assert.deepEqual(chooseProxy('http://p.example', undefined, undefined, vars), {
      proxy: 'http://h:1',
      source: 'environment',
    });
    assert.deepEqual(chooseProxy('https://p.example', undefined, undefined, vars), {
      proxy: 'http://s:2',
      source: 'environment',
    });
    assert.deepEqual(chooseProxy('https://p.example', undefined, undefined, { HTTP_PROXY: 'http://h:1' }), {
      proxy: 'http://h:1',
      source: 'environment',
    });
    assert.deepEqual(chooseProxy('https://p.example', 'http://x:3', undefined, vars), {
      proxy: 'http://x:3',
      source: 'option',
    });
    assert.deepEqual(chooseProxy('https://p.example', 'http://x:3', undefined, { ...vars, no_proxy: 'p.example' }), {});
    assert.deepEqual(chooseProxy('http://p.example', undefined, undefined, {}), {});
  });

  it('an https:// platform is reached through a CONNECT tunnel of the proxy', async () => {
    const tls = createHttpsServer({ key: SELF_SIGNED_KEY, cert: SELF_SIGNED_CERT }, (_req, res) => res.end('{}'));
    let connections = 0;
    tls.on('connection', () => connections++);
    await new Promise<void>((resolve) => tls.listen(0, '127.0.0.1', resolve));
    const target = `127.0.0.1:${(tls.address() as AddressInfo).port}`;
    const tunnelling = await ForwardProxy.start({ tunnel: true });
    const secure = makeClient(`https://${target}`, {
      proxy: `http://media:pr0xy-pass@127.0.0.1:${tunnelling.port}`,
      retry: { attempts: 1 },
    });
    try {
      const error = await rejection(secure.getLogoGroupList());
      assert.deepEqual(
        tunnelling.seen.map((s) => [s.method, s.target]),
        [['CONNECT', target]],
        'the proxy was asked for a tunnel',
      );
      assert.equal(
        tunnelling.seen[0]!.headers['proxy-authorization'],
        `Basic ${Buffer.from('media:pr0xy-pass').toString('base64')}`,
      );
      // The certificate is self-signed, so TLS through the tunnel ends the call: proof it got there.
      assert.ok(error instanceof TransportError, String(error));
      assert.equal(error.kind, 'tls', error.message);
      assert.equal(connections, 1, 'the tunnel reached the platform');
    } finally {
      await secure.close();
      await tunnelling.close();
      tls.closeAllConnections();
      await new Promise<void>((resolve) => tls.close(() => resolve()));
    }
  });

  it('a proxy that refuses the tunnel says so, with its status', async () => {
    client = makeClient('https://platform.example', { proxy: proxy.url, retry: { attempts: 1 } });
    const error = await rejection(client.getLogoGroupList());
    assert.ok(error instanceof TransportError, String(error));
    assert.equal(error.kind, 'network');
    assert.equal(proxy.seen[0]?.method, 'CONNECT');
    assert.match(
      error.message,
      /getLogoGroupList: proxy http:\/\/127\.0\.0\.1:\d+ refused to open a tunnel to https:\/\/platform\.example\/rest \(HTTP 405 Method Not Allowed\)/,
    );
  });

  it("a proxy that never answers CONNECT ends in the connect timeout, not undici's 300 s default", async () => {
    const held: Socket[] = [];
    const silent = createTcpServer((socket) => {
      held.push(socket);
      socket.resume();
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    client = makeClient('https://platform.example', {
      proxy: `http://127.0.0.1:${(silent.address() as AddressInfo).port}`,
      retry: { attempts: 1 },
      timeouts: { connectMs: 300, headersMs: 300 },
    });
    try {
      const started = performance.now();
      const error = await rejection(client.getLogoGroupList());
      assert.ok(error instanceof TransportError, String(error));
      assert.equal(error.kind, 'timeout', error.message);
      assert.equal(error.phase, 'connect');
      assert.match(
        error.message,
        /could not connect to https:\/\/platform\.example\/rest through proxy http:\/\/127\.0\.0\.1:\d+ within 0\.3 s/,
      );
      // undici's timers are coarse (about 1 s) above their fast path; far below 300 s all the same.
      assert.ok(performance.now() - started < 5_000, `took ${Math.round(performance.now() - started)} ms`);
    } finally {
      for (const socket of held) socket.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });

  it('sends proxy credentials from the proxy URL, and never shows them in errors', async () => {
    const withCredentials = `http://media:pr0xy-pass@127.0.0.1:${proxy.port}`;
    client = makeClient(server.baseUrl, { proxy: withCredentials, retry: { attempts: 1 } });
    await client.getLogoGroupList();
    const expected = `Basic ${Buffer.from('media:pr0xy-pass').toString('base64')}`;
    assert.equal(proxy.seen[0]?.headers['proxy-authorization'], expected);

    await proxy.close();
    const error = await rejection(client.getLogoGroupList());
    assert.ok(error instanceof TransportError);
    assert.equal(error.kind, 'network');
    assert.ok(error.message.includes(`through proxy http://127.0.0.1:${proxy.port}`), error.message);
    assert.ok(!error.message.includes('pr0xy-pass'), 'proxy password in the message');
    proxy = await ForwardProxy.start(); // afterEach closes it again
  });
});

describe('PlatformClient proxyAuthorization', () => {
  const TOKEN = `Basic ${Buffer.from('media:s3cret-proxy-pass').toString('base64')}`;
  let server: CaptureServer;
  let proxy: ForwardProxy;
  let client: PlatformClient | undefined;

  beforeEach(async () => {
    server = await CaptureServer.start((_r, res) => sendJson(res, ok([{ id: 'g' }])));
    proxy = await ForwardProxy.start({ tunnel: true, authorization: TOKEN });
  });
  afterEach(async () => {
    await client?.close();
    client = undefined;
    await proxy.close();
    await server.close();
  });

  it('a proxy that wants Proxy-Authorization refuses a plain-http call without it, with a hint and no secret', async () => {
    client = makeClient(server.baseUrl, { proxy: proxy.url, noProxy: '', retry: { attempts: 1 } });
    const error = await rejection(client.getLogoGroupList());
    assert.ok(error instanceof TransportError, String(error));
    assert.equal(error.kind, 'network');
    assert.match(
      error.message,
      /refused to forward the request .*HTTP 407 Proxy Authentication Required.*proxyAuthorization/,
    );
    assert.equal(server.requests.length, 0);
  });

  it('forwards a plain-http call with the proxyAuthorization value', async () => {
    client = makeClient(server.baseUrl, { proxy: proxy.url, noProxy: '', proxyAuthorization: TOKEN });
    assert.deepEqual(await client.getLogoGroupList(), [{ id: 'g' }]);
    assert.equal(proxy.seen[0]?.headers['proxy-authorization'], TOKEN);
    assert.equal(server.requests.length, 1);
    assert.equal(server.last.headers['proxy-authorization'], undefined, 'the platform never sees it');

    await proxy.close();
    const error = await rejection(client.getLogoGroupList());
    assert.ok(error instanceof TransportError);
    assert.ok(!inspect(error, { depth: 8, showHidden: true }).includes(TOKEN), 'the value leaked into the error');
    proxy = await ForwardProxy.start(); // afterEach closes it again
  });

  it('opens a CONNECT tunnel to an https:// platform with it (and refuses without it, never showing it)', async () => {
    const tls = createHttpsServer({ key: SELF_SIGNED_KEY, cert: SELF_SIGNED_CERT }, (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(ok([{ id: 'secure' }])));
    });
    await new Promise<void>((resolve) => tls.listen(0, '127.0.0.1', resolve));
    const url = `https://127.0.0.1:${(tls.address() as AddressInfo).port}`;
    const without = makeClient(url, { proxy: proxy.url, noProxy: '', ca: [SELF_SIGNED_CERT], retry: { attempts: 1 } });
    client = makeClient(url, { proxy: proxy.url, noProxy: '', ca: [SELF_SIGNED_CERT], proxyAuthorization: TOKEN });
    try {
      const refused = await rejection(without.getLogoGroupList());
      assert.ok(refused instanceof TransportError, String(refused));
      assert.match(refused.message, /refused to open a tunnel .*HTTP 407.*proxyAuthorization/);
      assert.deepEqual(await client.getLogoGroupList(), [{ id: 'secure' }]);
      const connects = proxy.seen.filter((s) => s.method === 'CONNECT');
      assert.deepEqual(
        connects.map((s) => s.headers['proxy-authorization']),
        [undefined, TOKEN],
      );
    } finally {
      await without.close();
      tls.closeAllConnections();
      await new Promise<void>((resolve) => tls.close(() => resolve()));
    }
  });

  it('is checked at construction: one line of text, never echoed', () => {
    assert.throws(
      () => makeClient(server.baseUrl, { proxyAuthorization: 'Basic abc\r\nX-Evil: s3cret-value' }),
      (error: unknown) =>
        error instanceof TypeError &&
        /proxyAuthorization must be one line of text/.test(error.message) &&
        !error.message.includes('s3cret-value'),
    );
    assert.throws(() => makeClient(server.baseUrl, { proxyAuthorization: 42 as never }), /proxyAuthorization/);
  });
});
