/**
 * The CA certificates a client trusts: Node's defaults plus the `ca` option (e.g. the system
 * certificates VS Code's http.systemCertificates stands for, or a company proxy's CA).
 *
 * Why the defaults are listed here: a `ca` given to Node's TLS replaces its trusted set instead of
 * adding to it, and that set is the bundled Mozilla roots plus the file named by
 * NODE_EXTRA_CA_CERTS (read by Node at start-up). Both are put back in front of the extra ones.
 */
import { readFileSync } from 'node:fs';
import { rootCertificates } from 'node:tls';

/** PEM blocks of NODE_EXTRA_CA_CERTS; an unreadable file adds nothing (Node itself warns about it at start-up). */
function extraFromEnvironment(vars: NodeJS.ProcessEnv): string[] {
  const file = vars.NODE_EXTRA_CA_CERTS;
  if (!file) return [];
  try {
    return readFileSync(file, 'utf8').match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  } catch {
    return [];
  }
}

/** The trusted set for `extra` certificates, or undefined (Node's own defaults) when there are none. */
export function trustedCertificates(
  extra: readonly string[] | undefined,
  vars: NodeJS.ProcessEnv = process.env,
): string[] | undefined {
  if (extra === undefined || extra.length === 0) return undefined;
  return [...rootCertificates, ...extraFromEnvironment(vars), ...extra];
}
