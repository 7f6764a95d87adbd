import assert from 'node:assert/strict';
import { PROXY_SETTINGS, proxyOptions, type HttpSettings } from '../../src/app/proxySettings';
import { createHarness } from './helpers/harness';
import { ACCESS_KEY, SECRET_KEY, startTestPlatform } from './helpers/platform';

const http = (values: Record<string, unknown>): HttpSettings => ({
  get: <T>(key: string) => values[key] as T | undefined,
});
const PEM = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';

describe("VS Code's proxy settings as client options", () => {
  it('leaves every option to the client when nothing is set (strict TLS, Node certificates only)', () => {
    assert.deepEqual(
      proxyOptions(http({}), () => []),
      {},
    );
    assert.deepEqual(
      proxyOptions(http({ proxy: '', noProxy: [], proxyAuthorization: null, proxyStrictSSL: true }), () => []),
      {},
    );
  });

  it('passes the proxy, its exceptions, the Proxy-Authorization value, strict TLS off and the system certificates', () => {
    const options = proxyOptions(
      http({
        proxy: 'http://proxy.example:3128',
        noProxy: ['intranet.example', ' ', 7],
        proxyAuthorization: 'Basic dXNlcjpwYXNz',
        proxyStrictSSL: false,
        systemCertificates: true,
      }),
      () => [PEM],
    );
    assert.deepEqual(options, {
      proxy: 'http://proxy.example:3128',
      noProxy: ['intranet.example'],
      proxyAuthorization: 'Basic dXNlcjpwYXNz',
      rejectUnauthorized: false,
      ca: [PEM],
    });
  });

  it('adds no system certificates when http.systemCertificates is off, or when Node cannot read them', () => {
    assert.equal(proxyOptions(http({ systemCertificates: false }), () => [PEM]).ca, undefined);
    assert.equal(proxyOptions(http({ systemCertificates: true }), () => []).ca, undefined);
  });

  it('names every setting whose change needs a new client', () => {
    assert.deepEqual([...PROXY_SETTINGS].sort(), [
      'http.noProxy',
      'http.proxy',
      'http.proxyAuthorization',
      'http.proxyStrictSSL',
      'http.systemCertificates',
    ]);
  });

  it('never logs the Proxy-Authorization value while the client works', async () => {
    const platform = await startTestPlatform();
    const harness = await createHarness({
      account: { baseUrl: platform.platform.baseUrl, accessKey: ACCESS_KEY, secretKey: SECRET_KEY },
      clientOptions: proxyOptions(http({ proxyAuthorization: 'Basic c2VjcmV0LXByb3h5LXBhc3M=' }), () => []),
    });
    try {
      assert.ok((await harness.channels.getChildren()).length > 0);
      assert.ok(harness.log.lines.length > 0, 'requests were logged');
      assert.ok(!harness.log.text().includes('c2VjcmV0LXByb3h5LXBhc3M='), 'the authorization is not in the log');
    } finally {
      await harness.dispose();
      await platform.close();
    }
  });
});
