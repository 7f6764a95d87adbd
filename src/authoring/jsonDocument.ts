/**
 * A parsed JSON document with what validation needs on top of jsonc-parser: the node at a path
 * (whatever the path came from: ajv's JSON pointers or the rules' own paths), the range to mark for
 * a path, field labels in the document's words (`outputGroupList[0].isTimeShift`), and quick-fix
 * edits computed with jsonc-parser's `modify` so they keep the file's own indentation.
 */
import { applyEdits, modify, parseTree, type FormattingOptions, type Node, type ParseError } from 'jsonc-parser';
import type { TextEdit, TextRange, Fix } from './problems';
import { strictJsonTree } from './strictTree';

export type JsonPath = ReadonlyArray<string | number>;

export class JsonDocument {
  readonly root: Node | undefined;
  readonly parseErrors: ParseError[] = [];
  readonly formatting: FormattingOptions;

  /** The value, when the text is strict JSON (no comments, no trailing comma). */
  readonly strictValue: { value: unknown } | undefined;

  constructor(readonly text: string) {
    // Strict JSON (the usual case) is read by JSON.parse and its tree built in one quick pass; what
    // only jsonc-parser accepts, or cannot read at all, goes to jsonc-parser, which says where it fails.
    try {
      this.strictValue = { value: JSON.parse(text) as unknown };
    } catch {
      this.strictValue = undefined;
    }
    this.root = this.strictValue
      ? strictJsonTree(text)
      : parseTree(text, this.parseErrors, { allowTrailingComma: false, disallowComments: false });
    this.formatting = detectFormatting(text);
  }

  /** The node at a path; numeric-looking segments index arrays, any segment names object keys. */
  node(path: JsonPath): Node | undefined {
    let node = this.root;
    for (const segment of path) {
      if (!node) return undefined;
      if (node.type === 'array') {
        const index = typeof segment === 'number' ? segment : /^\d+$/.test(segment) ? Number(segment) : -1;
        node = node.children?.[index];
      } else if (node.type === 'object') {
        const key = String(segment);
        // The last of duplicated keys wins, as in JSON.parse.
        const property = node.children?.filter((p) => p.children?.[0]?.value === key).pop();
        node = property?.children?.[1];
      } else {
        return undefined;
      }
    }
    return node;
  }

  /** The property-key node of the last segment, when the path ends at an object member. */
  keyNode(path: JsonPath): Node | undefined {
    const value = this.node(path);
    const parent = value?.parent;
    return parent?.type === 'property' ? parent.children?.[0] : undefined;
  }

  /** Range of the value at the path; for a missing value, the nearest existing ancestor's marker. */
  valueRange(path: JsonPath): TextRange {
    for (let depth = path.length; depth >= 0; depth--) {
      const node = this.node(path.slice(0, depth));
      if (node) return depth === path.length ? rangeOf(node) : this.markerRange(path.slice(0, depth));
    }
    return { offset: 0, length: Math.min(1, this.text.length) };
  }

  /**
   * A short range standing for a whole object or array: its property key when it has one, else its
   * opening bracket (so a missing field does not squiggle the whole block).
   */
  markerRange(path: JsonPath): TextRange {
    const node = this.node(path);
    if (!node) return this.valueRange(path);
    const key = this.keyNode(path);
    if (key) return rangeOf(key);
    if (node.type === 'object' || node.type === 'array') return { offset: node.offset, length: 1 };
    return rangeOf(node);
  }

  /** Builds a quick fix from edits made one after another; the result is one text edit. */
  fix(title: string, change: (draft: DraftEdits) => void, select?: JsonPath): Fix {
    const draft = new DraftEdits(this.text, this.formatting);
    change(draft);
    const fix: Fix = { title, edits: [singleEdit(this.text, draft.text)] };
    const value = select ? new JsonDocument(draft.text).node(select) : undefined;
    // The value the fix added: inside the quotes of a string, else all of it.
    if (value)
      fix.select = value.type === 'string' ? { offset: value.offset + 1, length: value.length - 2 } : rangeOf(value);
    return fix;
  }
}

/** Successive edits on a text copy, each computed on the result of the previous one. */
export class DraftEdits {
  constructor(
    public text: string,
    private readonly formatting: FormattingOptions,
  ) {}

  /** Sets (or inserts) the value at a path; `first` puts a new property at the start of its object. */
  set(path: JsonPath, value: unknown, first = false): this {
    this.apply(path, value, first ? () => 0 : undefined);
    return this;
  }

  remove(path: JsonPath): this {
    this.apply(path, undefined);
    return this;
  }

  /** Renames a property keeping its value where it is. */
  renameKey(path: JsonPath, newName: string): this {
    const doc = new JsonDocument(this.text);
    const key = doc.keyNode(path);
    if (key)
      this.text = this.text.slice(0, key.offset) + JSON.stringify(newName) + this.text.slice(key.offset + key.length);
    return this;
  }

  private apply(path: JsonPath, value: unknown, getInsertionIndex?: (properties: string[]) => number): void {
    const edits = modify(this.text, [...path], value, { formattingOptions: this.formatting, getInsertionIndex });
    this.text = applyEdits(this.text, edits);
  }
}

export function rangeOf(node: Node): TextRange {
  return { offset: node.offset, length: node.length };
}

/** `outputGroupList[0].isTimeShift`; the empty path is "the document". */
export function labelOf(path: JsonPath): string {
  if (path.length === 0) return 'the document';
  let label = '';
  for (const segment of path) {
    if (typeof segment === 'number' || /^\d+$/.test(segment)) label += `[${segment}]`;
    else label += label ? `.${segment}` : segment;
  }
  return label;
}

/** ajv's instancePath (a JSON pointer) as path segments, array indexes as numbers. */
export function pointerToPath(pointer: string): Array<string | number> {
  if (!pointer) return [];
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s));
}

/** One edit turning `before` into `after` (common prefix and suffix kept). */
export function singleEdit(before: string, after: string): TextEdit {
  let start = 0;
  const max = Math.min(before.length, after.length);
  while (start < max && before.charCodeAt(start) === after.charCodeAt(start)) start++;
  let endBefore = before.length;
  let endAfter = after.length;
  while (endBefore > start && endAfter > start && before.charCodeAt(endBefore - 1) === after.charCodeAt(endAfter - 1)) {
    endBefore--;
    endAfter--;
  }
  return { offset: start, length: endBefore - start, newText: after.slice(start, endAfter) };
}

/** The file's own indentation (first indented line) and line ending, for inserted text. */
export function detectFormatting(text: string): FormattingOptions {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const indent = /\n([ \t]+)\S/.exec(text)?.[1];
  if (indent?.startsWith('\t')) return { insertSpaces: false, tabSize: 4, eol };
  return { insertSpaces: true, tabSize: indent ? Math.min(indent.length, 8) : 2, eol };
}
