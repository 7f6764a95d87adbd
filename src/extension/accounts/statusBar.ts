import * as vscode from 'vscode';
import type { AccountProfile } from './accountStore';

/** The active account in the status bar; a click switches (or adds one when there is none). */
export class AccountStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('videoPlatform.account', vscode.StatusBarAlignment.Left, 10);

  constructor() {
    this.item.name = 'Video Platform Account';
  }

  show(account: AccountProfile | undefined): void {
    if (account) {
      this.item.text = `$(broadcast) ${account.name}`;
      this.item.tooltip = new vscode.MarkdownString(`Video Platform account **${account.name}**\n\n${account.baseUrl}\n\nClick to switch accounts.`);
      this.item.command = 'videoPlatform.switchAccount';
    } else {
      this.item.text = '$(plug) Video Platform: no account';
      this.item.tooltip = 'Click to add a Video Platform account';
      this.item.command = 'videoPlatform.addAccount';
    }
    this.item.show();
  }

  dispose(): void {
    this.item.dispose();
  }
}
