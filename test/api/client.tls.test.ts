import * as assert from 'node:assert/strict';
import { createServer as createHttpsServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { TransportError } from '../../src/api/errors';
import { CaptureServer, ok, sendJson } from './captureServer';
import { makeClient, rejection } from './fixtures';
import { ForwardProxy } from './forwardProxy';
import { SELF_SIGNED_CERT, SELF_SIGNED_KEY } from './selfSigned';

describe('PlatformClient TLS options (rejectUnauthorized, ca)', () => {
  let tls: Server;
  let url: string;

  before(async () => {
    tls = createHttpsServer({ key: SELF_SIGNED_KEY, cert: SELF_SIGNED_CERT }, (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(ok([{ id: 'secure' }])));
    });
    await new Promise<void>((resolve) => tls.listen(0, '127.0.0.1', resolve));
    url = `https://127.0.0.1:${(tls.address() as AddressInfo).port}`;
  });
  after(async () => {
    tls.closeAllConnections();
    await new Promise<void>((resolve) => tls.close(() => resolve()));
  });

  async function logoGroups(options: Parameters<typeof makeClient>[1]): Promise<unknown> {
    const client = makeClient(url, { retry: { attempts: 1 }, ...options });
    try {
      return await client.getLogoGroupList();
    } finally {
      await client.close();
    }
  }

  it('refuses a self-signed platform by default, as a "tls" failure naming the way out', async () => {
    const error = await rejection(logoGroups({}));
    assert.ok(error instanceof TransportError, String(error));
    assert.equal(error.kind, 'tls', error.message);
    assert.match(error.message, /was not accepted .*the ca option/);
  });

  it('accepts it when its certificate is given in ca', async () => {
    assert.deepEqual(await logoGroups({ ca: [SELF_SIGNED_CERT] }), [{ id: 'secure' }]);
  });

  it('accepts it with rejectUnauthorized false (VS Code http.proxyStrictSSL off)', async () => {
    assert.deepEqual(await logoGroups({ rejectUnauthorized: false }), [{ id: 'secure' }]);
  });

  it('an empty ca list changes nothing: still refused', async () => {
    const error = await rejection(logoGroups({ ca: [] }));
    assert.ok(error instanceof TransportError);
    assert.equal(error.kind, 'tls');
  });

  it('refuses bad TLS options at construction, naming the option', () => {
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ rejectUnauthorized: 'no' }, /option rejectUnauthorized must be true or false/],
      [{ ca: SELF_SIGNED_CERT }, /option ca must be a list of PEM certificates/],
      [{ ca: [SELF_SIGNED_CERT, 'not a certificate'] }, /option ca\[1\] must be a PEM certificate/],
      [
        { ca: ['-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n'] },
        /option ca\[0\] must be a PEM certificate/,
      ],
    ];
    for (const [options, message] of cases)
      assert.throws(
        () => makeClient(url, options),
        (error: unknown) => error instanceof TypeError && message.test(error.message),
      );
  });
});

describe('PlatformClient TLS options for an https:// proxy', () => {
  let server: CaptureServer;
  let proxy: ForwardProxy;

  beforeEach(async () => {
    server = await CaptureServer.start((_r, res) => sendJson(res, ok([{ id: 'g' }])));
    proxy = await ForwardProxy.start({ tunnel: true, tls: { key: SELF_SIGNED_KEY, cert: SELF_SIGNED_CERT } });
  });
  afterEach(async () => {
    await proxy.close();
    await server.close();
  });

  async function logoGroups(options: Parameters<typeof makeClient>[1]): Promise<unknown> {
    const client = makeClient(server.baseUrl, { proxy: proxy.url, noProxy: '', retry: { attempts: 1 }, ...options });
    try {
      return await client.getLogoGroupList();
    } finally {
      await client.close();
    }
  }

  it("refuses the proxy's self-signed certificate by default, and reaches the platform with ca or rejectUnauthorized false", async () => {
    const error = await rejection(logoGroups({}));
    assert.ok(error instanceof TransportError, String(error));
    assert.equal(error.kind, 'tls', error.message);
    assert.equal(server.requests.length, 0);

    assert.deepEqual(await logoGroups({ ca: [SELF_SIGNED_CERT] }), [{ id: 'g' }]);
    assert.deepEqual(await logoGroups({ rejectUnauthorized: false }), [{ id: 'g' }]);
    assert.equal(server.requests.length, 2, 'both went through the proxy to the platform');
    assert.ok(proxy.seen.length >= 2);
  });
});
