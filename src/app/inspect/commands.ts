/**
 * The inspection commands, with the stream inspector behind them, as one module: the extension's bundle keeps it
 * in a part of its own (dist/lazy/inspect.js, scripts/build.mjs), loaded by src/app/commands/inspectCommands.ts
 * on the first use of one of them, since activation needs none of it (issue 15). The playlist checks of an open
 * `.m3u8` come from here too, loaded when the first playlist document is checked.
 */
export { playlistProblems } from '../../inspector/playlistProblems';
export { checkContent, inspectStream } from './inspectStream';
export { openPlayerFor, openPlayerInBrowser } from './player';
export { previewStream } from './preview';
export { evaluateTemplateGroup } from '../ladder/command';
// The Callbacks view's commands ride in the same part: activation needs none of them.
export * as callbacks from '../callbacks/callbackCommands';
