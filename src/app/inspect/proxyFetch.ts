import type { ClientOptions } from '../../api/client';
import { trustedCertificates } from '../../api/certificates';
import { chooseProxy } from '../../api/proxy';
import { loadUndici, type Dispatcher } from '../../api/undici';
import type * as Undici from 'undici';
import type { FetchPort } from '../../inspector/source';

/**
 * The inspector's fetch for the extension: the same proxy, exceptions, proxy authorization and TLS choices as the
 * platform client (src/api/transport.ts), from the same client options (VS Code's http.* settings), for any
 * address a stream names. Its own undici dispatchers; the process-wide (global) dispatcher is never replaced.
 */
export class ProxyFetch {
  private readonly dispatchers = new Map<string, Dispatcher>();
  constructor(private readonly options: () => Partial<ClientOptions>) {}

  /** A fetch port over the options as they are now (a settings change takes effect on the next inspection). */
  port(): FetchPort {
    const options = this.options();
    const noProxy = Array.isArray(options.noProxy)
      ? options.noProxy.join(',')
      : (options.noProxy as string | undefined);
    return (url, init) => this.request(url, init, options, noProxy);
  }

  /** One GET whose body the caller reads as a stream (and can stop reading): a bounded download. */
  get(url: string, signal: AbortSignal): Promise<Undici.Response> {
    const options = this.options();
    const noProxy = Array.isArray(options.noProxy)
      ? options.noProxy.join(',')
      : (options.noProxy as string | undefined);
    return this.request(url, { method: 'GET', signal }, options, noProxy);
  }

  private request(
    url: string,
    init: Parameters<FetchPort>[1],
    options: Partial<ClientOptions>,
    noProxy: string | undefined,
  ): Promise<Undici.Response> {
    const choice = chooseProxy(new URL(url).origin, options.proxy, noProxy);
    const dispatcher = this.dispatcher(choice.proxy, options);
    const { fetch } = loadUndici();
    return fetch(url, { method: init.method, signal: init.signal, headers: init.headers, dispatcher });
  }

  /**
   * The environment for ffmpeg and ffprobe reading `address` themselves (contact sheet, stills, preview): ffmpeg's
   * own HTTP client takes its proxy from `http_proxy` (for https:// too, as a CONNECT tunnel) and knows nothing of
   * VS Code's settings, so the proxy chosen here for the address (or none: an exception, no proxy) is handed to it,
   * with a Basic proxy authorization as the URL's user and password. Undefined for files.
   */
  toolEnv(address: string): Record<string, string> | undefined {
    if (!/^https?:\/\//i.test(address)) return undefined;
    const options = this.options();
    const noProxy = Array.isArray(options.noProxy)
      ? options.noProxy.join(',')
      : (options.noProxy as string | undefined);
    const choice = chooseProxy(new URL(address).origin, options.proxy, noProxy);
    // Empty: ffmpeg connects directly (it would otherwise read http_proxy of the environment, ignoring no_proxy
    // as decided here).
    if (!choice.proxy) return { http_proxy: '', no_proxy: '' };
    const proxy = new URL(choice.proxy);
    const basic = /^Basic\s+(\S+)$/i.exec(options.proxyAuthorization ?? '')?.[1];
    if (basic && !proxy.username) {
      const [user = '', ...password] = Buffer.from(basic, 'base64').toString('utf8').split(':');
      proxy.username = encodeURIComponent(user);
      proxy.password = encodeURIComponent(password.join(':'));
    }
    return { http_proxy: proxy.href, no_proxy: '' };
  }

  private dispatcher(proxy: string | undefined, options: Partial<ClientOptions>): Dispatcher {
    const ca = trustedCertificates(options.ca);
    const tls = { rejectUnauthorized: options.rejectUnauthorized ?? true, ...(ca ? { ca } : {}) };
    // One dispatcher per proxy and TLS choice: connections are reused across segments.
    const key = JSON.stringify([
      proxy ?? '',
      tls.rejectUnauthorized,
      options.proxyAuthorization ?? '',
      ca?.length ?? 0,
    ]);
    let dispatcher = this.dispatchers.get(key);
    if (!dispatcher) {
      const { Agent, ProxyAgent } = loadUndici();
      const connectTimeout = options.timeouts?.connectMs ?? 10_000;
      dispatcher =
        proxy !== undefined
          ? new ProxyAgent({
              uri: proxy,
              ...(options.proxyAuthorization !== undefined ? { token: options.proxyAuthorization } : {}),
              proxyTunnel: false,
              connectTimeout,
              proxyTls: { ...tls, timeout: connectTimeout },
              requestTls: { ...tls, timeout: connectTimeout },
            })
          : new Agent({ connectTimeout, connect: tls });
      this.dispatchers.set(key, dispatcher);
    }
    return dispatcher;
  }

  async close(): Promise<void> {
    const all = [...this.dispatchers.values()];
    this.dispatchers.clear();
    await Promise.allSettled(all.map((dispatcher) => dispatcher.close()));
  }
}
