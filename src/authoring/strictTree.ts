/**
 * The node tree jsonc-parser's `parseTree` builds, for text already known to be strict JSON (JSON.parse
 * read it): the same nodes, offsets, lengths, colon offsets and parents, built in one pass without
 * jsonc-parser's tolerant scanner (several times quicker on large documents). Anything else goes to
 * `parseTree`, which also reports the syntax errors.
 */
import type { Node } from 'jsonc-parser';

/** Node with its fields writable while the tree is built. */
type TreeNode = { -readonly [K in keyof Node]: Node[K] };

export function strictJsonTree(text: string): Node {
  let at = 0;
  const space = (): void => {
    for (;;) {
      const c = text.charCodeAt(at);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) at++;
      else return;
    }
  };
  const string = (parent: Node | undefined): TreeNode => {
    const start = at;
    let escaped = false;
    at++; // opening quote
    for (;;) {
      const c = text.charCodeAt(at);
      if (c === 0x22) break;
      if (c === 0x5c) {
        escaped = true;
        at++;
      }
      at++;
    }
    at++; // closing quote
    const value = escaped ? (JSON.parse(text.slice(start, at)) as string) : text.slice(start + 1, at - 1);
    return { type: 'string', value, offset: start, length: at - start, parent } as TreeNode;
  };
  const value = (parent: Node | undefined): TreeNode => {
    space();
    const start = at;
    const c = text.charCodeAt(at);
    if (c === 0x7b) {
      const node = { type: 'object', offset: start, length: -1, parent, children: [] as Node[] } as TreeNode;
      at++;
      space();
      if (text.charCodeAt(at) === 0x7d) at++;
      else {
        for (;;) {
          space();
          const property = {
            type: 'property',
            offset: at,
            length: -1,
            parent: node,
            children: [] as Node[],
          } as TreeNode;
          node.children!.push(property);
          property.children!.push(string(property));
          space();
          property.colonOffset = at;
          at++; // colon
          const v = value(property);
          property.children!.push(v);
          property.length = v.offset + v.length - property.offset;
          space();
          if (text.charCodeAt(at++) === 0x7d) break; // else a comma
        }
      }
      node.length = at - start;
      return node;
    }
    if (c === 0x5b) {
      const node = { type: 'array', offset: start, length: -1, parent, children: [] as Node[] } as TreeNode;
      at++;
      space();
      if (text.charCodeAt(at) === 0x5d) at++;
      else {
        for (;;) {
          node.children!.push(value(node));
          space();
          if (text.charCodeAt(at++) === 0x5d) break;
        }
      }
      node.length = at - start;
      return node;
    }
    if (c === 0x22) return string(parent);
    if (c === 0x74) {
      at += 4;
      return { type: 'boolean', offset: start, length: 4, parent, value: true } as TreeNode;
    }
    if (c === 0x66) {
      at += 5;
      return { type: 'boolean', offset: start, length: 5, parent, value: false } as TreeNode;
    }
    if (c === 0x6e) {
      at += 4;
      return { type: 'null', offset: start, length: 4, parent, value: null } as TreeNode;
    }
    at++;
    for (;;) {
      const d = text.charCodeAt(at);
      // digits, '.', 'e', 'E', '+', '-'
      if ((d >= 0x30 && d <= 0x39) || d === 0x2e || d === 0x65 || d === 0x45 || d === 0x2b || d === 0x2d) at++;
      else break;
    }
    return {
      type: 'number',
      offset: start,
      length: at - start,
      parent,
      value: Number(text.slice(start, at)),
    } as TreeNode;
  };
  const root = value(undefined);
  delete root.parent;
  return root;
}
