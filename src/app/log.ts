import type { RequestLogEntry } from '../api/client';

/** The part of vscode.LogOutputChannel the logic uses, so it runs without VS Code. */
export interface LogSink {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
  debug(message: string): void;
}

/**
 * One line per platform request. The client already masks the parameters (no secret, no signature);
 * we only lay them out.
 */
export function formatRequest(entry: RequestLogEntry): string {
  const params = Object.entries(entry.params ?? {})
    .map(([name, value]) => `${name}=${String(value)}`)
    .join(' ');
  const outcome =
    entry.error !== undefined
      ? `failed (${entry.error}${entry.status ? `, HTTP ${entry.status}` : ''})`
      : `code ${entry.code ?? '?'}`;
  const attempt = entry.attempt > 1 ? ` (attempt ${entry.attempt})` : '';
  return `${entry.method} ${entry.action}${attempt} ${outcome} in ${Math.round(entry.durationMs)} ms${params ? ` [${params}]` : ''}`;
}
