import { documentKind, type DocumentKind } from '../../../src/authoring/documentKind';
import type { Problem, TextEdit } from '../../../src/authoring/problems';
import { validateDocument, type ValidationResult } from '../../../src/authoring/validate';
import type { AccountStore, SecretStore, StateStore } from '../../../src/app/accounts/accountStore';
import type { Connection } from '../../../src/app/accounts/connection';
import type { LocalPlatformHost } from '../../../src/app/accounts/localPlatformHost';
import { listsFor } from '../../../src/app/authoring/documentLists';
import type { ReferenceCache } from '../../../src/app/authoring/referenceCache';
import { COMMANDS } from '../../../src/app/commands/commandTable';
import * as Handlers from '../../../src/app/commands/handlers';
import { runCommand, type CommandRow } from '../../../src/app/commands/runCommand';
import { compose } from '../../../src/app/compose';
import type {
  AppContext,
  CommandArgs,
  DiagnosticsPort,
  DiffSide,
  EditorDocument,
  EditorPort,
  ViewId,
} from '../../../src/app/context';
import type { PanelOptions, PanelPort, WebPanel } from '../../../src/app/inspect/panels';
import type { PlaylistProblem } from '../../../src/inspector/playlistProblems';
import type { LogSink } from '../../../src/app/log';
import type { ProxyClientOptions } from '../../../src/app/proxySettings';
import type { ChannelTreeModel } from '../../../src/app/tree/channelTree';
import { ChannelNode, VideoNode } from '../../../src/app/tree/nodes';
import type { Poller } from '../../../src/app/tree/poller';
import type { VideoTreeModel } from '../../../src/app/tree/videoTree';
import { startLocalPlatform } from '../../../src/localPlatform/server';
import { ScriptedUi } from './scriptedUi';

export class MemoryState implements StateStore {
  readonly values = new Map<string, unknown>();
  get<T>(key: string): T | undefined {
    return this.values.get(key) as T | undefined;
  }
  async update(key: string, value: unknown): Promise<void> {
    if (value === undefined) this.values.delete(key);
    else this.values.set(key, JSON.parse(JSON.stringify(value)));
  }
}

export class MemorySecrets implements SecretStore {
  readonly values = new Map<string, string>();
  async get(key: string): Promise<string | undefined> {
    return this.values.get(key);
  }
  async store(key: string, value: string): Promise<void> {
    this.values.set(key, value);
  }
  async delete(key: string): Promise<void> {
    this.values.delete(key);
  }
}

export class MemoryLog implements LogSink {
  readonly lines: string[] = [];
  info(message: string): void {
    this.lines.push(`info ${message}`);
  }
  warn(message: string): void {
    this.lines.push(`warn ${message}`);
  }
  error(message: string): void {
    this.lines.push(`error ${message}`);
  }
  debug(message: string): void {
    this.lines.push(`debug ${message}`);
  }
  text(): string {
    return this.lines.join('\n');
  }
}

/** An open document of the in-memory editor. */
export class MemoryDocument implements EditorDocument {
  isDirty = false;
  constructor(
    readonly fileName: string,
    public content: string,
    readonly isUntitled = false,
  ) {}
  get uri(): string {
    return `${this.isUntitled ? 'untitled' : 'file'}://${this.fileName}`;
  }
  text(): string {
    return this.content;
  }
}

/** The editor port over documents held in memory: the active one first. */
export class MemoryEditor implements EditorPort {
  readonly documents: MemoryDocument[] = [];
  readonly saved: string[] = [];
  problemsShown = 0;

  open(fileName: string, text: string): MemoryDocument {
    const document = new MemoryDocument(fileName, text);
    this.documents.unshift(document);
    return document;
  }
  openDocuments(): EditorDocument[] {
    return [...this.documents];
  }
  async document(uri?: string): Promise<EditorDocument | undefined> {
    return uri === undefined ? this.documents[0] : this.documents.find((document) => document.uri === uri);
  }
  async applyEdits(document: EditorDocument, edits: readonly TextEdit[]): Promise<boolean> {
    const target = this.documents.find((candidate) => candidate.uri === document.uri);
    if (!target) return false;
    // From the end, so that earlier offsets stay valid.
    for (const edit of [...edits].sort((a, b) => b.offset - a.offset))
      target.content =
        target.content.slice(0, edit.offset) + edit.newText + target.content.slice(edit.offset + edit.length);
    target.isDirty = true;
    return true;
  }
  async save(document: EditorDocument): Promise<void> {
    const target = this.documents.find((candidate) => candidate.uri === document.uri);
    if (target) target.isDirty = false;
    this.saved.push(document.fileName);
  }
  async openUntitled(fileName: string, text: string): Promise<string> {
    const document = new MemoryDocument(fileName, text, true);
    this.documents.unshift(document);
    return document.uri;
  }
  async showProblems(): Promise<void> {
    this.problemsShown++;
  }
  /** The diffs shown (Compare with Platform), oldest first. */
  readonly diffs: Array<{ left: DiffSide; right: DiffSide; title: string }> = [];
  async showDiff(left: DiffSide, right: DiffSide, title: string): Promise<void> {
    this.diffs.push({ left, right, title });
  }
  /** The read-only documents shown (a callback delivery), oldest first. */
  readonly readOnly: DiffSide[] = [];
  async showReadOnly(document: DiffSide): Promise<void> {
    this.readOnly.push(document);
  }
}

