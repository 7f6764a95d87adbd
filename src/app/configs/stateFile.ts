/**
 * The state file's name and whether a file lies in a pulled folder: all that activation needs of configuration as
 * code (the editor's checks and the account lens leave a pulled folder's files to Plan and Apply), kept apart from
 * state.ts so that the rest stays in the lazy part (scripts/build.mjs).
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

export const STATE_FILE = '.video-platform-state.json';

/** Whether a file lies in a pulled folder (its documents refer by name: the plan checks them, not the editor's rules). */
export function inPulledFolder(fileName: string): boolean {
  return existsSync(join(dirname(fileName), STATE_FILE));
}
