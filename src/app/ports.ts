import type { ClientOptions } from '../api/client';
import type { SecretStore, StateStore } from './accounts/accountStore';
import type { LocalPlatformStarter } from './accounts/localPlatformHost';
import type { ReferenceCache } from './authoring/referenceCache';
import type { DiagnosticsPort, EditorPort, ViewId } from './context';
import type { PanelPort } from './inspect/panels';
import type { PlaylistProblemsSink } from './inspect/playlistDocuments';
import type { LogSink } from './log';
import type { TreeNode } from './tree/nodes';
import type { Ui } from './ui';

/** Settings, read on each use (src/vscode/settings.ts reads VS Code's configuration). */
export interface SettingsPort {
  pageSize(): number;
  pollIntervalMs(): number;
  /** `videoPlatform.liveRefreshSeconds` in ms: how often the Live channels view re-reads live channels; 0 is off. */
  liveRefreshMs(): number;
  /** Timeouts, retry and proxy of each new client. */
  clientOptions(): Partial<ClientOptions>;
  /** `videoPlatform.ffmpegPath`: the folder holding ffmpeg and ffprobe for the local platform (empty: the PATH). */
  ffmpegPath(): string | undefined;
  /** Saves `videoPlatform.ffmpegPath` in the user's settings ('' clears it). */
  updateFfmpegPath(dir: string): Promise<void>;
  /** `videoPlatform.localPlatform.callbackUrls`: where the local platform inside the editor posts its callbacks. */
  callbackUrls(): string[];
  /** Saves `videoPlatform.localPlatform.callbackUrls` in the user's settings (none: cleared). */
  updateCallbackUrls(urls: string[]): Promise<void>;
  /** `videoPlatform.localPlatform.remoteCallbacks`: which hosts callback URLs may name besides loopback. */
  remoteCallbacks(): RemoteCallbacks;
}

/** `loopback`: only 127.0.0.1, localhost, [::1]; `public`: public hosts too; `private`: private addresses too. */
export type RemoteCallbacks = 'loopback' | 'public' | 'private';

/** What the host provides; compose() builds the application's context from these. */
export interface Ports {
  readonly ui: Ui;
  readonly log: LogSink;
  readonly state: StateStore;
  readonly secrets: SecretStore;
  /** The workspace's own state (the documents' accounts); `state` when not given. */
  readonly workspaceState?: StateStore;
  readonly settings: SettingsPort;
  readonly editor: EditorPort;
  /** The diagnostics, built over the reference lists compose() makes. */
  readonly diagnostics: (references: ReferenceCache) => DiagnosticsPort;
  /** Where the local platform keeps its data. */
  readonly storageDir: string;
  readonly startLocalPlatform: LocalPlatformStarter;
  /** Reveals, selects and focuses a node in its view (views are made after compose(): looked up when called). */
  readonly revealNode: (view: ViewId, node: TreeNode) => Promise<void>;
  /** The environment `npm start` passes its platform through (VIDEO_PLATFORM_DEV_*). */
  readonly env?: NodeJS.ProcessEnv;
  /** Records a palette pick lists before offering a search. */
  readonly pickLimit?: number;
  /** The report and preview panels (src/vscode/webPanels.ts). */
  readonly panels: PanelPort;
  /** The Problems of open `.m3u8` documents (src/vscode/playlistDiagnostics.ts). */
  readonly playlistProblems: PlaylistProblemsSink;
}