/** The diagnostics port without VS Code: the problems of each document, as the Problems panel would list them. */
export class MemoryDiagnostics implements DiagnosticsPort {
  readonly problems = new Map<string, Problem[]>();
  constructor(private readonly references: ReferenceCache) {}
  async validateFully(document: EditorDocument, kind: DocumentKind): Promise<ValidationResult> {
    const result = validateDocument(
      kind,
      document.text(),
      await listsFor(this.references, kind, document.text(), document.uri),
    );
    this.problems.set(document.uri, result.problems);
    return result;
  }
  validate(document: EditorDocument): void {
    const kind = documentKind(document.fileName);
    if (kind) this.problems.set(document.uri, validateDocument(kind, document.text()).problems);
  }
  addPlatformProblem(document: EditorDocument, problem: Problem): void {
    this.problems.set(document.uri, [...(this.problems.get(document.uri) ?? []), problem]);
  }
  /** Times every open document was to be checked again (an account switch, new ids). */
  revalidations = 0;
  revalidateAll(): void {
    // The in-memory editor's documents are validated when a test asks.
    this.revalidations++;
  }
}

/** A web panel held in memory: the page's HTML as set, messages the test posts as the page would. */
export class MemoryPanel implements WebPanel {
  readonly cspSource = 'https://webview.test';
  html = '';
  /** Every HTML set, in order. */
  readonly pages: string[] = [];
  disposed = false;
  private readonly messageListeners: Array<(message: unknown) => void> = [];
  private readonly disposeListeners: Array<() => void> = [];
  /** What the page posts as soon as its HTML is set (the preview page's canPlay answer). */
  onLoad: ((panel: MemoryPanel) => void) | undefined;
  constructor(readonly options: PanelOptions) {}
  resource(path: string): string {
    return `https://webview.test/file${path}`;
  }
  setHtml(html: string): void {
    this.html = html;
    this.pages.push(html);
    this.onLoad?.(this);
  }
  onMessage(listener: (message: unknown) => void): void {
    this.messageListeners.push(listener);
  }
  onDidDispose(listener: () => void): void {
    this.disposeListeners.push(listener);
  }
  /** The page posts a message (the Re-run button, the preview's canPlay). */
  post(message: unknown): void {
    for (const listener of this.messageListeners) listener(message);
  }
  reveal(): void {}
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const listener of this.disposeListeners) listener();
  }
}

/** The panels opened, newest last; `onLoad` is given to each new one. */
export class MemoryPanels implements PanelPort {
  readonly opened: MemoryPanel[] = [];
  onLoad: ((panel: MemoryPanel) => void) | undefined;
  open(options: PanelOptions): MemoryPanel {
    const panel = new MemoryPanel(options);
    panel.onLoad = this.onLoad;
    this.opened.push(panel);
    return panel;
  }
}

export interface Harness {
  /** The context compose() built, as the extension builds it (poller kicks counted). */
  readonly ctx: AppContext;
  readonly ui: ScriptedUi;
  readonly log: MemoryLog;
  readonly state: MemoryState;
  readonly secrets: MemorySecrets;
  readonly editor: MemoryEditor;
  readonly diagnostics: MemoryDiagnostics;
  readonly store: AccountStore;
  readonly connection: Connection;
  readonly channels: ChannelTreeModel;
  readonly videos: VideoTreeModel;
  readonly host: LocalPlatformHost;
  /** Ids of the records revealed in a view. */
  readonly revealed: string[];
  /** Times a command kicked a view's poller. */
  readonly polled: Record<ViewId, number>;
  readonly panels: MemoryPanels;
  /** The Problems of `.m3u8` documents, by URI, as the Problems panel would list them. */
  readonly playlistProblems: Map<string, readonly PlaylistProblem[]>;
  /**
   * Runs a handler's row of the command table through the wrapper, as VS Code does: failures are reported
   * (undefined then), not thrown.
   */
  run<R>(handler: (ctx: AppContext, args: CommandArgs) => R, args?: CommandArgs): Promise<Awaited<R> | undefined>;
  dispose(): Promise<void>;
}

