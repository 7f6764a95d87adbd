/**
 * Snippets produce documents that validate: the contributed snippets (expanded as VS Code would,
 * with each choice tried) and every `defaultSnippets` body of the schemas. The only problems allowed
 * are the empty id placeholders the user fills from completion.
 */
import * as assert from 'node:assert/strict';
import { DOCUMENT_KINDS, type DocumentKind } from '../../src/authoring/documentKind';
import type { Problem } from '../../src/authoring/problems';
import { createAjv } from '../../src/authoring/ajvOptions';
import { allSnippets, snippetPrefixRange, snippetsFor, snippetsOfferedAt } from '../../src/authoring/snippets';
import { validateDocument } from '../../src/authoring/validate';
import { covered, EXAMPLES, readJson, textOf } from './fixtures';

interface Snippet {
  prefix: string;
  description: string;
  body: string[];
}

/** VS Code snippet text with placeholders replaced: defaults kept, the `choice`-th option taken. */
export function expandSnippet(text: string, choice = 0): string {
  return text
    .replace(/\$\{\d+\|([^|]*)\|\}/g, (_, options: string) => {
      const list = options.split(',');
      return list[Math.min(choice, list.length - 1)];
    })
    .replace(/\$\{\d+:([^}]*)\}/g, '$1')
    .replace(/\$\{\d+\}/g, '')
    .replace(/\$\d+/g, '');
}

function choiceCount(text: string): number {
  return Math.max(1, ...[...text.matchAll(/\$\{\d+\|([^|]*)\|\}/g)].map((m) => m[1].split(',').length));
}

/** Snippets that are a piece of a document: where the piece goes in an example. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- documents are edited freely
const FRAGMENTS: Record<string, { kind: DocumentKind; place: (doc: Record<string, any>, piece: unknown) => void }> = {
  'vp-output-hls': { kind: 'channel', place: (d, piece) => (d.outputGroupList[0] = piece) },
  'vp-output-rtmp': { kind: 'channel', place: (d, piece) => (d.outputGroupList[1] = piece) },
  'vp-template-720p-hls': {
    kind: 'templategroup',
    place: (d, piece) =>
      (d.transcodeTemplates = [
        piece,
        {
          ...d.transcodeTemplates[1],
          name: 'other',
          defaultVideo: (piece as { defaultVideo: number }).defaultVideo === 1 ? 0 : 1,
        },
      ]),
  },
  'vp-logo': { kind: 'logogroup', place: (d, piece) => (d.logos[0] = piece) },
};

const WHOLE: Record<string, DocumentKind> = {
  'vp-channel-hls': 'channel',
  'vp-channel-pull': 'channel',
  'vp-templategroup': 'templategroup',
  'vp-logogroup': 'logogroup',
  'vp-transcode-group': 'transcode',
  'vp-transcode-adhoc': 'transcode',
  'vp-livetemplate': 'livetemplate',
  'vp-livelogo': 'livelogo',
};

/** Allowed: an empty id the user fills in (templateId, videoIds[n]) and nothing else. */
function onlyEmptyIds(text: string, problems: Problem[]): void {
  for (const p of problems) {
    assert.ok(
      p.code === 'schema.pattern' && covered(text, p) === '""',
      `unexpected problem: ${p.code} ${p.message} at ${covered(text, p)}`,
    );
  }
}

