// Runs the workbench flows one after another in one browser page (they build on each other, as a user's
// session does), each with its own time limit and a screenshot after every step and on failure.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { Workbench } from './workbench';

export interface PlatformUnderTest {
  baseUrl: string;
  accessKey: string;
  secretKey: string;
  /** A second account on the same platform with thousands of channels and videos (largeAccount.ts). */
  large: { accessKey: string; secretKey: string; channels: number; videos: number };
}

export interface FlowContext {
  wb: Workbench;
  platform: PlatformUnderTest;
  workspace: string;
  /** Saves a screenshot named after the flow and this step. */
  shot(step: string): Promise<void>;
  log(message: string): void;
}

export interface Flow {
  name: string;
  timeoutMs?: number;
  run(ctx: FlowContext): Promise<void>;
}

export interface FlowResult {
  name: string;
  ok: boolean;
  error?: string;
  durationMs: number;
}

export interface RunFlowsOptions {
  browser: Browser;
  flows: Flow[];
  url: string;
  screenshotsDir: string;
  workspace: string;
  platform: PlatformUnderTest;
  log(message: string): void;
}

function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 60);
}

export async function runFlows(options: RunFlowsOptions): Promise<FlowResult[]> {
  mkdirSync(options.screenshotsDir, { recursive: true });
  const page = await options.browser.newPage({ viewport: { width: 1400, height: 900 } });
  page.setDefaultTimeout(20_000);
  const consoleErrors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  const wb = new Workbench(page);
  const results: FlowResult[] = [];
  let shotNumber = 0;
  try {
    await wb.open(options.url);
  } catch (error) {
    await page
      .screenshot({ path: join(options.screenshotsDir, '01-workbench-did-not-open.png') })
      .catch(() => undefined);
    return [{ name: 'workbench opens', ok: false, error: String(error), durationMs: 0 }];
  }
  // E2E_FLOWS=<regular expression>: only the flows whose names match (a flow that needs no earlier one, by hand).
  const selected = process.env.E2E_FLOWS ? new RegExp(process.env.E2E_FLOWS) : undefined;
  for (const [index, flow] of options.flows.entries()) {
    if (selected && !selected.test(flow.name)) continue;
    const started = Date.now();
    const prefix = String(index + 1).padStart(2, '0');
    const ctx: FlowContext = {
      wb,
      platform: options.platform,
      workspace: options.workspace,
      log: options.log,
      shot: async (step) => {
        shotNumber++;
        await page.screenshot({
          path: join(
            options.screenshotsDir,
            `${prefix}-${String(shotNumber).padStart(2, '0')}-${slug(flow.name)}--${slug(step)}.png`,
          ),
        });
      },
    };
    options.log(`flow: ${flow.name}`);
    const limit = flow.timeoutMs ?? 90_000;
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        flow.run(ctx),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`flow did not finish within ${limit / 1000} s`)), limit);
        }),
      ]);
      results.push({ name: flow.name, ok: true, durationMs: Date.now() - started });
    } catch (error) {
      await page
        .screenshot({ path: join(options.screenshotsDir, `${prefix}-${slug(flow.name)}--FAILED.png`) })
        .catch(() => undefined);
      results.push({
        name: flow.name,
        ok: false,
        error: error instanceof Error ? error.message : String(error),
        durationMs: Date.now() - started,
      });
      // Leave the workbench in a neutral state for the next flow.
      await wb.dismissQuickInput().catch(() => undefined);
      await page.keyboard.press('Escape').catch(() => undefined);
    } finally {
      clearTimeout(timer);
    }
  }
  await page.close();
  return results;
}
