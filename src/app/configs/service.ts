/**
 * What the extension knows of pulled folders: the last plan (the plan view shows it) and each watched folder's
 * drift, compared with the active account every few minutes (one list request per kind, as a plan reads). One per
 * context, made on first use, so that the context and compose() need no change for it.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { AppContext } from '../context';
import { Emitter } from '../util/emitter';
import { accountAddress } from './address';
import { planFolder, type Plan, type PlannedOperation } from './plan';
import { STATE_FILE, readState } from './state';

/** How often a watched folder is compared with the platform. */
export const DRIFT_INTERVAL_MS = 3 * 60_000;

/** A watched folder's last comparison: its drifted and conflicting records, and the plan's problems by file. */
export interface FolderDrift {
  readonly dir: string;
  readonly operations: PlannedOperation[];
  readonly problems: Array<{ file: string; message: string }>;
}

export class ConfigsService {
  private plan: Plan | undefined;
  private readonly drifts = new Map<string, FolderDrift>();
  private readonly watched = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private comparing: Promise<void> = Promise.resolve();
  private readonly planChanged = new Emitter<Plan | undefined>();
  private readonly driftChanged = new Emitter<void>();
  readonly onDidChangePlan = this.planChanged.event;
  readonly onDidChangeDrift = this.driftChanged.event;

  constructor(private readonly ctx: AppContext) {}

  get lastPlan(): Plan | undefined {
    return this.plan;
  }

  setPlan(plan: Plan | undefined): void {
    this.plan = plan;
    this.planChanged.fire(plan);
    if (plan) this.record(plan);
  }

  /** The drift of every watched folder, by folder. */
  get folderDrifts(): readonly FolderDrift[] {
    return [...this.drifts.values()];
  }

  /** The drifted (or conflicting) record of a file, when its folder's last comparison found one. */
  driftOf(dir: string, file: string): PlannedOperation | undefined {
    return this.drifts.get(dir)?.operations.find((op) => op.file === file);
  }

  /** Starts comparing these folders (the ones holding a state file) with the platform, now and every few minutes. */
  watch(dirs: readonly string[], intervalMs = DRIFT_INTERVAL_MS): void {
    for (const dir of dirs) this.watched.add(dir);
    if (!this.timer) {
      this.timer = setInterval(() => void this.compareAll(), intervalMs);
      this.timer.unref();
    }
    void this.compareAll();
  }

  /**
   * Compares each watched folder pulled from the active account; a failure leaves that folder's last result, a
   * folder without its state file any more is no longer watched. One comparison at a time, in the order asked.
   */
  compareAll(): Promise<void> {
    this.comparing = this.comparing.then(() => this.compareOnce());
    return this.comparing;
  }

  private async compareOnce(): Promise<void> {
    const profile = this.ctx.connection.activeAccount;
    if (!profile) return;
    const account = accountAddress(profile.baseUrl);
    for (const dir of [...this.watched]) {
      try {
        if (!existsSync(join(dir, STATE_FILE))) {
          this.watched.delete(dir);
          if (this.drifts.delete(dir)) this.driftChanged.fire();
          continue;
        }
        const state = await readState(dir);
        if (!state || state.baseUrl !== account) continue;
        this.record(await planFolder(await this.ctx.connection.activeClient(), dir, { account }));
      } catch (error) {
        this.ctx.log.warn(`configs: comparing ${dir} with the platform failed: ${(error as Error).message}`);
      }
    }
  }

  private record(plan: Plan): void {
    this.drifts.set(plan.dir, {
      dir: plan.dir,
      operations: plan.operations.filter((op) => op.action === 'drift' || op.action === 'conflict'),
      problems: plan.problems.filter((p) => p.file !== ''),
    });
    this.driftChanged.fire();
  }

  dispose(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.watched.clear();
  }
}

const services = new WeakMap<AppContext, ConfigsService>();

export function configsOf(ctx: AppContext): ConfigsService {
  let service = services.get(ctx);
  if (!service) {
    service = new ConfigsService(ctx);
    services.set(ctx, service);
  }
  return service;
}
