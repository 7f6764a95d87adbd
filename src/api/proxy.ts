/**
 * Which proxy, if any, carries the calls to one platform address. The address of a client never
 * changes, so this is decided once, when the client is made:
 *
 * - the proxy: the explicit `proxy` option (VS Code's `http.proxy`), else `http_proxy` /
 *   `HTTP_PROXY` for an http:// platform, `https_proxy` / `HTTPS_PROXY` (falling back to the
 *   http one) for an https:// platform;
 * - the exceptions: the `noProxy` option when given (VS Code's `http.noProxy`), else `no_proxy` /
 *   `NO_PROXY`. They apply to an explicit proxy too, as curl and VS Code do, so a platform on this
 *   machine or the company network can be reached directly while the rest goes through the proxy.
 *
 * An exception is `*` (everything), a host name (that host and its subdomains: `example.com`
 * matches `api.example.com`), `.example.com` or `*.example.com` (subdomains and the name itself),
 * or an IP address (IPv6 with or without brackets); any of them may end in `:port`.
 */

export interface ProxyChoice {
  /** The proxy URL, or undefined for a direct connection. */
  proxy?: string;
  /** Where the proxy came from, for messages. */
  source?: 'option' | 'environment';
}

function env(names: readonly string[], vars: NodeJS.ProcessEnv): string | undefined {
  for (const name of names) {
    const value = vars[name]?.trim();
    if (value) return value;
  }
  return undefined;
}

/**
 * A proxy variable as a URL: `proxy.corp:3128` (no scheme, as curl accepts) means http://. A value
 * that is no URL at all is refused naming the variable, never echoing it (it may hold a password).
 */
function proxyVariable(names: readonly string[], vars: NodeJS.ProcessEnv): string | undefined {
  for (const name of names) {
    const value = vars[name]?.trim();
    if (!value) continue;
    const url = /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`;
    try {
      new URL(url);
    } catch {
      throw new TypeError(
        `PlatformClient: the ${name} environment variable is not a proxy URL such as http://proxy.example:3128`,
      );
    }
    return url;
  }
  return undefined;
}

/** Lower case, without the brackets of an IPv6 literal. */
function bareHost(host: string): string {
  const lower = host.toLowerCase();
  return lower.startsWith('[') && lower.endsWith(']') ? lower.slice(1, -1) : lower;
}

/** Whether `noProxy` (comma or space separated exceptions) says to reach `origin` directly. */
export function bypassesProxy(origin: URL, noProxy: string): boolean {
  const host = bareHost(origin.hostname);
  const port = origin.port || (origin.protocol === 'https:' ? '443' : '80');
  for (const raw of noProxy.split(/[\s,]+/)) {
    const entry = raw.trim().toLowerCase();
    if (entry === '') continue;
    if (entry === '*') return true;
    let name = entry;
    let entryPort: string | undefined;
    // host:port, [v6]:port; a bare IPv6 address has several colons and no port.
    const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
    if (bracketed) {
      name = bracketed[1]!;
      entryPort = bracketed[2];
    } else {
      const hostPort = /^([^:]+):(\d+)$/.exec(entry);
      if (hostPort) {
        name = hostPort[1]!;
        entryPort = hostPort[2];
      }
    }
    if (entryPort !== undefined && entryPort !== port) continue;
    if (name.startsWith('*.')) name = name.slice(1);
    if (name.startsWith('.')) {
      if (host.endsWith(name) || host === name.slice(1)) return true;
    } else if (host === name || host.endsWith(`.${name}`)) {
      return true;
    }
  }
  return false;
}

function fromEnvironment(url: URL, vars: NodeJS.ProcessEnv): string | undefined {
  if (url.protocol === 'https:') {
    const https = proxyVariable(['https_proxy', 'HTTPS_PROXY'], vars);
    if (https !== undefined) return https;
  }
  return proxyVariable(['http_proxy', 'HTTP_PROXY'], vars);
}

/** The proxy for calls to `origin` (see the module comment), or none. */
export function chooseProxy(
  origin: string,
  explicit: string | undefined,
  noProxy: string | undefined,
  vars: NodeJS.ProcessEnv = process.env,
): ProxyChoice {
  const url = new URL(origin);
  const proxy = explicit ?? fromEnvironment(url, vars);
  if (proxy === undefined) return {};
  const exceptions = noProxy ?? env(['no_proxy', 'NO_PROXY'], vars) ?? '';
  if (bypassesProxy(url, exceptions)) return {};
  return { proxy, source: explicit !== undefined ? 'option' : 'environment' };
}
