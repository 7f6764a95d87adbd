/**
 * Problems of the six document kinds in the Problems panel, in one collection keyed by document:
 * validated on open and, debounced, on change; then again with the account's lists for reference
 * checks; Validate and Create or Update replace them with their own (full) check of the same text,
 * and a platform refusal is added until the next change. Each problem is listed once, with the one
 * severity src/authoring gives it: VS Code's JSON features read a copy of the schemas without the
 * checks (src/authoring/editorSchema.ts), and what they report of any JSON file (syntax, repeated
 * keys) is left to them while their validation is on (`reportedByJsonService`). Quick fixes are
 * offered for every problem either way.
 */
import { inPulledFolder } from '../../app/configs/stateFile';
import * as vscode from 'vscode';
import { documentKind, type DocumentKind } from '../../authoring/documentKind';
import { reportedByJsonService, type Problem } from '../../authoring/problems';
import { validateDocument, type ValidationResult } from '../../authoring/validate';
import { toDiagnostic } from './convert';
import { listsFor } from '../../app/authoring/documentLists';
import type { ReferenceCache } from '../../app/authoring/referenceCache';

const DEBOUNCE_MS = 250;

function jsonValidationOn(): boolean {
  return vscode.workspace.getConfiguration('json').get<boolean>('validate.enable', true) !== false;
}

interface Entry {
  version: number;
  result: ValidationResult;
  platform: Problem[];
}

export class DocumentDiagnostics implements vscode.Disposable {
  private readonly entries = new Map<string, Entry>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly subscriptions: vscode.Disposable[] = [];

  /** `collection`: made at activation (src/vscode/authoring/languageFeatures.ts), before this part is loaded. */
  constructor(
    private readonly references: ReferenceCache,
    private readonly collection: vscode.DiagnosticCollection,
  ) {
    this.subscriptions.push(
      this.collection,
      vscode.workspace.onDidOpenTextDocument((d) => this.validate(d)),
      vscode.workspace.onDidChangeTextDocument((e) => this.schedule(e.document)),
      vscode.workspace.onDidCloseTextDocument((d) => this.forget(d.uri)),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('json.validate'))
          for (const document of vscode.workspace.textDocuments) this.publish(document);
      }),
    );
    for (const document of vscode.workspace.textDocuments) this.validate(document);
  }

  /** Validates now (syntax, schema, rules), then once more with reference checks when an account is set. */
  validate(document: vscode.TextDocument): ValidationResult | undefined {
    const kind = documentKind(document.fileName);
    // A pulled folder's documents refer by name: Plan Folder checks them (src/vscode/configs.ts shows its lines).
    if (!kind || inPulledFolder(document.fileName)) return undefined;
    const key = document.uri.toString();
    const result = validateDocument(kind, document.getText());
    this.entries.set(key, { version: document.version, result, platform: [] });
    this.publish(document);
    // The reference lists log their own failures; without them the document keeps the problems found above.
    this.withReferences(document, kind).catch(() => undefined);
    return result;
  }

  /** The latest problems of an open document (validating first when it changed since). */
  problems(document: vscode.TextDocument): Problem[] {
    const entry = this.entries.get(document.uri.toString());
    if (!entry || entry.version !== document.version) return this.validate(document)?.problems ?? [];
    return [...entry.result.problems, ...entry.platform];
  }

  /** Validates with the reference lists awaited and publishes every problem (for the commands). */
  async validateFully(document: vscode.TextDocument, kind: DocumentKind): Promise<ValidationResult> {
    const text = document.getText();
    const result = validateDocument(kind, text, await listsFor(this.references, kind, text, document.uri.toString()));
    this.entries.set(document.uri.toString(), { version: document.version, result, platform: [] });
    this.publish(document);
    return result;
  }

  /** A platform refusal shown on the document until it changes. */
  addPlatformProblem(document: vscode.TextDocument, problem: Problem): void {
    const entry = this.entries.get(document.uri.toString());
    if (!entry) return;
    entry.platform = [problem];
    this.publish(document);
  }

  revalidateAll(): void {
    for (const document of vscode.workspace.textDocuments) this.validate(document);
  }

  private schedule(document: vscode.TextDocument): void {
    if (!documentKind(document.fileName)) return;
    const key = document.uri.toString();
    clearTimeout(this.timers.get(key));
    this.timers.set(
      key,
      setTimeout(() => {
        this.timers.delete(key);
        this.validate(document);
      }, DEBOUNCE_MS),
    );
  }

  private async withReferences(document: vscode.TextDocument, kind: DocumentKind): Promise<void> {
    const version = document.version;
    const lists = await listsFor(this.references, kind, document.getText(), document.uri.toString());
    if (!lists || document.isClosed || document.version !== version) return;
    const entry = this.entries.get(document.uri.toString());
    if (!entry || entry.version !== version) return;
    entry.result = validateDocument(kind, document.getText(), lists);
    this.publish(document);
  }

  private publish(document: vscode.TextDocument): void {
    const entry = this.entries.get(document.uri.toString());
    if (!entry) return;
    const jsonOn = jsonValidationOn();
    const shown = entry.result.problems.filter((p) => !(jsonOn && reportedByJsonService(p)));
    this.collection.set(
      document.uri,
      [...shown, ...entry.platform].map((p) => toDiagnostic(document, p)),
    );
  }

  private forget(uri: vscode.Uri): void {
    const key = uri.toString();
    clearTimeout(this.timers.get(key));
    this.timers.delete(key);
    this.entries.delete(key);
    this.collection.delete(uri);
  }

  dispose(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    for (const s of this.subscriptions) s.dispose();
  }
}
