/**
 * The signed platform client: one typed method per operation (interface section 4, facts section 4).
 * Requests are signed per facts section 1 and carried per facts section 2; answers are checked
 * envelopes. Loading this module changes no process-wide state (see ./undici.ts).
 */
import { prepareRequest, type AnswerContext, type Operation, type Prepared } from './contract';
import { expectArray, readEnvelope } from './envelope';
import { ApiError, TransportError, mayHaveBeenCarriedOut, type TransportErrorKind } from './errors';
import {
  checkCa,
  checkMaxAnswerBytes,
  checkNoProxy,
  checkProxy,
  checkProxyAuthorization,
  checkRejectUnauthorized,
  normaliseRetry,
  normaliseTimeouts,
  parseBaseUrl,
  requireKey,
} from './options';
import { InputRule, maskParams, requireWellFormed, type WireParams } from './params';
import { OPERATIONS, type ActionName } from './operations';
import type { HttpMethod } from './contract';
import { isRetryable, sleep, waitBeforeRetryMs, type RetryPolicy } from './retry';
import { signingOrder, signParams } from './signing';
import { Transport, type TransportOptions } from './transport';
import { checkUpload, formFields, multipartBody, UPLOAD_PATH } from './upload';
import {
  type Channel,
  type ChannelCategory,
  type ChannelDefinition,
  type ChannelListQuery,
  type ChannelPage,
  type ChannelPlayUrl,
  type ChannelUpdate,
  type Envelope,
  type LiveLogo,
  type LiveLogoInput,
  type LiveTemplate,
  type LiveTemplateInput,
  type LiveTemplateQuery,
  type LiveTemplateUpdate,
  type LogoGroup,
  type LogoGroupInput,
  type SecondTranscodeJob,
  type SecondTranscodeResult,
  type TemplateGroupInput,
  type TemplateGroupSummary,
  type UploadedVideo,
  type UploadInput,
  type UploadProgress,
  type UploadToken,
  type Video,
  type VideoPlayback,
  type VideoQuery,
} from './types';

export interface ClientOptions {
  /** Platform base URL, e.g. http://127.0.0.1:8790; a trailing "/rest" is accepted and stripped. */
  baseUrl: string;
  /**
   * Base URL of uploads (`{uploadBaseUrl}/multipart/upload`, facts section 6): the real service uses a
   * separate host; default the base URL, which is where the local platform takes them.
   */
  uploadBaseUrl?: string;
  accessKey: string;
  secretKey: string;
  /**
   * Per attempt: `connectMs` to connect (10 s), `headersMs` for the answer's headers (30 s), and
   * `bodyMs` for the whole answer, from the start of the attempt to its last byte (30 s): a
   * deadline, not the silence allowed between chunks.
   */
  timeouts?: { connectMs?: number; headersMs?: number; bodyMs?: number };
  /**
   * GET only; POSTs are never retried. `attempts` counts the first one. A 503's Retry-After
   * (seconds or an HTTP-date) is waited for when it asks for at most 10 s; longer, the call fails.
   */
  retry?: { attempts?: number; baseDelayMs?: number; maxDelayMs?: number };
  /** The largest answer read, in bytes (default 16 MiB); a longer one fails as soon as the limit is passed. */
  maxAnswerBytes?: number;
  /** Explicit proxy URL (VS Code's `http.proxy`); otherwise HTTPS_PROXY / HTTP_PROXY (either case). */
  proxy?: string;
  /**
   * Hosts reached without any proxy (VS Code's `http.noProxy`): a list, or NO_PROXY-style text.
   * When absent, NO_PROXY / no_proxy. Applies to the explicit proxy too (see ./proxy.ts).
   */
  noProxy?: string | readonly string[];
  /**
   * The whole Proxy-Authorization value (e.g. `Basic dXNlcjpwYXNz`; VS Code's http.proxyAuthorization),
   * sent to the proxy for CONNECT and for plain-http forwarding. Never logged nor put in an error.
   */
  proxyAuthorization?: string;
  /** Verify the TLS certificates of the platform and of an https:// proxy (default true; VS Code's http.proxyStrictSSL). */
  rejectUnauthorized?: boolean;
  /** Extra CA certificates (PEM) trusted besides Node's defaults, e.g. the system's (VS Code's http.systemCertificates). */
  ca?: readonly string[];
  /** Called once per attempt, after it ends. Never sees the secret or the signature. */
  onRequest?: (entry: RequestLogEntry) => void;
}

