/**
 * Configuration as code as the extension loads it on first use (dist/lazy/configs.js, scripts/build.mjs): the
 * commands, the service behind the plan view and the drift watch, and the plan view's rows. See lazy.ts.
 */
export {
  applyPlanCommand,
  planFolderCommand,
  planToPutMineBackCommand,
  pullAccountIntoFolder,
  takePlatformVersionCommand,
} from './commands';
export { planRows } from './planTree';
export { driftMessage } from './render';
export { configsOf } from './service';