describe('authoring snippets', () => {
  const snippets = Object.values(readJson('snippets/video-platform.json') as Record<string, Snippet>);

  it('every snippet has a vp- prefix and a description, and prefixes are unique', () => {
    const prefixes = snippets.map((s) => s.prefix);
    assert.ok(prefixes.every((p) => p.startsWith('vp-')));
    assert.equal(new Set(prefixes).size, prefixes.length);
    assert.ok(snippets.every((s) => s.description.length > 10));
    assert.deepEqual([...prefixes].sort(), [...Object.keys(WHOLE), ...Object.keys(FRAGMENTS)].sort());
  });

  for (const snippet of Object.values(readJson('snippets/video-platform.json') as Record<string, Snippet>)) {
    it(`${snippet.prefix} expands to a valid document (every choice)`, () => {
      const source = snippet.body.join('\n');
      for (let choice = 0; choice < choiceCount(source); choice++) {
        const expanded = expandSnippet(source, choice);
        const fragment = FRAGMENTS[snippet.prefix];
        const kind = fragment?.kind ?? WHOLE[snippet.prefix];
        let text = expanded;
        if (fragment) {
          const doc = EXAMPLES[kind]() as Record<string, unknown>;
          fragment.place(doc, JSON.parse(expanded));
          text = textOf(doc);
        }
        const { value, problems } = validateDocument(kind, text);
        assert.ok(value !== undefined, `choice ${choice}: not JSON:\n${text}`);
        onlyEmptyIds(text, problems);
      }
    });
  }

  it('name the unit of each bitrate they set (template items: kbps and bits per second; live templates: kbps)', () => {
    // docs/platform/rest-interface.md: a template item's audioBitrate is in bits per second, a live template's in kbps.
    const withBitrates = snippets.filter((s) => /"audioBitrate"/.test(s.body.join('\n')));
    assert.ok(withBitrates.length >= 4);
    for (const snippet of withBitrates) {
      const unit =
        snippet.prefix === 'vp-livetemplate'
          ? /videoBitrate and audioBitrate both in kbps/
          : /videoBitrate in kbps, audioBitrate in bits per second/;
      assert.match(snippet.description, unit, snippet.prefix);
    }
  });

  it('snippets leave ids empty only where completion offers the real ones', () => {
    const withEmptyIds = snippets.filter((s) => /"\$\{\d+\}"/.test(s.body.join('\n'))).map((s) => s.prefix);
    assert.deepEqual(withEmptyIds.sort(), [
      'vp-channel-hls',
      'vp-channel-pull',
      'vp-output-hls',
      'vp-output-rtmp',
      'vp-transcode-adhoc',
      'vp-transcode-group',
    ]);
  });

  describe('schema defaultSnippets', () => {
    for (const kind of DOCUMENT_KINDS) {
      it(`${kind}: every defaultSnippets body is valid where it is offered`, () => {
        const root = readJson(`schemas/${kind}.schema.json`) as Record<string, unknown>;
        const found: Array<{ where: string; schema: Record<string, unknown>; body: unknown }> = [];
        const walk = (node: unknown, where: string): void => {
          if (Array.isArray(node)) return node.forEach((n, i) => walk(n, `${where}/${i}`));
          if (typeof node !== 'object' || node === null) return;
          const record = node as Record<string, unknown>;
          for (const s of (record.defaultSnippets ?? []) as Array<{ body: unknown }>)
            found.push({ where, schema: record, body: s.body });
          for (const [key, child] of Object.entries(record))
            if (key !== 'defaultSnippets') walk(child, `${where}/${key}`);
        };
        walk(root, '#');
        assert.ok(found.length > 0);
        for (const { where, schema, body } of found) {
          const text = expandSnippet(rawJson(body));
          const value = JSON.parse(text) as unknown;
          // The body is checked against the subschema it belongs to, with the file's definitions.
          const validate = createAjv().compile({
            ...schema,
            definitions: root.definitions,
            defaultSnippets: undefined,
          });
          validate(value);
          const unexpected = (validate.errors ?? []).filter((e) => !(e.keyword === 'pattern' && e.data === ''));
          assert.deepEqual(unexpected, [], `${where}: ${text}`);
        }
      });
    }
  });
});

/** JSON text of a defaultSnippets body: strings starting with `^` are inserted raw (VS Code's rule). */
function rawJson(body: unknown): string {
  const raws: string[] = [];
  const text = JSON.stringify(body, (_, value: unknown) => {
    if (typeof value === 'string' && value.startsWith('^')) {
      raws.push(value.slice(1));
      return `\u0000raw${raws.length - 1}\u0000`;
    }
    return value;
  });
  return text.replace(/"\\u0000raw(\d+)\\u0000"/g, (_, i: string) => raws[Number(i)]);
}

describe('authoring snippets in the editor', () => {
  it('are offered by document kind: each kind gets its own, and fragments go with the kind they belong to', () => {
    for (const kind of DOCUMENT_KINDS) {
      const prefixes = snippetsFor(kind).map((s) => s.prefix);
      assert.ok(prefixes.length > 0, kind);
      assert.ok(
        prefixes.every((p) => (WHOLE[p] ?? FRAGMENTS[p]?.kind) === kind),
        `${kind}: ${prefixes.join(', ')}`,
      );
    }
    assert.deepEqual(
      snippetsFor('channel')
        .map((s) => s.prefix)
        .sort(),
      ['vp-channel-hls', 'vp-channel-pull', 'vp-output-hls', 'vp-output-rtmp'],
    );
  });

  it('are offered where an object can go, never inside a string value such as an id being completed', () => {
    const prefixes = (text: string, offset = text.indexOf('|')) =>
      snippetsOfferedAt('channel', text.replace('|', ''), offset).map((s) => s.prefix);
    assert.ok(prefixes('|').includes('vp-channel-hls'), 'an empty document');
    assert.ok(prefixes('vp-channel-h|').includes('vp-channel-hls'), 'the prefix typed in an empty document');
    assert.ok(prefixes('{ "outputGroupList": [ | ] }').includes('vp-output-hls'), 'an array item');
    assert.deepEqual(prefixes('{ "outputGroupList": [ { "outputTemplateList": [ { "templateId": "|" } ] } ] }'), []);
    assert.deepEqual(prefixes('{ "name": "News|" }'), []);
    assert.deepEqual(prefixes('{ "isRecord": 1| }'), []);
  });

  it('lay every object out on several lines', () => {
    for (const snippet of allSnippets()) {
      for (const line of snippet.body.replace(/\$\{[^}]*\}/g, 'x').split('\n')) {
        // An opening brace is the last thing on its line, a closing one the first.
        assert.doesNotMatch(line, /\{\s*"/, `${snippet.prefix}: ${line}`);
        assert.doesNotMatch(line, /[^\s]\s*\}\s*,?\s*$/, `${snippet.prefix}: ${line}`);
      }
    }
  });

  it('replace the vp- prefix typed before the cursor, dashes included', () => {
    const text = '{\n  vp-channel-h';
    assert.deepEqual(snippetPrefixRange(text, text.length), { offset: 4, length: 'vp-channel-h'.length });
    assert.deepEqual(snippetPrefixRange('{ ', 2), { offset: 2, length: 0 });
  });
});