export interface CallOptions {
  signal?: AbortSignal;
}

export interface UploadOptions extends CallOptions {
  /** Called as the file is sent (at the start, after each chunk); never slows or fails the upload. */
  onProgress?: (progress: UploadProgress) => void;
}

export interface RequestLogEntry {
  /** The action, or `upload` for `{upload_base}/multipart/upload`. */
  action: ActionName | 'upload';
  method: HttpMethod;
  /** `{base_url}/rest` (or the upload address), no query string. */
  url: string;
  /** Query parameters with the signature (and anything secret-looking) masked, the access key shortened. */
  params: Record<string, string>;
  /** Size of the JSON body (liveCreateChannel, liveUpdate) or of the upload's form. */
  bodyBytes?: number;
  /** 1 for the first try; higher for GET retries. */
  attempt: number;
  durationMs: number;
  /** HTTP status when an answer arrived. */
  status?: number;
  /** Envelope code when an envelope was read. */
  code?: number;
  /** What went wrong when no envelope was read. */
  error?: TransportErrorKind;
}

const VERSION = '2.0';

/** The request headers, the same for every call (the transport copies them where a proxy agent adds to them). */
const HEADERS: Readonly<Record<string, string>> = Object.freeze({ accept: 'application/json' });
const JSON_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  accept: 'application/json',
  'content-type': 'application/json',
});

export class PlatformClient {
  readonly baseUrl: string;
  /** `{upload base}/multipart/upload`. */
  readonly uploadUrl: string;
  private readonly restUrl: string;
  private readonly restPath: string;
  private readonly accessKey: string;
  private readonly secretKey: string;
  private readonly retry: RetryPolicy;
  private readonly onRequest?: (entry: RequestLogEntry) => void;
  private readonly transport: Transport;
  private readonly transportOptions: TransportOptions;
  private readonly upload: { origin: string; path: string };
  /** The transport of an upload host other than the platform's (made on the first upload). */
  private uploadTransport: Transport | undefined;
  private closed = false;
  /** Texts never shown in a message (see readEnvelope). */
  private readonly scrub: readonly string[];
  /** Per action, what is worked out once for all its calls; made on first use (see plan()). */
  private readonly plans = new Map<ActionName, ActionPlan>();

  constructor(options: ClientOptions) {
    if (typeof options !== 'object' || options === null) throw new TypeError('PlatformClient needs an options object');
    const address = parseBaseUrl(options.baseUrl);
    this.baseUrl = address.baseUrl;
    this.restUrl = `${address.origin}${address.restPath}`;
    this.restPath = address.restPath;
    const upload = parseBaseUrl(options.uploadBaseUrl ?? options.baseUrl, 'uploadBaseUrl');
    this.uploadUrl = `${upload.baseUrl}${UPLOAD_PATH}`;
    this.upload = { origin: upload.origin, path: `${upload.baseUrl.slice(upload.origin.length)}${UPLOAD_PATH}` };
    this.accessKey = requireKey('accessKey', options.accessKey);
    this.secretKey = requireKey('secretKey', options.secretKey);
    this.scrub = [this.secretKey];
    const timeouts = normaliseTimeouts(options.timeouts);
    this.retry = normaliseRetry(options.retry);
    const proxy = checkProxy(options.proxy);
    const noProxy = checkNoProxy(options.noProxy);
    const proxyAuthorization = checkProxyAuthorization(options.proxyAuthorization);
    const rejectUnauthorized = checkRejectUnauthorized(options.rejectUnauthorized);
    const ca = checkCa(options.ca);
    const maxAnswerBytes = checkMaxAnswerBytes(options.maxAnswerBytes);
    if (options.onRequest !== undefined && typeof options.onRequest !== 'function') {
      throw new TypeError('PlatformClient option onRequest must be a function');
    }
    this.onRequest = options.onRequest;
    this.transportOptions = {
      origin: address.origin,
      timeouts,
      proxy,
      noProxy,
      proxyAuthorization,
      rejectUnauthorized,
      ca,
      maxAnswerBytes,
    };
    this.transport = new Transport(this.transportOptions);
  }