export interface HarnessOptions {
  /** Adds and activates this account. */
  account?: { baseUrl: string; accessKey: string; secretKey: string; name?: string };
  pageSize?: number;
  /** Client timeouts (ms) for timeout tests; one attempt, no retries. */
  timeoutMs?: number;
  storageDir?: string;
  /** Records a palette pick lists before offering a search (default: the command's own). */
  pickLimit?: number;
  /** More client options, as the settings give them (proxy settings). */
  clientOptions?: ProxyClientOptions;
  /** The global state to start from (a later session of the same user). */
  state?: MemoryState;
  /**
   * `videoPlatform.ffmpegPath`; '' for the PATH. Default: a folder without ffmpeg, so a local platform started
   * by a test simulates media and makes no demo clips in the background.
   */
  ffmpegPath?: string;
  /** `videoPlatform.liveRefreshSeconds` in ms (default 1000). */
  liveRefreshMs?: number;
  /** `videoPlatform.localPlatform.callbackUrls` (default none). */
  callbackUrls?: string[];
}

/** The command table's row of a handler. */
/** The table's row of a handler: its `run`, or (the rows' handlers are loaded on first run) its name in handlers.ts. */
function commandRowOf(handler: unknown): CommandRow {
  const name = Object.entries(Handlers).find(([, value]) => value === handler)?.[0];
  const row = COMMANDS.find((candidate) => (candidate.run ?? candidate.handler) === (candidate.run ? handler : name));
  if (!row) throw new Error('the handler is not in the command table');
  return row;
}

/** A poller whose kicks are counted (the views are not shown here, so it never polls by itself). */
function counted(poller: Poller, count: () => void): Poller {
  return new Proxy(poller, {
    get: (target, key) =>
      key === 'kick'
        ? () => {
            count();
            target.kick();
          }
        : Reflect.get(target, key),
  });
}

/** The application as compose() builds it, with a scripted Ui, in-memory stores and editor. */
export async function createHarness(options: HarnessOptions = {}): Promise<Harness> {
  const ui = new ScriptedUi();
  const log = new MemoryLog();
  const state = options.state ?? new MemoryState();
  const secrets = new MemorySecrets();
  const editor = new MemoryEditor();
  const timeoutMs = options.timeoutMs;
  const pageSize = options.pageSize ?? 50;
  const revealed: string[] = [];
  const polled: Record<ViewId, number> = { channels: 0, videos: 0 };
  let diagnostics: MemoryDiagnostics | undefined;
  const panels = new MemoryPanels();
  const playlistProblems = new Map<string, readonly PlaylistProblem[]>();
  let ffmpegPath = options.ffmpegPath ?? '/nonexistent-ffmpeg-folder';
  let callbackUrls = options.callbackUrls ?? [];
  const composed = await compose({
    ui,
    log,
    state,
    secrets,
    settings: {
      pageSize: () => pageSize,
      pollIntervalMs: () => 1000,
      liveRefreshMs: () => options.liveRefreshMs ?? 1000,
      ffmpegPath: () => ffmpegPath,
      updateFfmpegPath: async (dir) => {
        ffmpegPath = dir;
      },
      callbackUrls: () => callbackUrls,
      updateCallbackUrls: async (urls) => {
        callbackUrls = urls;
      },
      remoteCallbacks: () => 'loopback',
      clientOptions: () => ({
        ...options.clientOptions,
        retry: { attempts: 1 },
        ...(timeoutMs ? { timeouts: { connectMs: timeoutMs, headersMs: timeoutMs, bodyMs: timeoutMs } } : {}),
      }),
    },
    editor,
    diagnostics: (references) => (diagnostics = new MemoryDiagnostics(references)),
    storageDir: options.storageDir ?? '/nonexistent-storage',
    startLocalPlatform,
    revealNode: async (_view, node) => {
      if (node instanceof ChannelNode) revealed.push(node.channel.id);
      else if (node instanceof VideoNode) revealed.push(node.video.id);
    },
    ...(options.pickLimit !== undefined ? { pickLimit: options.pickLimit } : {}),
    panels,
    playlistProblems: (uri, problems) => {
      if (problems.length === 0) playlistProblems.delete(uri);
      else playlistProblems.set(uri, problems);
    },
  });
  // No view is shown: the pollers wait, as they do while the views are hidden.
  composed.poller.channels.setVisible(false);
  composed.poller.videos.setVisible(false);
  const ctx: AppContext = {
    ...composed,
    poller: {
      channels: counted(composed.poller.channels, () => polled.channels++),
      videos: counted(composed.poller.videos, () => polled.videos++),
    },
  };
  if (options.account) {
    const { secretKey, name, ...fields } = options.account;
    const profile = await ctx.accounts.add({ name: name ?? 'Test account', ...fields }, secretKey);
    await ctx.connection.switchTo(profile.id);
  }
  return {
    ctx,
    ui,
    log,
    state,
    secrets,
    editor,
    diagnostics: diagnostics!,
    store: ctx.accounts,
    connection: ctx.connection,
    channels: ctx.models.channels,
    videos: ctx.models.videos,
    host: ctx.localPlatform,
    revealed,
    polled,
    panels,
    playlistProblems,
    run: async (handler, args = {}) => (await runCommand(ctx, commandRowOf(handler), args)) as never,
    dispose: () => ctx.dispose(),
  };
}
