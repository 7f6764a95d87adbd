// What a user does in the VS Code workbench, expressed with Playwright against its DOM: the command palette,
// input boxes and quick picks, notifications, modal dialogs, views and tree rows, the Problems panel.
import type { Locator, Page } from 'playwright-core';

const QUICK_INPUT = '.quick-input-widget';

export class Workbench {
  constructor(readonly page: Page) {}

  async open(url: string): Promise<void> {
    await this.page.goto(url, { timeout: 60_000 });
    await this.page.waitForSelector('.monaco-workbench', { timeout: 60_000 });
    // The status bar is filled once the workbench has restored its parts.
    await this.page.waitForSelector('.statusbar', { timeout: 60_000 });
  }

  /** Runs a command from the palette by its title as shown ("Video Platform: Add Account"). */
  async runCommand(title: string): Promise<void> {
    await this.dismissQuickInput();
    await this.page.keyboard.press('F1');
    const input = this.page.locator(`${QUICK_INPUT} input`);
    await input.waitFor({ state: 'visible', timeout: 10_000 });
    await input.fill(`>${title}`);
    const row = this.quickPickRow(title);
    await row.waitFor({ state: 'visible', timeout: 15_000 });
    await row.click();
  }

  private quickPickRow(label: string | RegExp): Locator {
    return this.page.locator(`${QUICK_INPUT} .monaco-list-row`).filter({ hasText: label }).first();
  }

  async dismissQuickInput(): Promise<void> {
    if (await this.page.locator(QUICK_INPUT).isVisible()) await this.page.keyboard.press('Escape');
  }

  /** Waits for an input box whose prompt or placeholder matches, types the answer and confirms. */
  async answerInput(prompt: RegExp, value: string): Promise<void> {
    const widget = this.page.locator(QUICK_INPUT);
    await widget.waitFor({ state: 'visible', timeout: 15_000 });
    const input = widget.locator('input').first();
    const deadline = Date.now() + 15_000;
    for (;;) {
      const text = [await widget.innerText().catch(() => ''), await input.getAttribute('placeholder').catch(() => ''),
        await input.getAttribute('aria-label').catch(() => '')].join(' ');
      if (prompt.test(text)) break;
      if (Date.now() > deadline) throw new Error(`no input box asking for ${prompt}; the quick input shows: ${text.trim()}`);
      await this.page.waitForTimeout(100);
    }
    await input.fill(value);
    await this.page.keyboard.press('Enter');
  }

  /** Replaces the text of the input box that is open now (after a refusal, whose message hides the prompt). */
  async retypeInput(value: string): Promise<void> {
    const input = this.page.locator(`${QUICK_INPUT} input`).first();
    await input.waitFor({ state: 'visible', timeout: 10_000 });
    await input.fill(value);
    await this.page.keyboard.press('Enter');
  }

  /** Picks an item from the open quick pick by its label. */
  async pick(label: string | RegExp): Promise<void> {
    const row = this.quickPickRow(label);
    await row.waitFor({ state: 'visible', timeout: 15_000 });
    await row.click();
  }

  /** Waits until the quick input's text (title, prompt, validation message, rows) matches; returns it. */
  async waitForQuickInputText(pattern: RegExp, timeoutMs = 10_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    let text = '';
    while (Date.now() < deadline) {
      text = await this.page.locator(QUICK_INPUT).innerText().catch(() => '');
      if (pattern.test(text)) return text;
      await this.page.waitForTimeout(100);
    }
    throw new Error(`the quick input never showed ${pattern}; it shows: ${text.trim()}`);
  }

  /** The text of the quick input (its title, prompt, validation message and rows). */
  async quickInputText(): Promise<string> {
    return this.page.locator(QUICK_INPUT).innerText({ timeout: 5_000 });
  }

  /** A notification toast whose message matches; waits for it. */
  async notification(message: RegExp, timeoutMs = 20_000): Promise<Locator> {
    const toast = this.page.locator('.notification-toast').filter({ hasText: message }).first();
    await toast.waitFor({ state: 'visible', timeout: timeoutMs });
    return toast;
  }

  async clearNotifications(): Promise<void> {
    const toasts = this.page.locator('.notification-toast');
    for (let i = (await toasts.count()) - 1; i >= 0; i--) {
      const close = toasts.nth(i).locator('.codicon-notifications-clear');
      await toasts.nth(i).hover().catch(() => undefined);
      if (await close.isVisible().catch(() => false)) await close.click().catch(() => undefined);
    }
  }

