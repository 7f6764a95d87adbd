/**
 * Drift of the pulled folders in the Explorer (file decorations) and in the Problems panel (one line per drifted or
 * refused file). Shown only once configuration as code is loaded: the extension's bundle leaves this in a part of its
 * own (dist/lazy/configsDrift.js, scripts/build.mjs), loaded by ./configs.ts with it.
 */
import { join } from 'node:path';
import * as vscode from 'vscode';
import { configsPart } from '../app/configs/lazy';
import type { FolderDrift } from '../app/configs/service';
import { l10n } from '../l10n/l10n';
import { DRIFT_CODE } from './configs';

/** Drift and refusals of the watched folders as file decorations and problems. */
export class DriftPresentation implements vscode.FileDecorationProvider {
  private readonly changed = new vscode.EventEmitter<vscode.Uri[] | undefined>();
  readonly onDidChangeFileDecorations = this.changed.event;

  /** `collection`: made at activation (./configs.ts), before this part is loaded. */
  constructor(private readonly collection: vscode.DiagnosticCollection) {}
  private decorations = new Map<string, vscode.FileDecoration>();

  show(drifts: readonly FolderDrift[]): void {
    const decorations = new Map<string, vscode.FileDecoration>();
    this.collection.clear();
    const byFile = new Map<string, vscode.Diagnostic[]>();
    const add = (path: string, diagnostic: vscode.Diagnostic): void =>
      void byFile.set(path, [...(byFile.get(path) ?? []), diagnostic]);
    for (const drift of drifts) {
      for (const op of drift.operations) {
        const path = join(drift.dir, op.file);
        const conflict = op.action === 'conflict';
        decorations.set(
          vscode.Uri.file(path).toString(),
          new vscode.FileDecoration(
            conflict ? 'C' : 'D',
            conflict
              ? l10n.t('Changed in the file and on the platform since the pull')
              : l10n.t('Changed on the platform since the pull'),
            new vscode.ThemeColor(conflict ? 'list.errorForeground' : 'list.warningForeground'),
          ),
        );
        const diagnostic = new vscode.Diagnostic(
          new vscode.Range(0, 0, 0, 1),
          configsPart().driftMessage(op),
          conflict ? vscode.DiagnosticSeverity.Error : vscode.DiagnosticSeverity.Warning,
        );
        diagnostic.code = DRIFT_CODE;
        diagnostic.source = l10n.t('Video Platform');
        add(path, diagnostic);
      }
      for (const problem of drift.problems) {
        const diagnostic = new vscode.Diagnostic(
          new vscode.Range(0, 0, 0, 1),
          problem.message,
          vscode.DiagnosticSeverity.Error,
        );
        diagnostic.source = l10n.t('Video Platform');
        add(join(drift.dir, problem.file), diagnostic);
      }
    }
    for (const [path, diagnostics] of byFile) this.collection.set(vscode.Uri.file(path), diagnostics);
    const touched = [...new Set([...this.decorations.keys(), ...decorations.keys()])].map((uri) =>
      vscode.Uri.parse(uri),
    );
    this.decorations = decorations;
    this.changed.fire(touched);
  }

  provideFileDecoration(uri: vscode.Uri): vscode.FileDecoration | undefined {
    return this.decorations.get(uri.toString());
  }

  dispose(): void {
    this.collection.dispose();
    this.changed.dispose();
  }
}
