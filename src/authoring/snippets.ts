/**
 * The `vp-` snippets (snippets/video-platform.json), offered by the extension's completion in the
 * document kind each one is written for, not in every JSON file (which a `contributes.snippets` entry
 * for the json language would do). Read from disk like the schemas, beside dist/ in the extension.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { getLocation } from 'jsonc-parser';
import { DOCUMENT_KINDS, type DocumentKind } from './documentKind';
import type { TextRange } from './problems';
import { l10n } from '../l10n/l10n';

export interface DocumentSnippet {
  prefix: string;
  /** The document kind it is offered in. */
  kind: DocumentKind;
  description: string;
  /** VS Code snippet syntax (`${1:name}`, `${2|0,1|}`), lines joined with \n. */
  body: string;
}

let loaded: DocumentSnippet[] | undefined;

function snippetFile(): string {
  const candidates = [join(__dirname, '..', 'snippets'), join(__dirname, '..', '..', 'snippets')].map((dir) =>
    join(dir, 'video-platform.json'),
  );
  const found = candidates.find((file) => existsSync(file));
  if (!found) throw new Error(`The snippets were not found (looked for ${candidates.join(' and ')}).`);
  return found;
}

export function allSnippets(): DocumentSnippet[] {
  if (!loaded) {
    const file = JSON.parse(readFileSync(snippetFile(), 'utf8')) as Record<
      string,
      { prefix: string; kind: string; description: string; body: string[] }
    >;
    loaded = Object.values(file).map((s) => {
      if (!(DOCUMENT_KINDS as readonly string[]).includes(s.kind))
        throw new Error(`Snippet ${s.prefix}: kind "${s.kind}" is not a document kind.`);
      return { prefix: s.prefix, kind: s.kind as DocumentKind, description: s.description, body: s.body.join('\n') };
    });
  }
  return loaded;
}

/**
 * What a snippet makes, in the user's language: snippets/video-platform.json's descriptions are keys of
 * l10n/bundle.l10n.<lang>.json (scripts/l10n-export.mjs adds them).
 */
export function snippetDescription(snippet: DocumentSnippet): string {
  return l10n.t(snippet.description);
}

/** The snippets of a document kind. */
export function snippetsFor(kind: DocumentKind): DocumentSnippet[] {
  return allSnippets().filter((s) => s.kind === kind);
}

/**
 * The snippets offered at `offset`: those of the kind, but none inside a string, number or literal (an id
 * being completed, a name or number being typed, or just after one), where a snippet's object could not go.
 */
export function snippetsOfferedAt(kind: DocumentKind, text: string, offset: number): DocumentSnippet[] {
  const node = getLocation(text, offset).previousNode;
  if (
    node &&
    node.type !== 'object' &&
    node.type !== 'array' &&
    offset > node.offset &&
    offset <= node.offset + node.length
  )
    return [];
  return snippetsFor(kind);
}

/**
 * What a chosen snippet replaces: the `vp-...` typed just before the cursor (letters, digits and
 * dashes, which JSON's word rule would split), or nothing at the cursor.
 */
export function snippetPrefixRange(text: string, offset: number): TextRange {
  let start = offset;
  while (start > 0 && /[\w-]/.test(text[start - 1]!)) start--;
  return { offset: start, length: offset - start };
}
