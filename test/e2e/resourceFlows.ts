// The Resources view in the workbench: a template group listed, opened as a file, changed there and compared with
// the platform in VS Code's diff editor.
import { strict as assert } from 'node:assert';
import { DEMO_NAMES } from '../../src/localPlatform/demo/demo';
import type { Flow, FlowContext } from './runFlows';

/** Waits for the row's text to match: its label and description run together ("Corner logo1 logo"). */
async function expectText(
  row: ReturnType<FlowContext['wb']['treeRow']>,
  pattern: RegExp,
  ctx: FlowContext,
): Promise<void> {
  await ctx.wb.until(`a row matching ${pattern}`, async () => {
    const text = (await row.innerText().catch(() => '')).replace(/\s+/g, ' ').trim();
    return pattern.test(text) ? text : undefined;
  });
}

export const resourceFlows: Flow[] = [
  {
    name: 'see the template groups in the Resources view, open one as a file, change it and compare it with the platform',
    async run(ctx) {
      const group = DEMO_NAMES.templateGroups.mobile;
      await ctx.wb.openActivity('Video Platform');
      const pane = await ctx.wb.expandPane('Resources');
      const section = ctx.wb.treeRow(pane, 'Template Groups');
      await section.waitFor({ state: 'visible', timeout: 20_000 });
      await ctx.wb.setExpanded(section, true);
      const row = ctx.wb.treeRow(pane, group);
      await row.waitFor({ state: 'visible', timeout: 20_000 });
      const rows = await ctx.wb.rowTexts(pane);
      assert.ok(
        rows.some((text) => /built-in/.test(text)),
        `no built-in group in ${rows.join(' | ')}`,
      );
      // Counts in the singular for one, the plural otherwise: never "1 templates".
      assert.ok(
        rows.every((text) => !/(^|\D)1 templates\b/.test(text)) && rows.some((text) => /\b\d+ templates?\b/.test(text)),
        `template counts: ${rows.join(' | ')}`,
      );

      await ctx.shot('template groups');
      await ctx.wb.rowContextAction(row, /Open as File/);
      await ctx.wb.until('the template group document', async () =>
        (await ctx.wb.editorText().innerText()).includes('transcodeTemplates') ? true : undefined,
      );
      await ctx.shot('opened as a file');
      await ctx.wb.replaceInEditor(`"name": "${group}"`, `"name": "${group} (edited)"`);
      await ctx.wb.editorTitleAction('Compare with Platform');
      const diff = ctx.wb.page.locator('.editor-group-container.active .monaco-diff-editor').first();
      await diff.waitFor({ state: 'visible', timeout: 20_000 });
      await ctx.wb.until('both sides of the comparison', async () => {
        // The editor shows spaces as no-break spaces.
        const text = (await diff.innerText()).replace(/\s+/g, ' ');
        return text.includes(`${group} (edited)`) && text.includes('transcodeTemplates') ? true : undefined;
      });
      await ctx.shot('compared with the platform');
      // Leave the workbench as it was: the diff closed, the changed file dropped.
      await ctx.wb.runCommand('View: Close Editor');
      await ctx.wb.runCommand('View: Revert and Close Editor');
      // A logo group of one logo says "1 logo" (the Template Groups closed first: the view is short).
      await ctx.wb.setExpanded(section, false);
      const logos = ctx.wb.treeRow(pane, 'Logo Groups');
      await logos.waitFor({ state: 'visible', timeout: 20_000 });
      await ctx.wb.setExpanded(logos, true);
      await expectText(ctx.wb.treeRow(pane, DEMO_NAMES.logoGroups[0]), /(^|\D)1 logo$/, ctx);
      await ctx.shot('logo groups, a count in the singular for one');
      await ctx.wb.setExpanded(logos, false);
    },
  },
];
