import type * as vscode from 'vscode';

/** The documents the authoring providers serve: JSON files of the six kinds (untitled ones too). */
export const AUTHORING_SELECTOR: vscode.DocumentSelector = [
  'channel',
  'templategroup',
  'logogroup',
  'transcode',
  'livetemplate',
  'livelogo',
].flatMap((kind) => [
  { language: 'json', pattern: `**/*.${kind}.json` },
  { language: 'jsonc', pattern: `**/*.${kind}.json` },
]);

/** Run after a fix that added a value: the cursor goes into it (offsets in the text after the fix). */
export const SELECT_AFTER_FIX = 'videoPlatform.authoring.selectAfterFix';
