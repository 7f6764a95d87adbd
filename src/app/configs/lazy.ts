import { lazyPart } from '../lazyPart';
import type * as Part from './part';

/** The part's module (scripts/build.mjs sends this require to its file); a damaged install fails like any part. */
const part = lazyPart('configs', () => require('./part') as typeof Part);
let loaded: typeof Part | undefined;
const onLoad: Array<(part: typeof Part) => void> = [];

/**
 * Configuration as code, loaded the first time it is used: a command of it, or a pulled folder found in the
 * workspace (activation does not need it). The extension's bundle sends this require to dist/lazy/configs.js,
 * which shares the bundle's own modules (translator, error classes: scripts/build.mjs); the sources (tests) load
 * the module as it is.
 */
export function configsPart(): typeof Part {
  if (!loaded) {
    loaded = part();
    for (const listener of onLoad.splice(0)) listener(loaded);
  }
  return loaded;
}

/** Runs `listener` once the part is loaded (at once when it is already). */
export function whenConfigsLoaded(listener: (part: typeof Part) => void): void {
  if (loaded) listener(loaded);
  else onLoad.push(listener);
}

export const pullAccountIntoFolder: typeof Part.pullAccountIntoFolder = (ctx, args) =>
  configsPart().pullAccountIntoFolder(ctx, args);
export const planFolderCommand: typeof Part.planFolderCommand = (ctx, args) =>
  configsPart().planFolderCommand(ctx, args);
export const applyPlanCommand: typeof Part.applyPlanCommand = (ctx, args) => configsPart().applyPlanCommand(ctx, args);
export const takePlatformVersionCommand: typeof Part.takePlatformVersionCommand = (ctx, args) =>
  configsPart().takePlatformVersionCommand(ctx, args);
export const planToPutMineBackCommand: typeof Part.planToPutMineBackCommand = (ctx, args) =>
  configsPart().planToPutMineBackCommand(ctx, args);