  // ---- live channels (each a one-liner over its contract in ./operations/) ------------------------

  liveCreateChannel(definition: ChannelDefinition, o?: CallOptions): Promise<Channel> {
    return this.invoke(OPERATIONS.liveCreateChannel, definition, o);
  }

  /** Output groups without `id` are replaced, which changes their play addresses (facts section 4). */
  liveUpdate(update: ChannelUpdate, o?: CallOptions): Promise<Channel> {
    return this.invoke(OPERATIONS.liveUpdate, update, o);
  }

  /** `start` is a 1-based page number; `count` is the total number of matching channels. */
  liveGetChannelsByPage(query: ChannelListQuery = {}, o?: CallOptions): Promise<ChannelPage> {
    return this.invoke(OPERATIONS.liveGetChannelsByPage, query, o);
  }

  liveGetChannelById(id: string, o?: CallOptions): Promise<Channel> {
    return this.invoke(OPERATIONS.liveGetChannelById, { id }, o);
  }

  liveStartChannel(id: string, o?: CallOptions): Promise<Channel> {
    return this.invoke(OPERATIONS.liveStartChannel, { id }, o);
  }

  liveStopChannel(id: string, o?: CallOptions): Promise<Channel> {
    return this.invoke(OPERATIONS.liveStopChannel, { id }, o);
  }

  liveDelete(ids: string[], o?: CallOptions): Promise<void> {
    return this.invoke(OPERATIONS.liveDelete, { ids }, o);
  }

  /** One entry per output group of the given channels. */
  liveGetChannelsPlayUrl(channelIds: string | string[], o?: CallOptions): Promise<ChannelPlayUrl[]> {
    return this.invoke(OPERATIONS.liveGetChannelsPlayUrl, { channelId: channelIds }, o);
  }

  liveChannelTypeList(query: { id?: string; name?: string } = {}, o?: CallOptions): Promise<ChannelCategory[]> {
    return this.invoke(OPERATIONS.liveChannelTypeList, query, o);
  }

  liveChannelTypeCreate(name: string, o?: CallOptions): Promise<ChannelCategory> {
    return this.invoke(OPERATIONS.liveChannelTypeCreate, { name }, o);
  }

  // ---- live templates and logos --------------------------------------------------------------

  liveGetTemplates(query: LiveTemplateQuery = {}, o?: CallOptions): Promise<LiveTemplate[]> {
    return this.invoke(OPERATIONS.liveGetTemplates, query, o);
  }

  liveTemplateCreate(input: LiveTemplateInput, o?: CallOptions): Promise<LiveTemplate> {
    return this.invoke(OPERATIONS.liveTemplateCreate, input, o);
  }

  liveTemplateUpdate(input: LiveTemplateUpdate, o?: CallOptions): Promise<LiveTemplate> {
    return this.invoke(OPERATIONS.liveTemplateUpdate, input, o);
  }

  liveLogoCreate(input: LiveLogoInput, o?: CallOptions): Promise<LiveLogo> {
    return this.invoke(OPERATIONS.liveLogoCreate, input, o);
  }

  liveLogoList(query: { name?: string; id?: string } = {}, o?: CallOptions): Promise<LiveLogo[]> {
    return this.invoke(OPERATIONS.liveLogoList, query, o);
  }

  /** Creates (no `id`) or modifies a logo group; the platform answers `result: ""`, not the id. */
  logoGroup(input: LogoGroupInput, o?: CallOptions): Promise<void> {
    return this.invoke(OPERATIONS.logoGroup, input, o);
  }

  /** Deletes logo groups by id. */
  deleteLogoGroup(input: { ids: string[] }, o?: CallOptions): Promise<void> {
    return this.invoke(OPERATIONS.deleteLogoGroup, input, o);
  }

  getLogoGroupList(o?: CallOptions): Promise<LogoGroup[]> {
    return this.invoke(OPERATIONS.getLogoGroupList, {}, o);
  }

  // ---- on-demand transcoding -----------------------------------------------------------------

