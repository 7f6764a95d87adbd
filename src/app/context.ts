import type { DocumentKind } from '../authoring/documentKind';
import type { Problem, TextEdit } from '../authoring/problems';
import type { ValidationResult } from '../authoring/validate';
import type { AccountStore } from './accounts/accountStore';
import type { Connection } from './accounts/connection';
import type { DocumentAccounts } from './accounts/documentAccounts';
import type { LocalPlatformHost } from './accounts/localPlatformHost';
import type { ReferenceCache } from './authoring/referenceCache';
import type { PlaylistDocuments } from './inspect/playlistDocuments';
import type { Stills } from './tree/stills';
import type { InspectionServices } from './inspect/services';
import type { LogSink } from './log';
import type { CallbackTreeModel } from './callbacks/callbackTree';
import type { ChannelTreeModel } from './tree/channelTree';
import type { Poller } from './tree/poller';
import type { Lazy } from './util/onFirstUse';
import type { ResourceTreeModel } from './tree/resourceTree';
import type { VideoTreeModel } from './tree/videoTree';
import type { Ui } from './ui';

/** An open text document as the authoring commands see it (src/vscode/editor.ts adapts VS Code's). */
export interface EditorDocument {
  /** The document's URI as a string (identity). */
  readonly uri: string;
  readonly fileName: string;
  readonly isDirty: boolean;
  readonly isUntitled: boolean;
  text(): string;
}

/** The editor and its documents: the authoring commands' way to the files. */
export interface EditorPort {
  /** The open documents: the active editor's first, then the other visible ones, then the rest. */
  openDocuments(): EditorDocument[];
  /** The document a command acts on: the one at `uri` (from the editor title), else the active editor's. */
  document(uri?: string): Promise<EditorDocument | undefined>;
  /** Applies the edits; true when the editor accepted them. */
  applyEdits(document: EditorDocument, edits: readonly TextEdit[]): Promise<boolean>;
  save(document: EditorDocument): Promise<void>;
  /** Opens a new untitled document named like `fileName` (a free name) holding `text`, and shows it; its URI. */
  openUntitled(fileName: string, text: string): Promise<string>;
  /** Shows the Problems panel. */
  showProblems(): Promise<void>;
  /** Shows two texts side by side in the diff editor, both read-only (Compare with Platform). */
  showDiff(left: DiffSide, right: DiffSide, title: string): Promise<void>;
  /** Shows a text in a read-only document named `name` (a callback delivery). */
  showReadOnly(document: DiffSide): Promise<void>;
}

/** One side of a diff: its text and the name its tab shows (`News.channel.json`). */
export interface DiffSide {
  readonly name: string;
  readonly text: string;
}

/** The Problems of the platform documents (src/vscode/authoring/diagnostics.ts). */
export interface DiagnosticsPort {
  /** Validates with the reference lists awaited and publishes every problem. */
  validateFully(document: EditorDocument, kind: DocumentKind): Promise<ValidationResult>;
  validate(document: EditorDocument): void;
  /** A platform refusal shown on the document until it changes. */
  addPlatformProblem(document: EditorDocument, problem: Problem): void;
  revalidateAll(): void;
}

export type ViewId = 'channels' | 'videos';

/**
 * Everything a command handler uses, built once by compose() (src/app/compose.ts) from the ports.
 * Handlers take this instead of `vscode`, so tests run them with a scripted Ui against the real local platform.
 */
export interface AppContext {
  readonly ui: Ui;
  readonly log: LogSink;
  readonly connection: Connection;
  readonly accounts: AccountStore;
  readonly localPlatform: LocalPlatformHost;
  /**
   * The views' models and pollers as made on first use (src/app/util/onFirstUse.ts): the views follow them from when
   * they are made. `models` and `poller` below make them when asked.
   */
  readonly views: {
    readonly channels: Lazy<ChannelTreeModel>;
    readonly videos: Lazy<VideoTreeModel>;
    readonly resources: Lazy<ResourceTreeModel>;
    readonly callbacks: Lazy<CallbackTreeModel>;
    readonly channelPoller: Lazy<Poller>;
    readonly videoPoller: Lazy<Poller>;
  };
  /** The models behind the two views (src/vscode/treeAdapter.ts shows them). */
  readonly models: {
    readonly channels: ChannelTreeModel;
    readonly videos: VideoTreeModel;
    /** The Resources view: template groups, logo groups, live templates, live logos, channel categories. */
    readonly resources: ResourceTreeModel;
    /** The Callbacks view: the local platform's callback deliveries (src/app/callbacks/). */
    readonly callbacks: CallbackTreeModel;
  };
  /** Follows settling items; `kick()` after a command changed states. */
  readonly poller: { readonly channels: Poller; readonly videos: Poller };
  readonly reveal: { channel(id: string): Promise<void>; video(id: string): Promise<void> };
  readonly editor: EditorPort;
  /** The account each platform document is tied to (checked against and sent to). */
  readonly documentAccounts: DocumentAccounts;
  readonly authoring: { readonly references: ReferenceCache; readonly diagnostics: DiagnosticsPort };
  /** Inspect Stream, Preview and the browser player (src/app/inspect/); the Problems of open `.m3u8` documents. */
  readonly inspection: InspectionServices;
  readonly playlists: PlaylistDocuments;
  /** The pictures of the tree's tooltips, downloaded and embedded (src/app/tree/stills.ts). */
  readonly stills: Stills;
  /** Records a palette pick lists before offering a search (targets.ts PICK_LIMIT when unset). */
  readonly pickLimit?: number;
  /** Closes the client and the local platform, stops the pollers. */
  dispose(): Promise<void>;
}

/**
 * What a command gets besides the context: from a view, the clicked item and the selection; from an editor title,
 * the document; from the Explorer, the files.
 */
export interface CommandArgs {
  /** The clicked tree item (or a record or id passed by another command). */
  readonly node?: unknown;
  /** The selected tree items (multi-selection), the clicked one included. */
  readonly selection?: readonly unknown[];
  /** The document's URI (editor title commands). */
  readonly uri?: string;
  /** The paths of the clicked and selected files (the Explorer's context menu). */
  readonly files?: readonly string[];
}
