/**
 * Problems of the six document kinds in the Problems panel: validated on open and, debounced, on
 * change; then again with the account's lists for reference checks. Platform refusals are added
 * by the Create or Update command and stay until the next change.
 *
 * While editing, VS Code's own JSON check already reports syntax and schema problems (the same
 * schema files, through contributes.jsonValidation), so only what a schema cannot say is published
 * then; repeating them would list every such problem twice. The full set (ajv included) is published
 * when the user asks for it (Validate, Create or Update) until the next change, and always when
 * VS Code's JSON validation is turned off. Quick fixes are offered for every problem either way.
 */
import * as vscode from 'vscode';
import { documentKind, type DocumentKind } from '../../authoring/documentKind';
import type { Problem } from '../../authoring/problems';
import { referenceKindsOf } from '../../authoring/references';
import { validateDocument, type ValidationResult } from '../../authoring/validate';
import { toDiagnostic } from './convert';
import type { ReferenceCache } from '../../app/authoring/referenceCache';

const DEBOUNCE_MS = 250;

function jsonValidationOn(): boolean {
  return vscode.workspace.getConfiguration('json').get<boolean>('validate.enable', true) !== false;
}

interface Entry {
  version: number;
  result: ValidationResult;
  platform: Problem[];
  /** Publish schema and syntax problems too (an explicit validation of this version). */
  full: boolean;
}

/** Problems that VS Code's JSON language features report themselves from the same schema. */
function reportedByJsonService(problem: Problem): boolean {
  const code = problem.code ?? '';
  return (
    code.startsWith('schema.') ||
    code === 'json.syntax' ||
    code === 'json.trailingComma' ||
    code === 'json.duplicateKey'
  );
}

export class DocumentDiagnostics implements vscode.Disposable {
  private readonly collection = vscode.languages.createDiagnosticCollection('videoPlatform.authoring');
  private readonly entries = new Map<string, Entry>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(private readonly references: ReferenceCache) {
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
    if (!kind) return undefined;
    const key = document.uri.toString();
    const result = validateDocument(kind, document.getText());
    this.entries.set(key, { version: document.version, result, platform: [], full: false });
    this.publish(document);
    void this.withReferences(document, kind);
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
    const lists = await this.references.lists(referenceKindsOf(kind), document.uri.toString());
    const result = validateDocument(kind, document.getText(), lists);
    this.entries.set(document.uri.toString(), { version: document.version, result, platform: [], full: true });
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
    const lists = await this.references.lists(referenceKindsOf(kind), document.uri.toString());
    if (!lists || document.isClosed || document.version !== version) return;
    const entry = this.entries.get(document.uri.toString());
    if (!entry || entry.version !== version) return;
    entry.result = validateDocument(kind, document.getText(), lists);
    this.publish(document);
  }

  private publish(document: vscode.TextDocument): void {
    const entry = this.entries.get(document.uri.toString());
    if (!entry) return;
    const shown =
      entry.full || !jsonValidationOn()
        ? entry.result.problems
        : entry.result.problems.filter((p) => !reportedByJsonService(p));
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
