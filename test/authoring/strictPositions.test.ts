/**
 * Positions found in strict JSON without a node tree (issue 29): every range a problem can be placed
 * on is the one jsonc-parser's tree gives, repeated keys are found whatever the strings hold, and a
 * large group's problems still land exactly where the value is.
 */
import * as assert from 'node:assert/strict';
import { findNodeAtLocation, parseTree, type Node } from 'jsonc-parser';
import { JsonDocument, type JsonPath } from '../../src/authoring/jsonDocument';
import { validateDocument } from '../../src/authoring/validate';

const DOCUMENTS = [
  '{}',
  '[]',
  '"text"',
  ' 12 ',
  '{"a":1,"b":[true,false,null,{"c":"d"}],"e":{}}',
  '{\r\n\t"name" : "x\\"y\\\\z\\u00e9\\n" ,\r\n\t"n" : [ 0 , -0 , 1E+2 , 3.25 ]\r\n}',
  JSON.stringify({ name: 'Big', list: [{ a: 1, 'é "k"': [[], {}], n: null }], same: 1, same2: 2 }, null, 2),
  '{"a":1,"a":{"b":[1,2]},"c":"x"}',
  '{"k\\u0065y": 1, "key": [2, {"key": 3}]}',
  '{"__proto__": {"x": 1}, "0": "zero", "url": "rtmp://host:1935/live", "a\\\\": "\\\\"}',
  '[[1, [2, [3]]], {"": {"": ""}}]',
];

/** Every path of the tree, and beside each a few that lead nowhere or index oddly. */
function pathsOf(node: Node, path: Array<string | number> = [], out: JsonPath[] = []): JsonPath[] {
  out.push(path, [...path, 'missing'], [...path, 7], [...path, '0'], [...path, -1]);
  if (node.type === 'array') node.children?.forEach((child, i) => pathsOf(child, [...path, i], out));
  if (node.type === 'object')
    for (const property of node.children ?? []) {
      const key = property.children?.[0]?.value as string;
      out.push([...path, key, 'deeper', 0]);
      if (property.children?.[1]) pathsOf(property.children[1], [...path, key], out);
    }
  return out;
}

describe('authoring: positions in strict JSON without a tree', () => {
  it('places values, markers and keys exactly where the node tree does, for every path', () => {
    for (const text of DOCUMENTS) {
      for (const path of pathsOf(parseTree(text)!)) {
        const scanned = new JsonDocument(text);
        const fromTree = new JsonDocument(text);
        assert.ok(fromTree.root); // builds the tree, which its lookups then use
        const where = `${text} at ${JSON.stringify(path)}`;
        assert.deepEqual(scanned.valueRange(path), fromTree.valueRange(path), where);
        assert.deepEqual(scanned.markerRange(path), fromTree.markerRange(path), where);
        assert.deepEqual(scanned.keyRange(path), fromTree.keyRange(path), where);
      }
    }
  });

  it('finds a repeated key whatever the strings hold (colons, quotes, backslashes), and none where none is', () => {
    const cases: Array<[string, boolean]> = [
      ['{"a": 1, "b": 2}', false],
      ['{"a": 1, "a": 2}', true],
      ['{"list": [{"x": 1}, {"x": 2, "y": {"x": 3, "x": 4}}]}', true],
      ['{"url": "rtmp://h:1935/a:b", "name": "a: b"}', false],
      // The dropped member's colon is made up for by a colon inside a string: still found.
      ['{"url": "rtmp:", "url": "x"}', true],
      ['{"a:b": 1, "c": "d:e:f"}', false],
      ['{"a:b": 1, "a:b": 2}', true],
      ['{"q": "say \\"a\\": 1", "r": "\\\\"}', false],
      ['{"q": "say \\"a\\": 1", "q": "\\\\"}', true],
      ['{"k\\u0065y": 1, "key": 2}', true],
      ['{"__proto__": 1, "__proto__": 2}', true],
      ['{"__proto__": {}, "constructor": 1}', false],
      ['["a:b", {"c": ":"}]', false],
    ];
    for (const [text, repeats] of cases) {
      assert.equal(new JsonDocument(text).repeatsKeys, repeats, text);
      const problems = validateDocument('livelogo', text).problems.filter((p) => p.code === 'json.duplicateKey');
      assert.equal(problems.length > 0, repeats, text);
    }
  });

  it('places a rule problem in a large group exactly, and a repeated key with its words and fix', () => {
    const templates = Array.from({ length: 300 }, (_, i) => ({
      name: `r${i}`,
      videoWidth: 1280,
      videoHeight: 720,
      videoBitrate: 500 + i,
      audioBitrate: i === 211 ? 64 : 96000,
      format: 0,
      encryptType: 0,
      defaultVideo: i === 0 ? 1 : 0,
      advancedArguments: { gopSize: 50, ...(i === 250 ? { gopsize: 1 } : {}) },
    }));
    const group = { name: 'Ladder: main', type: 0, trailor: false, trailorDuration: 0, logoGroupId: 0 };
    const text = JSON.stringify({ ...group, transcodeTemplates: templates }, null, 2).replace(
      '"type": 0,',
      '"type": 0,\n  "type": 1,',
    );
    const tree = parseTree(text)!;
    const problems = validateDocument('templategroup', text).problems;

    const unit = problems.find((p) => p.code === 'bitrate.audioUnit');
    const audio = findNodeAtLocation(tree, ['transcodeTemplates', 211, 'audioBitrate'])!;
    assert.deepEqual(unit?.range, { offset: audio.offset, length: audio.length });
    assert.equal(text.slice(audio.offset, audio.offset + audio.length), '64');

    const unknownKey = problems.find((p) => p.code === 'advancedArguments.unknownKey');
    const key = findNodeAtLocation(tree, ['transcodeTemplates', 250, 'advancedArguments', 'gopsize'])!.parent!
      .children![0];
    assert.deepEqual(unknownKey?.range, { offset: key.offset, length: key.length });

    const repeated = problems.find((p) => p.code === 'json.duplicateKey');
    assert.equal(repeated?.message, '"type" appears more than once in the document; only the last one counts.');
    assert.equal(text.slice(repeated.range.offset, repeated.range.offset + repeated.range.length), '"type"');
    assert.equal(repeated.range.offset, text.indexOf('"type"'));

    const tooMany = problems.find((p) => p.code === 'schema.maxItems');
    assert.equal(tooMany?.message, 'transcodeTemplates may list at most 20 items; it has 300.');
    assert.equal(tooMany.range.offset, text.indexOf('"transcodeTemplates"'));
  });
});
