// What a user does in the VS Code workbench, expressed with Playwright against its DOM: the command palette,
// input boxes and quick picks, notifications, modal dialogs, views and tree rows, the Problems panel.
import type { Locator, Page } from 'playwright-core';
import { eventually } from '../helpers/eventually';

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
    // The palette closes (or gives way to the command's own input) before anything else is typed.
    await this.until(
      `the palette to close after "${title}"`,
      async () =>
        !(await input
          .first()
          .isVisible()
          .catch(() => false)) ||
        (await input
          .first()
          .inputValue()
          .catch(() => '')) !== `>${title}`
          ? true
          : undefined,
      10_000,
    );
  }

  private quickPickRow(label: string | RegExp): Locator {
    return this.page.locator(`${QUICK_INPUT} .monaco-list-row`).filter({ hasText: label }).first();
  }

  async dismissQuickInput(): Promise<void> {
    if (await this.page.locator(QUICK_INPUT).isVisible()) await this.page.keyboard.press('Escape');
  }

  /** Waits for an input box whose prompt or placeholder matches, types the answer and confirms. */
  async answerInput(prompt: RegExp, value: string, options: { refused?: boolean } = {}): Promise<void> {
    const widget = this.page.locator(QUICK_INPUT);
    await widget.waitFor({ state: 'visible', timeout: 15_000 });
    const input = widget.locator('input').first();
    let text = '';
    await this.until(
      `an input box asking for ${prompt}`,
      async () => {
        // Only while the widget shows: a hidden one still holds the previous box's prompt (right after a palette
        // command was picked), and typing then would go to whatever has the focus next.
        const shown = (await widget.isVisible().catch(() => false)) && (await input.isVisible().catch(() => false));
        text = shown
          ? [
              await widget.innerText().catch(() => ''),
              await input.getAttribute('placeholder').catch(() => ''),
              await input.getAttribute('aria-label').catch(() => ''),
            ].join(' ')
          : '';
        return shown && prompt.test(text) && !(await input.inputValue().catch(() => '')).startsWith('>')
          ? true
          : undefined;
      },
      15_000,
    ).catch(() => {
      throw new Error(`no input box asking for ${prompt}; the quick input shows: ${text.trim()}`);
    });
    await input.fill(value);
    await this.confirmInput(value, options.refused === true);
  }

  /**
   * Presses Enter once the extension has checked the text: the box refuses Enter while it still shows the
   * verdict on the text before (an empty box's "must not be empty"), and says nothing. Unless the answer is
   * expected to be refused, Enter is pressed again until the box takes it.
   */
  private async confirmInput(value: string, refused: boolean): Promise<void> {
    const widget = this.page.locator(QUICK_INPUT);
    const input = widget.locator('input').first();
    const box = widget.locator('.monaco-inputbox').first();
    const checked = async (): Promise<boolean> =>
      !/\berror\b/.test((await box.getAttribute('class').catch(() => '')) ?? '');
    // Up to 2 s for the verdict on the new text; Enter is pressed either way (and again below if refused).
    await this.within(2_000, checked);
    await this.page.keyboard.press('Enter');
    if (refused) return;
    await this.until(
      `the input box to take "${value}"`,
      async () => {
        const open =
          (await widget.isVisible().catch(() => false)) && (await input.inputValue().catch(() => '')) === value;
        if (!open) return true;
        // Give the box half a second to close on the Enter already pressed before pressing it again.
        if (await this.within(500, async () => !(await widget.isVisible().catch(() => false)))) return true;
        if ((await input.inputValue().catch(() => '')) === value) await this.page.keyboard.press('Enter');
        return undefined;
      },
      10_000,
    );
  }

  /** Replaces the text of the input box that is open now (after a refusal, whose message hides the prompt). */
  async retypeInput(value: string): Promise<void> {
    const input = this.page.locator(`${QUICK_INPUT} input`).first();
    await input.waitFor({ state: 'visible', timeout: 10_000 });
    await input.fill(value);
    await this.confirmInput(value, false);
  }

  /** Picks an item from the open quick pick by its label. */
  async pick(label: string | RegExp): Promise<void> {
    const row = this.quickPickRow(label);
    await row.waitFor({ state: 'visible', timeout: 15_000 });
    await row.click();
  }

  /** Waits until the quick input's text (title, prompt, validation message, rows) matches; returns it. */
  async waitForQuickInputText(pattern: RegExp, timeoutMs = 10_000): Promise<string> {
    let text = '';
    return this.until(
      `the quick input to show ${pattern}`,
      async () => {
        text = await this.page
          .locator(QUICK_INPUT)
          .innerText()
          .catch(() => '');
        return pattern.test(text) ? text : undefined;
      },
      timeoutMs,
    ).catch(() => {
      throw new Error(`the quick input never showed ${pattern}; it shows: ${text.trim()}`);
    });
  }

  /** The rows of the open quick pick once one matches, each on one line (label, description, detail, separator). */
  async quickPickRows(match: RegExp, timeoutMs = 15_000): Promise<string[]> {
    const rows = this.page.locator(`${QUICK_INPUT} .quick-input-list .monaco-list-row`);
    await rows.filter({ hasText: match }).first().waitFor({ state: 'visible', timeout: timeoutMs });
    return (
      await rows.evaluateAll((elements) =>
        elements.map((element) => {
          // Label, description, detail and separator are separate elements: keep them apart.
          // Rows are reused: an element hidden in this one may still hold an earlier row's text.
          const parts = [
            ...element.querySelectorAll(
              '.label-name, .label-description, .quick-input-list-detail, .quick-input-list-separator',
            ),
          ].filter((part) => part.getClientRects().length > 0);
          return parts.map((part) => part.textContent ?? '').join(' ');
        }),
      )
    ).map((text) => text.replace(/\s+/g, ' ').trim());
  }

  /** The title of the open quick input. */
  async quickInputTitle(): Promise<string> {
    return (await this.page.locator(`${QUICK_INPUT} .quick-input-title`).first().innerText({ timeout: 5_000 })).trim();
  }

  /** The text of the quick input (its title, prompt, validation message and rows). */
  async quickInputText(): Promise<string> {
    return this.page.locator(QUICK_INPUT).innerText({ timeout: 5_000 });
  }

  /** A notification toast whose message matches; waits for it. */
  async notification(message: RegExp, timeoutMs = 20_000): Promise<Locator> {
    const toast = this.page.locator('.notification-toast').filter({ hasText: message }).first();
    await toast.waitFor({ state: 'visible', timeout: timeoutMs });
    // It slides in: let that end, so a screenshot taken next shows it readable.
    const opaque = '(el) => [el, el.parentElement].every((node) => !node || getComputedStyle(node).opacity === "1")';
    await this.within(2_000, () => toast.evaluate(opaque).catch(() => true) as Promise<boolean>);
    return toast;
  }

  /**
   * A notification whose message matches, from the notifications center (the bell), where every notification
   * stays: a toast can be gone before it is looked at (VS Code hides toasts when another one closes or a quick
   * input opens). Returns its text and closes the center again.
   */
  async notificationInCenter(message: RegExp, timeoutMs = 20_000): Promise<string> {
    await this.showNotificationsCenter();
    const center = this.page.locator('.notifications-center');
    const entry = center.locator('.monaco-list-row').filter({ hasText: message }).first();
    await entry.waitFor({ state: 'visible', timeout: timeoutMs });
    const text = (await entry.innerText()).replace(/\s+/g, ' ').trim();
    await this.closeNotificationsCenter();
    return text;
  }

  async showNotificationsCenter(): Promise<void> {
    await this.runCommand('Notifications: Show Notifications');
    await this.page.locator('.notifications-center').waitFor({ state: 'visible', timeout: 10_000 });
  }

  /** Closes the notifications center as a user does: Escape while it has the focus. */
  async closeNotificationsCenter(): Promise<void> {
    const center = this.page.locator('.notifications-center');
    await center.locator('.notifications-center-header').first().click();
    await this.page.keyboard.press('Escape');
    await center.waitFor({ state: 'hidden', timeout: 10_000 });
  }

  async clearNotifications(): Promise<void> {
    const toasts = this.page.locator('.notification-toast');
    for (let i = (await toasts.count()) - 1; i >= 0; i--) {
      const close = toasts.nth(i).locator('.codicon-notifications-clear');
      await toasts
        .nth(i)
        .hover()
        .catch(() => undefined);
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
    const item = this.page
      .locator(`.activitybar .action-item a[aria-label^="${title}"], .activitybar .action-item[aria-label^="${title}"]`)
      .first();
    await item.waitFor({ state: 'visible', timeout: 30_000 });
    const container = item.locator('xpath=ancestor-or-self::li[contains(@class,"action-item")]').first();
    const checked =
      (await container.getAttribute('aria-checked').catch(() => null)) === 'true' ||
      /\bchecked\b/.test((await container.getAttribute('class').catch(() => '')) ?? '');
    if (!checked) await item.click();
  }

  /** The side bar pane (a view) with this title. */
  pane(title: string): Locator {
    return this.page
      .locator('.sidebar .pane')
      .filter({ has: this.page.locator('.pane-header', { hasText: title }) })
      .first();
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

  /** Opens (or closes) a tree row by its twistie, again if a click lands while the view redraws. */
  async setExpanded(row: Locator, expanded: boolean): Promise<void> {
    const want = String(expanded);
    await this.until(
      `the row to be ${expanded ? 'expanded' : 'collapsed'}`,
      async () => {
        if ((await row.getAttribute('aria-expanded')) === want) return true;
        await row.locator('.monaco-tl-twistie').click();
        return (await this.within(300, async () => (await row.getAttribute('aria-expanded')) === want))
          ? true
          : undefined;
      },
      10_000,
    );
  }

  /** Runs an inline action (icon button on hover) of a tree row by its title. */
  async rowAction(row: Locator, title: string): Promise<void> {
    await row.hover();
    await row.locator(`.action-label[aria-label^="${title}"]`).first().click();
  }

  /** Opens the row's context menu and runs the entry with this label. */
  async rowContextAction(row: Locator, label: string | RegExp): Promise<void> {
    await row.click({ button: 'right' });
    await this.runMenuEntry(label);
  }

  /** Opens a workspace file by name through Quick Open. */
  async openFile(name: string): Promise<void> {
    // Quick Open searches the files it knows of: a file the test wrote a moment ago may come with the
    // file watcher's next report, so the search is asked again until the file is listed.
    await this.until(
      `Quick Open to list ${name}`,
      async () => {
        await this.dismissQuickInput();
        await this.page.keyboard.press('Control+P');
        const input = this.page.locator(`${QUICK_INPUT} input`);
        await input.waitFor({ state: 'visible', timeout: 10_000 });
        await input.fill(name);
        return (await this.within(5_000, () => this.quickPickRow(name).isVisible())) ? true : undefined;
      },
      60_000,
    );
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

  /** Waits until `check` gives a value other than undefined, polling; fails naming what it waited for. */
  until<T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
    return eventually(what, check, timeoutMs);
  }

  /** Whether `condition` comes true within timeoutMs (a short wait for a UI reaction that may not come). */
  within(timeoutMs: number, condition: () => Promise<boolean>): Promise<boolean> {
    return eventually('a UI reaction', condition, timeoutMs).then(
      () => true,
      () => false,
    );
  }

  // ---- views -----------------------------------------------------------------------------------------

  /** Runs an action of a view's title bar (the icons shown on hover) by its title. */
  async viewTitleAction(pane: Locator, title: string): Promise<void> {
    const header = pane.locator('.pane-header').first();
    await header.hover();
    await header.locator(`.action-label[aria-label^="${title}"]`).first().click();
  }

  /** Opens a view's "..." menu (More Actions) and runs the entry with this label. */
  async viewMenuAction(pane: Locator, label: string | RegExp): Promise<void> {
    const header = pane.locator('.pane-header').first();
    await header.hover();
    await header.locator('.action-label[aria-label^="More Actions"]').first().click();
    await this.runMenuEntry(label);
  }

  /** The entries of the context menu or "..." menu that is open now. */
  async menuEntries(): Promise<string[]> {
    const menu = this.page.locator('.monaco-menu').first();
    await menu.waitFor({ state: 'visible', timeout: 10_000 });
    return (await menu.locator('.action-item .action-label').allInnerTexts())
      .map((text) => text.trim())
      .filter(Boolean);
  }

  private async runMenuEntry(label: string | RegExp): Promise<void> {
    // Menu entries act on mouse up over their label; hovering first focuses the entry as a user's pointer does.
    const item = this.page.locator('.monaco-menu .action-item').filter({ hasText: label }).first();
    await item.waitFor({ state: 'visible', timeout: 10_000 });
    const entry = item.locator('.action-menu-item').first();
    await entry.hover();
    await entry.click();
    if (await item.isVisible().catch(() => false)) await this.page.keyboard.press('Enter');
  }

  /** The view's description beside its title (a filter in force), or '' when it has none. */
  async paneDescription(pane: Locator): Promise<string> {
    const description = pane.locator('.pane-header .description').first();
    if ((await description.count()) === 0) return '';
    return (await description.innerText()).trim();
  }

  /** The visible rows of a view, their text on one line each. */
  async rowTexts(pane: Locator): Promise<string[]> {
    return (await pane.locator('.monaco-list-row').allInnerTexts()).map((text) => text.replace(/\s+/g, ' ').trim());
  }

  /** How many rows the view's top level holds (loaded, rendered or not), from the rows' aria-setsize. */
  async topLevelCount(pane: Locator): Promise<number> {
    const row = pane.locator('.monaco-list-row[aria-level="1"]').first();
    return Number(await row.getAttribute('aria-setsize', { timeout: 10_000 }));
  }

  /** Scrolls a view to its last row with the keyboard (rows are only rendered when in sight) and returns that row. */
  async scrollToLastRow(pane: Locator): Promise<Locator> {
    const rows = pane.locator('.monaco-list-row');
    await rows.first().waitFor({ state: 'visible', timeout: 15_000 });
    await pane.locator('.monaco-list').first().focus();
    return this.until('the view to show its last row', async () => {
      await this.page.keyboard.press('End');
      const last = rows.last();
      const [position, size] = [await last.getAttribute('aria-posinset'), await last.getAttribute('aria-setsize')];
      return position !== null && position === size && (await last.getAttribute('aria-level')) === '1'
        ? last
        : undefined;
    });
  }

  /** Scrolls a view back to its first row. */
  async scrollToFirstRow(pane: Locator): Promise<void> {
    const rows = pane.locator('.monaco-list-row');
    await pane.locator('.monaco-list').first().focus();
    await this.until('the view to show its first row', async () => {
      await this.page.keyboard.press('Home');
      return (await rows.first().getAttribute('aria-posinset')) === '1' &&
        (await rows.first().getAttribute('aria-level')) === '1'
        ? true
        : undefined;
    });
  }

  // ---- editors ---------------------------------------------------------------------------------------

  /** Creates a file in the workspace folder from the Explorer (File: New File...) and waits for its editor. */
  async newFile(name: string): Promise<void> {
    await this.runCommand('File: New File...');
    const box = this.page
      .locator('.explorer-folders-view .monaco-inputbox input, .explorer-folders-view input.input')
      .first();
    await box.waitFor({ state: 'visible', timeout: 10_000 });
    await box.fill(name);
    await this.page.keyboard.press('Enter');
    await this.page.locator('.tabs-container .tab').filter({ hasText: name }).first().waitFor({ timeout: 15_000 });
    await this.editorText().waitFor({ state: 'visible', timeout: 10_000 });
  }

  /** The text area of the active editor. */
  editorText(): Locator {
    return this.page.locator('.editor-group-container.active .monaco-editor .view-lines').first();
  }

  /** The suggestion list (Ctrl+Space, again if it does not open): waits until one row matches, returns every row's text. */
  async suggestions(match: RegExp, timeoutMs = 15_000): Promise<string[]> {
    const widget = this.page.locator('.editor-widget.suggest-widget').first();
    const row = widget.locator('.monaco-list-row').filter({ hasText: match }).first();
    await this.until(
      `the suggestion ${match}`,
      async () => {
        if (!(await widget.isVisible().catch(() => false))) await this.page.keyboard.press('Control+Space');
        await row.waitFor({ state: 'visible', timeout: 3_000 }).catch(() => undefined);
        if (await row.isVisible().catch(() => false)) return true;
        // Open with other suggestions only (typing opened it early): close it, ask again.
        if (await widget.isVisible().catch(() => false)) await this.page.keyboard.press('Escape');
        return undefined;
      },
      timeoutMs,
    );
    return (await widget.locator('.monaco-list-row').allInnerTexts()).map((text) => text.replace(/\s+/g, ' ').trim());
  }

  /** Accepts the suggestion whose label matches, with the keyboard (as a user moving down the list). */
  async acceptSuggestion(match: RegExp): Promise<void> {
    const widget = this.page.locator('.editor-widget.suggest-widget').first();
    await this.until(
      `the suggestion ${match} to be the focused one`,
      async () => {
        const focused = (
          await widget
            .locator('.monaco-list-row.focused')
            .first()
            .innerText()
            .catch(() => '')
        ).replace(/\s+/g, ' ');
        if (match.test(focused)) return true;
        await this.page.keyboard.press('ArrowDown');
        return undefined;
      },
      10_000,
    );
    await this.page.keyboard.press('Enter');
    await widget.waitFor({ state: 'hidden', timeout: 10_000 });
  }

  /** Replaces text in the active editor with its Find and Replace widget (Replace All). */
  async replaceInEditor(find: string, replacement: string): Promise<void> {
    const widget = this.page.locator('.editor-group-container.active .find-widget').first();
    await this.until(
      'the Find and Replace widget',
      async () => {
        if (
          !(await this.page
            .locator('.editor-group-container.active .find-widget.visible.replaceToggled')
            .isVisible()
            .catch(() => false))
        ) {
          await this.page.keyboard.press('Control+H');
        }
        const shown = (): Promise<boolean> =>
          this.page
            .locator('.editor-group-container.active .find-widget.visible.replaceToggled')
            .isVisible()
            .catch(() => false);
        return (await this.within(300, shown)) ? true : undefined;
      },
      10_000,
    );
    await widget.locator('.find-part textarea').first().fill(find);
    await widget.locator('.replace-part textarea').first().fill(replacement);
    await this.until(
      `"${find}" to be found`,
      async () => (/(^|\D)1 of 1/.test(await widget.innerText()) ? true : undefined),
      10_000,
    );
    await this.page.keyboard.press('Control+Alt+Enter');
    await this.until(
      `"${find}" to be replaced`,
      async () => ((await widget.getAttribute('class'))?.includes('no-results') ? true : undefined),
      10_000,
    );
    // The widget slides away rather than disappearing: it loses its "visible" class. Escape closes it
    // only while the editor or the widget has focus, and Replace All can leave focus elsewhere, so
    // focus its find box and press Escape again until it goes.
    const closed = (): Promise<boolean> =>
      this.page
        .locator('.editor-group-container.active .find-widget.visible')
        .count()
        .then((n) => n === 0)
        .catch(() => false);
    await this.until(
      'the Find and Replace widget to close',
      async () => {
        if (await closed()) return true;
        await widget
          .locator('.find-part textarea')
          .first()
          .focus()
          .catch(() => undefined);
        await this.page.keyboard.press('Escape');
        return (await this.within(500, closed)) ? true : undefined;
      },
      10_000,
    );
  }

  /** Opens the quick fixes at the cursor (Ctrl+.) and returns their titles once one matches. */
  async quickFixes(match: RegExp): Promise<string[]> {
    const widget = this.page
      .locator('.action-widget')
      .filter({ has: this.page.locator('.monaco-list-row') })
      .first();
    const row = widget.locator('.monaco-list-row').filter({ hasText: match }).first();
    // Asked again when the list does not come (a keypress can land while the editor is still busy).
    await this.until(
      `the quick fix ${match}`,
      async () => {
        if (!(await row.isVisible().catch(() => false))) await this.page.keyboard.press('Control+.');
        await row.waitFor({ state: 'visible', timeout: 3_000 }).catch(() => undefined);
        return (await row.isVisible().catch(() => false)) ? true : undefined;
      },
      15_000,
    );
    return (await widget.locator('.monaco-list-row').allInnerTexts()).map((text) => text.trim()).filter(Boolean);
  }

  /** Applies the quick fix whose title matches, from the open list. */
  async applyQuickFix(match: RegExp): Promise<void> {
    const widget = this.page
      .locator('.action-widget')
      .filter({ has: this.page.locator('.monaco-list-row') })
      .first();
    await widget.locator('.monaco-list-row').filter({ hasText: match }).first().click();
    await widget.waitFor({ state: 'hidden', timeout: 10_000 });
  }

  /** Runs an action of the editor title bar (the icons right of the tabs) by its title. */
  async editorTitleAction(title: string): Promise<void> {
    await this.page
      .locator(`.editor-group-container.active .editor-actions .action-label[aria-label^="${title}"]`)
      .first()
      .click();
  }

  /** The Problems panel's text when it says there is no problem; waits for that. */
  async noProblems(timeoutMs = 20_000): Promise<string> {
    await this.runCommand('View: Focus Problems');
    const panel = this.page.locator('.markers-panel');
    await panel.waitFor({ state: 'visible', timeout: 10_000 });
    return this.until(
      'the Problems panel to show no problem',
      async () => {
        const text = await panel.innerText();
        return /No problems have been detected/.test(text) ? text : undefined;
      },
      timeoutMs,
    );
  }
}
