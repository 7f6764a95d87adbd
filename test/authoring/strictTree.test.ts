/** The quick tree of strict JSON is jsonc-parser's tree, node for node. */
import * as assert from 'node:assert/strict';
import { parseTree, type Node } from 'jsonc-parser';
import { JsonDocument } from '../../src/authoring/jsonDocument';
import { strictJsonTree } from '../../src/authoring/strictTree';

interface Shape {
  type: string;
  offset: number;
  length: number;
  colonOffset?: number;
  value?: unknown;
  children?: Shape[];
}

function shape(node: Node): Shape {
  const s: Shape = { type: node.type, offset: node.offset, length: node.length };
  if (node.colonOffset !== undefined) s.colonOffset = node.colonOffset;
  if ('value' in node) s.value = node.value;
  if (node.children) s.children = node.children.map(shape);
  return s;
}

function assertParents(node: Node): void {
  for (const child of node.children ?? []) {
    assert.equal(child.parent, node);
    assertParents(child);
  }
}

const DOCUMENTS = [
  '{}',
  '[]',
  '"text"',
  '-12.5e-3',
  'true',
  ' null ',
  '{"a":1,"b":[true,false,null,{"c":"d"}],"e":{}}',
  '{\r\n\t"name" : "x\\"y\\\\z\\u00e9\\n" ,\r\n\t"n" : [ 0 , -0 , 1E+2 , 3.25 ]\r\n}',
  JSON.stringify({ name: 'Big', list: [{ a: 1, 'é "k"': [[], {}], n: null }], same: 1, same2: 2 }, null, 2),
  '{"a":1,"a":2}',
];

describe('authoring: strict JSON tree', () => {
  it('builds the nodes, ranges, colons, values and parents jsonc-parser builds', () => {
    for (const text of DOCUMENTS) {
      const quick = strictJsonTree(text);
      assert.deepEqual(shape(quick), shape(parseTree(text)!), text);
      assert.equal(quick.parent, undefined);
      assertParents(quick);
    }
  });

  it('is used for strict JSON only: comments and syntax errors still go to jsonc-parser', () => {
    assert.deepEqual(new JsonDocument('{"a": [1, 2]}').strictValue, { value: { a: [1, 2] } });
    const commented = new JsonDocument('{"a": 1 // one\n}');
    assert.equal(commented.strictValue, undefined);
    assert.equal(commented.parseErrors.length, 0);
    assert.equal(commented.root?.children?.length, 1);
    const broken = new JsonDocument('{"a": 1,}');
    assert.equal(broken.strictValue, undefined);
    assert.ok(broken.parseErrors.length > 0);
  });
});
