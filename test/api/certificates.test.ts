import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rootCertificates } from 'node:tls';
import { trustedCertificates } from '../../src/api/certificates';
import { SELF_SIGNED_CERT } from './selfSigned';

describe('trusted certificates', () => {
  it("keeps Node's defaults when nothing extra is given", () => {
    assert.equal(trustedCertificates(undefined, {}), undefined);
    assert.equal(trustedCertificates([], {}), undefined);
  });

  it('adds the extra ones to the bundled roots and to NODE_EXTRA_CA_CERTS, which a ca option would drop', () => {
    const dir = mkdtempSync(join(tmpdir(), 'vpt-ca-'));
    try {
      const file = join(dir, 'extra.pem');
      writeFileSync(file, `# company CA\n${SELF_SIGNED_CERT}`);
      const trusted = trustedCertificates(['extra-pem'], { NODE_EXTRA_CA_CERTS: file })!;
      assert.deepEqual(trusted.slice(0, rootCertificates.length), [...rootCertificates]);
      assert.equal(trusted.at(-2), SELF_SIGNED_CERT.trim());
      assert.equal(trusted.at(-1), 'extra-pem');
      const unreadable = trustedCertificates(['extra-pem'], { NODE_EXTRA_CA_CERTS: join(dir, 'missing.pem') })!;
      assert.equal(unreadable.length, rootCertificates.length + 1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
