/**
 * A parsed JSON document with what validation needs on top of jsonc-parser: the node at a path
 * (whatever the path came from: ajv's JSON pointers or the rules' own paths), the range to mark for
 * a path, field labels in the document's words (`outputGroupList[0].isTimeShift`), and quick-fix
 * edits computed with jsonc-parser's `modify` so they keep the file's own indentation.
 */
import { applyEdits, modify, parseTree, type FormattingOptions, type Node, type ParseError } from 'jsonc-parser';
import type { TextEdit, TextRange, Fix } from './problems';
import { locateStrict, repeatsKeys, valueEnd, type Located as StrictLocated } from './strictPositions';
import { strictJsonTree } from './strictTree';

/** The deepest value along a path; `node` when it was read from the tree. */
interface Located extends StrictLocated {
  node?: Node;
}

export type JsonPath = ReadonlyArray<string | number>;

/**
 * Values placed by scanning the strict text before the tree is built: a scan walks the items before the one it
 * looks for, so a problem in each of 500 templates cost 0.5 s of scanning; the tree, one pass, then answers each.
 */
const STRICT_LOOKUPS = 16;

export class JsonDocument {
  readonly parseErrors: ParseError[] = [];

  /** The value, when the text is strict JSON (no comments, no trailing comma). */
  readonly strictValue: { value: unknown } | undefined;

  private tree: Node | undefined;
  private treeBuilt = false;
  /** Values placed by scanning the text so far (STRICT_LOOKUPS). */
  private strictLookups = 0;
  private repeatsKeysOnce: boolean | undefined;
  private formattingOnce: FormattingOptions | undefined;

  constructor(readonly text: string) {
    // Strict JSON (the usual case) is read by JSON.parse, and positions are found in its text only
    // when a problem is placed (./strictPositions.ts); its node tree is built in one quick pass on
    // first use. What only jsonc-parser accepts, or cannot read at all, goes to jsonc-parser, which
    // says where it fails.
    try {
      this.strictValue = { value: JSON.parse(text) as unknown };
    } catch {
      this.strictValue = undefined;
      this.tree = parseTree(text, this.parseErrors, { allowTrailingComma: false, disallowComments: false });
      this.treeBuilt = true;
    }
  }

  /** jsonc-parser's node tree of the text (built on first use for strict JSON). */
  get root(): Node | undefined {
    if (!this.treeBuilt) {
      this.tree = strictJsonTree(this.text);
      this.treeBuilt = true;
    }
    return this.tree;
  }

  /** The file's own indentation and line ending, for the text a fix inserts. */
  get formatting(): FormattingOptions {
    return (this.formattingOnce ??= detectFormatting(this.text));
  }

  /** Whether an object of the document names a field twice (JSON.parse then keeps the last). */
  get repeatsKeys(): boolean {
    this.repeatsKeysOnce ??= this.strictValue
      ? repeatsKeys(this.text, this.strictValue.value)
      : this.root !== undefined && treeRepeatsKeys(this.root);
    return this.repeatsKeysOnce;
  }

  /** The node at a path; numeric-looking segments index arrays, any segment names object keys. */
  node(path: JsonPath): Node | undefined {
    let node = this.root;
    for (const segment of path) {
      if (!node) return undefined;
      node = childOf(node, segment);
    }
    return node;
  }

  /** Range of the property key of the last segment, when the path ends at an object member. */
  keyRange(path: JsonPath): TextRange | undefined {
    const found = this.locate(path);
    return found?.depth === path.length ? found.key : undefined;
  }

  /** Range of the value at the path; for a missing value, the nearest existing ancestor's marker. */
  valueRange(path: JsonPath): TextRange {
    const found = this.locate(path);
    if (!found) return { offset: 0, length: Math.min(1, this.text.length) };
    return found.depth === path.length ? this.rangeOfValue(found) : this.marker(found);
  }

  /**
   * A short range standing for a whole object or array: its property key when it has one, else its
   * opening bracket (so a missing field does not squiggle the whole block). For a missing value, the
   * nearest existing ancestor's marker.
   */
  markerRange(path: JsonPath): TextRange {
    const found = this.locate(path);
    if (!found) return { offset: 0, length: Math.min(1, this.text.length) };
    return this.marker(found);
  }

