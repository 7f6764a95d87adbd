/**
 * The signed platform client: one typed method per operation (interface section 4, facts section 4).
 * Requests are signed per facts section 1 and carried per facts section 2; answers are checked
 * envelopes. Loading this module changes no process-wide state (see ./undici.ts).
 */
import { expectArray, expectRecord, isRecord, readEnvelope } from './envelope';
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
import {
  InputRule,
  addScalars,
  idList,
  jsonText,
  maskParams,
  positiveInteger,
  requireId,
  requireWellFormed,
  type WireParams,
} from './params';
import { isRetryable, sleep, waitBeforeRetryMs, type RetryPolicy } from './retry';
import { signParams } from './signing';
import { Transport, type TransportOptions } from './transport';
import { checkUpload, formFields, multipartBody, UPLOAD_PATH } from './upload';
import {
  ACTIONS,
  type ActionName,
  type Channel,
  type ChannelCategory,
  type ChannelDefinition,
  type ChannelListQuery,
  type ChannelPage,
  type ChannelPlayUrl,
  type ChannelUpdate,
  type Envelope,
  type HttpMethod,
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

/** How each action travels. */
const CARRIAGE: Readonly<Record<ActionName, { method: HttpMethod }>> = ACTIONS;

interface Prepared {
  params: WireParams;
  /** JSON text body (liveCreateChannel / liveUpdate only). */
  json?: string;
}

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
  /** Per action, what its checks name and what its messages never show; made on first use (see context()). */
  private readonly contexts = new Map<ActionName, ActionContext>();

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

  // ---- live channels -------------------------------------------------------------------------

  liveCreateChannel(definition: ChannelDefinition, o?: CallOptions): Promise<Channel> {
    return this.call(
      'liveCreateChannel',
      o,
      () => ({
        params: {},
        json: jsonBody('definition', definition),
      }),
      (env, context) => expectRecord<Channel>(env.result, context),
    );
  }

  /** Output groups without `id` are replaced, which changes their play addresses (facts section 4). */
  liveUpdate(update: ChannelUpdate, o?: CallOptions): Promise<Channel> {
    return this.call(
      'liveUpdate',
      o,
      () => {
        requireId('id', update?.id);
        return { params: {}, json: jsonBody('update', update) };
      },
      (env, context) => expectRecord<Channel>(env.result, context),
    );
  }

  /** `start` is a 1-based page number; `count` is the total number of matching channels. */
  liveGetChannelsByPage(query: ChannelListQuery = {}, o?: CallOptions): Promise<ChannelPage> {
    return this.call(
      'liveGetChannelsByPage',
      o,
      () => {
        const { start, number, sort, order, searchType, keyword } = optionalQuery(query);
        if (start !== undefined) positiveInteger('start', start);
        if (number !== undefined) positiveInteger('number', number);
        return { params: addScalars({}, { start, number, sort, order, searchType, keyword }) };
      },
      (env, context) => {
        const channels = expectArray<Channel>(env.result, context);
        if (typeof env.count !== 'number') {
          throw new TransportError(
            'bad-envelope',
            `liveGetChannelsByPage: ${this.restUrl} answered without the numeric "count" of matching channels${context.note}`,
            context.action,
            context.url,
          );
        }
        return { channels, count: env.count };
      },
    );
  }

  liveGetChannelById(id: string, o?: CallOptions): Promise<Channel> {
    return this.call(
      'liveGetChannelById',
      o,
      () => ({ params: { id: requireId('id', id) } }),
      (env, context) => expectRecord<Channel>(env.result, context),
    );
  }

  liveStartChannel(id: string, o?: CallOptions): Promise<Channel> {
    return this.call(
      'liveStartChannel',
      o,
      () => ({ params: { id: requireId('id', id) } }),
      (env, context) => expectRecord<Channel>(env.result, context),
    );
  }

  liveStopChannel(id: string, o?: CallOptions): Promise<Channel> {
    return this.call(
      'liveStopChannel',
      o,
      () => ({ params: { id: requireId('id', id) } }),
      (env, context) => expectRecord<Channel>(env.result, context),
    );
  }

  async liveDelete(ids: string[], o?: CallOptions): Promise<void> {
    await this.call('liveDelete', o, () => ({ params: { ids: idList('ids', ids) } }));
  }

  /** One entry per output group of the given channels. */
  liveGetChannelsPlayUrl(channelIds: string | string[], o?: CallOptions): Promise<ChannelPlayUrl[]> {
    return this.call(
      'liveGetChannelsPlayUrl',
      o,
      () => ({
        params: { channelId: idList('channelId', channelIds) },
      }),
      (env, context) => expectArray<ChannelPlayUrl>(env.result, context),
    );
  }

  liveChannelTypeList(query: { id?: string; name?: string } = {}, o?: CallOptions): Promise<ChannelCategory[]> {
    return this.call(
      'liveChannelTypeList',
      o,
      () => {
        const { id, name } = optionalQuery(query);
        return { params: addScalars({}, { id, name }) };
      },
      (env, context) => expectArray<ChannelCategory>(env.result, context),
    );
  }

  liveChannelTypeCreate(name: string, o?: CallOptions): Promise<ChannelCategory> {
    return this.call(
      'liveChannelTypeCreate',
      o,
      () => ({ params: { name: requireText('name', name) } }),
      (env, context) => expectRecord<ChannelCategory>(env.result, context),
    );
  }

  // ---- live templates and logos --------------------------------------------------------------

  liveGetTemplates(query: LiveTemplateQuery = {}, o?: CallOptions): Promise<LiveTemplate[]> {
    return this.call(
      'liveGetTemplates',
      o,
      () => {
        const { name, type, transcodeType } = optionalQuery(query);
        return { params: addScalars({}, { name, type, transcodeType }) };
      },
      (env, context) => expectArray<LiveTemplate>(env.result, context),
    );
  }

  liveTemplateCreate(input: LiveTemplateInput, o?: CallOptions): Promise<LiveTemplate> {
    return this.call(
      'liveTemplateCreate',
      o,
      () => ({ params: liveTemplateParams(input) }),
      (env, context) => expectRecord<LiveTemplate>(env.result, context),
    );
  }

  liveTemplateUpdate(input: LiveTemplateUpdate, o?: CallOptions): Promise<LiveTemplate> {
    return this.call(
      'liveTemplateUpdate',
      o,
      () => ({
        params: { id: requireId('id', input?.id), ...liveTemplateParams(input) },
      }),
      (env, context) => expectRecord<LiveTemplate>(env.result, context),
    );
  }

  liveLogoCreate(input: LiveLogoInput, o?: CallOptions): Promise<LiveLogo> {
    return this.call(
      'liveLogoCreate',
      o,
      () => {
        const { name, uri, width, height, offsetWidth, offsetHeight, opacity, resize } = requireObject('input', input);
        return { params: addScalars({}, { name, uri, width, height, offsetWidth, offsetHeight, opacity, resize }) };
      },
      (env, context) => expectRecord<LiveLogo>(env.result, context),
    );
  }

  liveLogoList(query: { name?: string; id?: string } = {}, o?: CallOptions): Promise<LiveLogo[]> {
    return this.call(
      'liveLogoList',
      o,
      () => {
        const { name, id } = optionalQuery(query);
        return { params: addScalars({}, { name, id }) };
      },
      (env, context) => expectArray<LiveLogo>(env.result, context),
    );
  }

  /** Creates (no `id`) or modifies a logo group; the platform answers `result: ""`, not the id. */
  async logoGroup(input: LogoGroupInput, o?: CallOptions): Promise<void> {
    await this.call('logoGroup', o, () => {
      const { id, name, logos } = requireObject('input', input);
      if (!Array.isArray(logos)) throw new InputRule('logos', 'must be an array of logo items');
      return { params: addScalars({ logos: jsonText('logos', logos) }, { id, name }) };
    });
  }

  /** Deletes logo groups by id. */
  async deleteLogoGroup(input: { ids: string[] }, o?: CallOptions): Promise<void> {
    await this.call('deleteLogoGroup', o, () => ({
      params: { ids: idList('ids', requireObject('input', input).ids) },
    }));
  }

  getLogoGroupList(o?: CallOptions): Promise<LogoGroup[]> {
    return this.call(
      'getLogoGroupList',
      o,
      () => ({ params: {} }),
      (env, context) => expectArray<LogoGroup>(env.result, context),
    );
  }

  // ---- on-demand transcoding -----------------------------------------------------------------

  /** Creates (no `id`) or modifies a transcoding template group; returns the group id. */
  async templateGroup(input: TemplateGroupInput, o?: CallOptions): Promise<number> {
    const env = await this.call('templateGroup', o, () => {
      const { id, name, type, trailor, trailorDuration, logoGroupId, transcodeTemplates } = requireObject(
        'input',
        input,
      );
      if (!Array.isArray(transcodeTemplates))
        throw new InputRule('transcodeTemplates', 'must be an array of template items');
      // Each item's advancedArguments travels as JSON text inside the JSON text (interface section 4.3).
      // Items that are not objects travel as they are: judging them is the platform's job.
      const items = transcodeTemplates.map((item, index) =>
        !isRecord(item) || item.advancedArguments === undefined || typeof item.advancedArguments === 'string'
          ? item
          : {
              ...item,
              advancedArguments: jsonText(`transcodeTemplates[${index}].advancedArguments`, item.advancedArguments),
            },
      );
      return {
        params: addScalars(
          { transcodeTemplates: jsonText('transcodeTemplates', items) },
          { id, name, type, trailor, trailorDuration, logoGroupId },
        ),
      };
    });
    const groupId = typeof env.result === 'string' && /^\d+$/.test(env.result) ? Number(env.result) : env.result;
    if (typeof groupId !== 'number' || !Number.isInteger(groupId)) {
      throw new TransportError(
        'bad-envelope',
        `templateGroup: ${this.restUrl} answered with a "result" that is not the group id${this.context('templateGroup').note}`,
        'templateGroup',
        this.restUrl,
      );
    }
    return groupId;
  }

  templateGroupList(query: { type?: 0 | 1 } = {}, o?: CallOptions): Promise<TemplateGroupSummary[]> {
    return this.call(
      'templateGroupList',
      o,
      () => ({
        params: addScalars({}, { type: optionalQuery(query).type }),
      }),
      (env, context) => expectArray<TemplateGroupSummary>(env.result, context),
    );
  }

  /** Deletes transcoding template groups by id. */
  async deleteTemplateGroup(input: { ids: string[] }, o?: CallOptions): Promise<void> {
    await this.call('deleteTemplateGroup', o, () => ({
      params: { ids: idList('ids', requireObject('input', input).ids) },
    }));
  }

  /**
   * Starts a second transcoding. Per-video outcomes (code 0 or an error code) are returned, not
   * thrown; only a failure of the whole call (a top-level code such as Codes.exception, transport) throws.
   */
  secondTranscodeV2(job: SecondTranscodeJob, o?: CallOptions): Promise<SecondTranscodeResult[]> {
    return this.call(
      'secondTranscodeV2',
      o,
      () => {
        const { videoIds, transcodeTemplates, transcodeTemplateGroupId, videoType, trailor, trailorDuration, replace } =
          requireObject('job', job);
        if (typeof replace !== 'boolean') throw new InputRule('replace', 'must be true (replace) or false (save as)');
        const params: WireParams = { videoIds: idList('videoIds', videoIds) };
        if (transcodeTemplates !== undefined)
          params.transcodeTemplates = jsonText('transcodeTemplates', transcodeTemplates);
        return {
          params: addScalars(params, { transcodeTemplateGroupId, videoType, trailor, trailorDuration, replace }),
        };
      },
      (env, context) => expectArray<SecondTranscodeResult>(env.result, context),
    );
  }

  // ---- videos ----------------------------------------------------------------------------------

  /** `start` is a 1-based page number (this project's choice, as for the channel list). */
  queryVideo(query: VideoQuery, o?: CallOptions): Promise<Video[]> {
    return this.call(
      'queryVideo',
      o,
      () => {
        const { start, number, sort, order, searchType, keyword, categoryId, videoType, status } = requireObject(
          'query',
          query,
        );
        positiveInteger('start', start);
        positiveInteger('number', number);
        requireText('sort', sort);
        requireText('order', order);
        return {
          params: addScalars({}, { start, number, sort, order, searchType, keyword, categoryId, videoType, status }),
        };
      },
      (env, context) => expectArray<Video>(env.result, context),
    );
  }

  /** One playback entry per id; unknown ids come back with nulls. */
  getTranscodedVideos(ids: string[], o?: CallOptions): Promise<VideoPlayback[]> {
    return this.call(
      'getTranscodedVideos',
      o,
      () => ({ params: { ids: idList('ids', ids) } }),
      (env, context) => expectArray<VideoPlayback>(env.result, context),
    );
  }

  getVideoInfo(videoId: string, o?: CallOptions): Promise<Video> {
    return this.call(
      'getVideoInfo',
      o,
      () => ({ params: { videoId: requireId('videoId', videoId) } }),
      (env, context) => expectRecord<Video>(env.result, context),
    );
  }

  async deleteVideo(videoIds: string[], o?: CallOptions): Promise<void> {
    await this.call('deleteVideo', o, () => ({ params: { videoIds: idList('videoIds', videoIds) } }));
  }

  /** The access token for uploads (facts section 6). */
  getToken(o?: CallOptions): Promise<UploadToken> {
    return this.call(
      'getToken',
      o,
      () => ({ params: {} }),
      (env, context) => expectRecord<UploadToken>(env.result, context),
    );
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

  /** Action, address, the texts to scrub and, for a POST, the warning that a garbled answer may hide a done operation. */
  private context(action: ActionName): ActionContext {
    let context = this.contexts.get(action);
    if (context === undefined) {
      context = {
        action,
        url: this.restUrl,
        scrub: this.scrub,
        note: mayHaveBeenCarriedOut(CARRIAGE[action].method),
      };
      this.contexts.set(action, context);
    }
    return context;
  }

  /**
   * Prepares, signs, sends and checks one operation. GETs are retried on network failures and 5xx
   * (re-signed with a fresh timestamp each time); POSTs are sent once. `read` turns the envelope into the
   * method's result here, so that the method need not be an async function awaiting this one (one promise
   * and one hop fewer a call); what it throws is not the attempt's failure (not logged nor retried).
   */
  private call(action: ActionName, o: CallOptions | undefined, prepare: () => Prepared): Promise<Envelope<unknown>>;
  private call<T>(
    action: ActionName,
    o: CallOptions | undefined,
    prepare: () => Prepared,
    read: (envelope: Envelope<unknown>, context: ActionContext) => T,
  ): Promise<T>;
  private async call<T>(
    action: ActionName,
    o: CallOptions | undefined,
    prepare: () => Prepared,
    read?: (envelope: Envelope<unknown>, context: ActionContext) => T,
  ): Promise<T | Envelope<unknown>> {
    let prepared: Prepared;
    try {
      prepared = prepare();
      requireWellFormed(prepared.params);
    } catch (error) {
      if (error instanceof InputRule) throw error.toError(action, this.restUrl);
      throw error;
    }
    const signal = o?.signal;
    const method = CARRIAGE[action].method;
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
      // prepare() made these parameters for this call alone: signed in place, not copied (each attempt
      // sets the same names again, so their order stays).
      const signed = prepared.params;
      signed.accessKey = this.accessKey;
      signed.action = action;
      signed.version = VERSION;
      signed.timestamp = String(Date.now());
      const signature = signParams(signed, this.secretKey);
      // Timed only for the log: nothing else reads it.
      const started = this.onRequest ? performance.now() : 0;
      const outcome: Outcome = {};
      let envelope: Envelope<unknown>;
      try {
        const answer = await this.transport.exchange({
          action,
          url: this.restUrl,
          method,
          // The signature is lowercase hex: nothing to encode.
          path: `${this.restPath}?${queryString(signed)}&signature=${signature}`,
          headers: prepared.json !== undefined ? JSON_HEADERS : HEADERS,
          body: prepared.json,
          signal,
        });
        outcome.status = answer.status;
        envelope = readEnvelope(answer.text, this.context(action));
        outcome.code = envelope.code;
        this.log(action, method, attempt, signed, prepared, started, outcome);
      } catch (error) {
        if (error instanceof TransportError) {
          outcome.error = error.kind;
          if (error.status !== undefined) outcome.status = error.status;
        } else if (error instanceof ApiError) {
          outcome.code = error.code;
        }
        this.log(action, method, attempt, signed, prepared, started, outcome);
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
      return read === undefined ? envelope : read(envelope, this.context(action));
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

interface ActionContext {
  action: ActionName;
  url: string;
  scrub: readonly string[];
  note: string;
}

interface Outcome {
  status?: number;
  code?: number;
  error?: TransportErrorKind;
}

/** Query string with every value percent-encoded (spaces as %20, never "+"). */
function queryString(params: Readonly<WireParams>): string {
  let query = '';
  for (const name in params) {
    query += `${query === '' ? '' : '&'}${percentEncoded(name)}=${percentEncoded(params[name]!)}`;
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

/** Filters of a list: absent (undefined or null) means none; anything else must be an object. */
function optionalQuery<T extends object>(query: T | null | undefined): Partial<T> {
  return query === undefined || query === null ? {} : requireObject('query', query);
}

function requireObject<T>(field: string, value: T): T {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new InputRule(field, 'must be an object');
  return value;
}

function requireText(field: string, value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '') throw new InputRule(field, 'must be a non-empty string');
  return value;
}

/** The JSON body of liveCreateChannel / liveUpdate (not signed, facts section 2). */
function jsonBody(field: string, value: unknown): string {
  requireObject(field, value);
  return jsonText(field, value);
}

function liveTemplateParams(input: LiveTemplateInput): WireParams {
  const {
    displayName,
    type,
    transcodeType,
    videoWidth,
    videoHeight,
    videoBitrate,
    audioBitrate,
    frameRate,
    advancedArguments,
  } = requireObject('input', input);
  const params = addScalars(
    {},
    { displayName, type, transcodeType, videoWidth, videoHeight, videoBitrate, audioBitrate, frameRate },
  );
  if (advancedArguments !== undefined) params.advancedArguments = jsonText('advancedArguments', advancedArguments);
  return params;
}
