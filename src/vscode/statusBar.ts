import * as vscode from 'vscode';
import type { AccountStatus } from '../app/accounts/accountContext';
import type { MediaToolsStatus } from '../app/inspect/mediaTools';
import { l10n } from '../l10n/l10n';

/** The active account in the status bar; a click switches (or adds one when there is none). */
export class AccountStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem(
    'videoPlatform.account',
    vscode.StatusBarAlignment.Left,
    10,
  );

  constructor() {
    this.item.name = l10n.t('Video Platform Account');
  }

  show(status: AccountStatus): void {
    this.item.text = status.text;
    this.item.tooltip = status.markdown ? new vscode.MarkdownString(status.tooltip) : status.tooltip;
    this.item.command = status.command;
    this.item.show();
  }

  dispose(): void {
    this.item.dispose();
  }
}

/**
 * ffmpeg in the status bar, only while it is missing: what works without it and what needs it in the tooltip; a
 * click runs Set Up ffmpeg.
 */
export class MediaToolsStatusBar implements vscode.Disposable {
  // Made on the first "missing": an item that never shows is not created at all.
  private item: vscode.StatusBarItem | undefined;

  show(status: MediaToolsStatus): void {
    if (status.found) {
      this.item?.hide();
      return;
    }
    if (!this.item) {
      this.item = vscode.window.createStatusBarItem('videoPlatform.ffmpeg', vscode.StatusBarAlignment.Left, 9);
      this.item.name = l10n.t('Video Platform ffmpeg');
      this.item.command = 'videoPlatform.setUpFfmpeg';
    }
    this.item.text = status.text;
    this.item.tooltip = status.tooltip;
    this.item.show();
  }

  dispose(): void {
    this.item?.dispose();
  }
}