  /**
   * The deepest value along the path: from the tree once it is built, else by scanning the strict
   * text (placing a few problems builds no tree; more than STRICT_LOOKUPS build it).
   */
  private locate(path: JsonPath): Located | undefined {
    if (!this.treeBuilt && ++this.strictLookups <= STRICT_LOOKUPS)
      return locateStrict(this.text, path, this.repeatsKeys);
    let node = this.root;
    if (!node) return undefined;
    let depth = 0;
    for (; depth < path.length; depth++) {
      const child = childOf(node, path[depth]);
      if (!child) break;
      node = child;
    }
    const key = node.parent?.type === 'property' ? node.parent.children?.[0] : undefined;
    return { depth, type: node.type, offset: node.offset, key: key && rangeOf(key), node };
  }

  private rangeOfValue(found: Located): TextRange {
    if (found.node) return rangeOf(found.node);
    return { offset: found.offset, length: valueEnd(this.text, found.offset) - found.offset };
  }

  /** The range of the value at exactly `path` and its type; undefined when the path does not reach one. */
  locateValue(path: JsonPath): (TextRange & { type: Located['type'] }) | undefined {
    const found = this.locate(path);
    if (found?.depth !== path.length) return undefined;
    return { type: found.type, ...this.rangeOfValue(found) };
  }

  private marker(found: Located): TextRange {
    if (found.key) return found.key;
    if (found.type === 'object' || found.type === 'array') return { offset: found.offset, length: 1 };
    return this.rangeOfValue(found);
  }

  /**
   * A quick fix from edits made one after another; the result is one text edit. Its edits are made when first
   * read (the editor asks for the fixes at the cursor): each fix re-reads the whole text, and made at once they
   * cost a 500-template group with a fixable problem in each 5.4 s a validation. Only the text, its formatting and
   * the change are held for it, not this document's tree.
   */
  fix(title: string, change: (draft: DraftEdits) => void, select?: JsonPath): Fix {
    const { text, formatting } = this;
    let made: { edits: TextEdit[]; select?: TextRange } | undefined;
    const make = (): { edits: TextEdit[]; select?: TextRange } => (made ??= madeFix(text, formatting, change, select));
    return {
      title,
      get edits() {
        return make().edits;
      },
      get select() {
        return make().select;
      },
    };
  }
}

/** A fix's one edit, and where the cursor goes after it (the value the fix added, when `select` names it). */
function madeFix(
  text: string,
  formatting: FormattingOptions,
  change: (draft: DraftEdits) => void,
  select: JsonPath | undefined,
): { edits: TextEdit[]; select?: TextRange } {
  const draft = new DraftEdits(text, formatting);
  change(draft);
  const edits = [singleEdit(text, draft.text)];
  if (!select) return { edits };
  // The value the fix added: inside the quotes of a string, else all of it.
  const added = new JsonDocument(draft.text);
  const value = added.locateValue(select);
  if (!value) return { edits };
  const { type, offset, length } = value;
  return { edits, select: type === 'string' ? { offset: offset + 1, length: length - 2 } : { offset, length } };
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
    const key = new JsonDocument(this.text).keyRange(path);
    if (key)
      this.text = this.text.slice(0, key.offset) + JSON.stringify(newName) + this.text.slice(key.offset + key.length);
    return this;
  }

  private apply(path: JsonPath, value: unknown, getInsertionIndex?: (properties: string[]) => number): void {
    const edits = modify(this.text, [...path], value, { formattingOptions: this.formatting, getInsertionIndex });
    this.text = applyEdits(this.text, edits);
  }
}

/** The child of an array or object node named by a path segment. */
function childOf(node: Node, segment: string | number): Node | undefined {
  if (node.type === 'array') {
    const index = typeof segment === 'number' ? segment : /^\d+$/.test(segment) ? Number(segment) : -1;
    return node.children?.[index];
  }
  if (node.type === 'object') {
    const key = String(segment);
    // The last of duplicated keys wins, as in JSON.parse.
    const property = node.children?.filter((p) => p.children?.[0]?.value === key).pop();
    return property?.children?.[1];
  }
  return undefined;
}

/** Whether an object of the tree names a field twice. */
function treeRepeatsKeys(node: Node): boolean {
  if (node.type === 'object' && node.children) {
    const names = new Set<unknown>();
    for (const property of node.children) {
      const name = property.children?.[0]?.value as unknown;
      if (names.has(name)) return true;
      names.add(name);
    }
  }
  return node.children?.some(treeRepeatsKeys) ?? false;
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