  /** Creates (no `id`) or modifies a transcoding template group; returns the group id. */
  templateGroup(input: TemplateGroupInput, o?: CallOptions): Promise<number> {
    return this.invoke(OPERATIONS.templateGroup, input, o);
  }

  templateGroupList(query: { type?: 0 | 1 } = {}, o?: CallOptions): Promise<TemplateGroupSummary[]> {
    return this.invoke(OPERATIONS.templateGroupList, query, o);
  }

  /** Deletes transcoding template groups by id. */
  deleteTemplateGroup(input: { ids: string[] }, o?: CallOptions): Promise<void> {
    return this.invoke(OPERATIONS.deleteTemplateGroup, input, o);
  }

  /**
   * Starts a second transcoding. Per-video outcomes (code 0 or an error code) are returned, not
   * thrown; only a failure of the whole call (a top-level code such as Codes.exception, transport) throws.
   */
  secondTranscodeV2(job: SecondTranscodeJob, o?: CallOptions): Promise<SecondTranscodeResult[]> {
    return this.invoke(OPERATIONS.secondTranscodeV2, job, o);
  }

  // ---- videos ----------------------------------------------------------------------------------

  /** `start` is a 1-based page number (this project's choice, as for the channel list). */
  queryVideo(query: VideoQuery, o?: CallOptions): Promise<Video[]> {
    return this.invoke(OPERATIONS.queryVideo, query, o);
  }

  /** One playback entry per id; unknown ids come back with nulls. */
  getTranscodedVideos(ids: string[], o?: CallOptions): Promise<VideoPlayback[]> {
    return this.invoke(OPERATIONS.getTranscodedVideos, { ids }, o);
  }

  getVideoInfo(videoId: string, o?: CallOptions): Promise<Video> {
    return this.invoke(OPERATIONS.getVideoInfo, { videoId }, o);
  }

  deleteVideo(videoIds: string[], o?: CallOptions): Promise<void> {
    return this.invoke(OPERATIONS.deleteVideo, { videoIds }, o);
  }

  /** The access token for uploads (facts section 6). */
  getToken(o?: CallOptions): Promise<UploadToken> {
    return this.invoke(OPERATIONS.getToken, {}, o);
  }

  /**
   * Uploads one file (facts section 6): `POST {upload base}/multipart/upload`, a multipart form with
   * the token first, the given fields, then the file, read from disk as it is sent. With no `token`
   * one is asked for with getToken. The answer's envelope is checked like every call's (a refusal is
   * an ApiError); never retried (a POST), and a failure after sending began may hide a done upload.
   * Returns the platform's record of each uploaded file.
   */
  async uploadVideo(input: UploadInput, o: UploadOptions = {}): Promise<UploadedVideo[]> {
    const action = 'upload';
    const url = this.uploadUrl;
    const signal = o?.signal;
    const onProgress = o?.onProgress;
    if (onProgress !== undefined && typeof onProgress !== 'function') {
      throw new InputRule('onProgress', 'must be a function').toError(action, url);
    }
    let checked: Awaited<ReturnType<typeof checkUpload>>;
    try {
      checked = await checkUpload(input);
      // Checked with a stand-in token before one is asked for: bad input sends nothing at all.
      formFields(input, input.token ?? 'token');
    } catch (error) {
      if (error instanceof InputRule) throw error.toError(action, url);
      throw error;
    }
    this.checkOpen(action, url);
    const token = input.token ?? (await this.getToken({ signal })).accessToken;
    this.checkOpen(action, url);
    const fields = formFields(input, token);
    const body = multipartBody({ fields, file: checked.file });
    const report = (progress: UploadProgress): void => {
      try {
        onProgress?.(progress);
      } catch {
        // A failing progress display must not fail the upload.
      }
    };
    const started = performance.now();
    const outcome: Outcome = {};
    const logged = (): void => {
      if (!this.onRequest) return;
      const params = maskParams(Object.fromEntries(fields), this.secretKey);
      params.file = checked.file.name;
      const entry: RequestLogEntry = {
        action,
        method: 'POST',
        url,
        params,
        bodyBytes: body.length,
        attempt: 1,
        durationMs: Math.round((performance.now() - started) * 1000) / 1000,
        ...outcome,
      };
      try {
        this.onRequest(entry);
      } catch {
        // A failing logger must not turn a good call into a failed one.
      }
    };
    try {
      const answer = await this.uploadTransportFor().exchange({
        action,
        url,
        method: 'POST',
        path: this.upload.path,
        headers: {
          accept: 'application/json',
          'content-type': body.contentType,
          'content-length': String(body.length),
        },
        body: body.stream(report),
        signal,
      });
      outcome.status = answer.status;
      const envelope = readEnvelope(answer.text, {
        action,
        url,
        scrub: [this.secretKey, token],
        note: mayHaveBeenCarriedOut('POST'),
      });
      outcome.code = envelope.code;
      logged();
      return expectArray<UploadedVideo>(envelope.result, { action, url, note: mayHaveBeenCarriedOut('POST') });
    } catch (error) {
      if (error instanceof TransportError) {
        outcome.error = error.kind;
        if (error.status !== undefined) outcome.status = error.status;
      } else if (error instanceof ApiError) {
        outcome.code = error.code;
      }
      logged();
      throw error;
    }
  }