  /** A modal dialog whose text matches; returns it after waiting. */
  async dialog(message: RegExp): Promise<Locator> {
    const dialog = this.page.locator('.monaco-dialog-box').filter({ hasText: message }).first();
    await dialog.waitFor({ state: 'visible', timeout: 15_000 });
    return dialog;
  }

  async clickDialogButton(dialog: Locator, label: string | RegExp): Promise<void> {
    await dialog.locator('.dialog-buttons .monaco-button').filter({ hasText: label }).first().click();
    await dialog.waitFor({ state: 'hidden', timeout: 10_000 });
  }

  /** Clicks the activity bar entry with this title (e.g. "Video Platform"). */
  async openActivity(title: string): Promise<void> {
    const item = this.page.locator(`.activitybar .action-item a[aria-label^="${title}"], .activitybar .action-item[aria-label^="${title}"]`).first();
    await item.waitFor({ state: 'visible', timeout: 30_000 });
    const container = item.locator('xpath=ancestor-or-self::li[contains(@class,"action-item")]').first();
    const checked = (await container.getAttribute('aria-checked').catch(() => null)) === 'true'
      || /\bchecked\b/.test((await container.getAttribute('class').catch(() => '')) ?? '');
    if (!checked) await item.click();
  }

  /** The side bar pane (a view) with this title. */
  pane(title: string): Locator {
    return this.page.locator('.sidebar .pane').filter({ has: this.page.locator('.pane-header', { hasText: title }) }).first();
  }

  /** Expands a collapsed view pane. */
  async expandPane(title: string): Promise<Locator> {
    const pane = this.pane(title);
    const header = pane.locator('.pane-header').first();
    await header.waitFor({ state: 'visible', timeout: 15_000 });
    if ((await header.getAttribute('aria-expanded')) === 'false') await header.click();
    return pane;
  }

  /** A tree row in a pane, by (part of) its visible text. */
  treeRow(pane: Locator, text: string | RegExp): Locator {
    return pane.locator('.monaco-list-row').filter({ hasText: text }).first();
  }

  /** Runs an inline action (icon button on hover) of a tree row by its title. */
  async rowAction(row: Locator, title: string): Promise<void> {
    await row.hover();
    await row.locator(`.action-label[aria-label^="${title}"]`).first().click();
  }

  /** Opens the row's context menu and runs the entry with this label. */
  async rowContextAction(row: Locator, label: string | RegExp): Promise<void> {
    await row.click({ button: 'right' });
    const item = this.page.locator('.monaco-menu .action-item').filter({ hasText: label }).first();
    await item.waitFor({ state: 'visible', timeout: 10_000 });
    // Menu entries act on mouse up over their label; hovering first focuses the entry as a user's pointer does.
    const entry = item.locator('.action-menu-item').first();
    await entry.hover();
    await entry.click();
    if (await item.isVisible().catch(() => false)) await this.page.keyboard.press('Enter');
  }

  /** Opens a workspace file by name through Quick Open. */
  async openFile(name: string): Promise<void> {
    await this.dismissQuickInput();
    await this.page.keyboard.press('Control+P');
    const input = this.page.locator(`${QUICK_INPUT} input`);
    await input.waitFor({ state: 'visible', timeout: 10_000 });
    await input.fill(name);
    await this.quickPickRow(name).waitFor({ state: 'visible', timeout: 15_000 });
    await this.page.keyboard.press('Enter');
    await this.page.locator(`.tabs-container .tab`).filter({ hasText: name }).first().waitFor({ timeout: 15_000 });
  }

  /** Shows the Problems panel and returns its rows' text once some row matches. */
  async problems(match: RegExp, timeoutMs = 20_000): Promise<string> {
    await this.runCommand('View: Focus Problems');
    const panel = this.page.locator('.markers-panel');
    await panel.waitFor({ state: 'visible', timeout: 10_000 });
    await panel.locator('.monaco-list-row').filter({ hasText: match }).first().waitFor({ timeout: timeoutMs });
    return panel.innerText();
  }

  /** The status bar text (counts of problems, our own entries). */
  async statusBarText(): Promise<string> {
    return this.page.locator('.statusbar').innerText();
  }
}
