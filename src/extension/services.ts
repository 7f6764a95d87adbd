import type * as vscode from 'vscode';
import type { PlatformClient } from '../api/client';

/**
 * What command handlers (ours and the authoring helper's) may rely on. The implementation lives in
 * runtime.ts; keep this interface small and stable, others code against it.
 */
export interface ExtensionServices {
  readonly context: vscode.ExtensionContext;
  readonly log: vscode.LogOutputChannel;
  /** Client of the active account; throws an Error with a readable message ("No Video Platform account is set: ...") when none. */
  activeClient(): Promise<PlatformClient>;
  refreshViews(what?: 'channels' | 'videos' | 'all'): void;
  revealChannel(channelId: string): Promise<void>;
  revealVideo(videoId: string): Promise<void>;
}