  /** Closes the connection pool; calls made afterwards fail with a clear error. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all([this.transport.close(), this.uploadTransport?.close()]);
  }

  private checkOpen(action: string, url: string): void {
    if (this.closed)
      throw new TransportError('network', `${action}: the client for ${url} has been closed`, action, url);
  }

  /** The platform's own pool when uploads go to its origin (the local platform), else one for the upload host. */
  private uploadTransportFor(): Transport {
    if (this.upload.origin === this.transportOptions.origin) return this.transport;
    return (this.uploadTransport ??= new Transport({ ...this.transportOptions, origin: this.upload.origin }));
  }

  // ---- the one way a request is made ------------------------------------------------------------

  /** What one action's calls share: made on its first call. */
  private plan(action: ActionName): ActionPlan {
    let plan = this.plans.get(action);
    if (plan === undefined) {
      const op = OPERATIONS[action];
      // Every name prepareRequest may give this operation, and the ones signed in beside them.
      const order = signingOrder([...Object.keys(op.params), ...SIGNED_NAMES]);
      plan = {
        context: { action, url: this.restUrl, scrub: this.scrub, note: mayHaveBeenCarriedOut(op.method) },
        order,
        plainNames: order.every((name) => percentEncoded(name) === name),
      };
      this.plans.set(action, plan);
    }
    return plan;
  }

  /**
   * Prepares, signs, sends and checks one operation by its contract. GETs are retried on network
   * failures and 5xx (re-signed with a fresh timestamp each time); POSTs are sent once. The contract's
   * reader turns the envelope into the method's result here, so that the method need not be an async
   * function awaiting this one (one promise and one hop fewer a call); what it throws is not the
   * attempt's failure (not logged nor retried).
   */
  private async invoke<In, Out>(op: Operation<In, Out>, input: In, o: CallOptions | undefined): Promise<Out> {
    const action = op.action as ActionName;
    let prepared: Prepared;
    try {
      prepared = prepareRequest(op, input);
      requireWellFormed(prepared.params);
    } catch (error) {
      if (error instanceof InputRule) throw error.toError(action, this.restUrl);
      throw error;
    }
    const signal = o?.signal;
    const method = op.method;
    const plan = this.plan(action);
    const attempts = method === 'GET' ? this.retry.attempts : 1;
    for (let attempt = 1; ; attempt++) {
      // Checked before every attempt: close() may come while a GET waits to retry.
      if (this.closed) {
        throw new TransportError(
          'network',
          `${action}: the client for ${this.restUrl} has been closed`,
          action,
          this.restUrl,
        );
      }
      // prepareRequest made these parameters for this call alone: signed in place, not copied (each attempt
      // sets the same names again, so their order stays).
      const signed = prepared.params;
      signed.accessKey = this.accessKey;
      signed.action = action;
      signed.version = VERSION;
      signed.timestamp = String(Date.now());
      const signature = signParams(signed, this.secretKey, plan.order);
      // Timed only for the log: nothing else reads it.
      const started = this.onRequest ? performance.now() : 0;
      // The answer's status, for the log of an attempt that fails after it (the log is made only when someone listens).
      let status: number | undefined;
      let envelope: Envelope<unknown>;
      try {
        const answer = await this.transport.exchange({
          action,
          url: this.restUrl,
          method,
          // The signature is lowercase hex: nothing to encode.
          path: `${this.restPath}?${queryString(signed, plan.plainNames)}&signature=${signature}`,
          headers: prepared.json !== undefined ? JSON_HEADERS : HEADERS,
          body: prepared.json,
          signal,
        });
        status = answer.status;
        envelope = readEnvelope(answer.text, plan.context);
        if (this.onRequest)
          this.log(action, method, attempt, signed, prepared, started, { status, code: envelope.code });
      } catch (error) {
        if (this.onRequest) this.log(action, method, attempt, signed, prepared, started, failure(error, status));
        if (!(error instanceof TransportError) || attempt >= attempts || !isRetryable(error) || signal?.aborted)
          throw error;
        await sleep(
          waitBeforeRetryMs(error, attempt, this.retry),
          signal,
          () =>
            new TransportError('aborted', `${action}: the call to ${this.restUrl} was cancelled`, action, this.restUrl),
        );
        continue;
      }
      return op.read === undefined ? (undefined as Out) : op.read(envelope, plan.context);
    }
  }

