/**
 * Entry point: wiring only. Activation is implicit (VS Code derives onView / onCommand events from
 * the contributed views and commands): opening the Video Platform container activates it. With
 * `npm start`, the launched window shows that container, so activation also picks up the
 * VIDEO_PLATFORM_DEV_* environment and makes its account active.
 */
import * as vscode from 'vscode';
import { activateAuthoring } from './authoring/session';
import { registerCommands } from './commands/registerCommands';
import { createRuntime } from './runtime';

let shutdown: (() => Promise<void>) | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const runtime = await createRuntime(context);
  shutdown = runtime.shutdown;
  context.subscriptions.push(
    ...registerCommands(runtime.services, (id, handler) => vscode.commands.registerCommand(id, handler)),
  );
  // Problems, quick fixes and id completion on every open platform document from activation on,
  // not only after the first authoring command.
  activateAuthoring(runtime.services);
}

/** Closes the client and the local platform (VS Code awaits this); views go with context.subscriptions. */
export async function deactivate(): Promise<void> {
  const stop = shutdown;
  shutdown = undefined;
  await stop?.();
}