  /** Builds the log entry only when someone listens. */
  private log(
    action: ActionName,
    method: HttpMethod,
    attempt: number,
    signed: Readonly<WireParams>,
    prepared: Prepared,
    started: number,
    outcome: Outcome,
  ): void {
    if (!this.onRequest) return;
    const params = maskParams(signed, this.secretKey);
    params.signature = '***';
    const entry: RequestLogEntry = {
      action,
      method,
      url: this.restUrl,
      params,
      attempt,
      durationMs: Math.round((performance.now() - started) * 1000) / 1000,
      ...outcome,
    };
    if (prepared.json !== undefined) entry.bodyBytes = Buffer.byteLength(prepared.json);
    try {
      this.onRequest(entry);
    } catch {
      // A failing logger must not turn a good call into a failed one.
    }
  }
}

/** The names the client signs in beside an operation's own (see invoke()). */
const SIGNED_NAMES = ['accessKey', 'action', 'version', 'timestamp'] as const;

interface ActionPlan {
  /** Action, address, the texts to scrub and, for a POST, the warning that a garbled answer may hide a done operation. */
  context: AnswerContext;
  /** Every name the action may send, in signing order. */
  order: readonly string[];
  /** None of those names has anything to percent-encode (the contract's names are plain words). */
  plainNames: boolean;
}

interface Outcome {
  status?: number;
  code?: number;
  error?: TransportErrorKind;
}

/** What the log says of a failed attempt: the transport's kind of failure and status, or the envelope's code. */
function failure(error: unknown, status: number | undefined): Outcome {
  const outcome: Outcome = status === undefined ? {} : { status };
  if (error instanceof TransportError) {
    outcome.error = error.kind;
    if (error.status !== undefined) outcome.status = error.status;
  } else if (error instanceof ApiError) {
    outcome.code = error.code;
  }
  return outcome;
}

/** Query string with every value percent-encoded (spaces as %20, never "+"). */
function queryString(params: Readonly<WireParams>, plainNames: boolean): string {
  let query = '';
  for (const name in params) {
    query += `${query === '' ? '' : '&'}${plainNames ? name : percentEncoded(name)}=${percentEncoded(params[name]!)}`;
  }
  return query;
}

/** The ASCII characters encodeURIComponent leaves as they are: A-Z a-z 0-9 - _ . ! ~ * ' ( ). */
const UNRESERVED = new Uint8Array(128);
for (const char of "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.!~*'()") {
  UNRESERVED[char.charCodeAt(0)] = 1;
}

/**
 * encodeURIComponent(text), without its call for the names and most values (numbers, sort keys, the
 * timestamp), which have nothing to encode: it is the costlier part of building the query (bench/client.bench.ts).
 */
function percentEncoded(text: string): string {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 128 || UNRESERVED[code] === 0) return encodeURIComponent(text);
  }
  return text;
}
