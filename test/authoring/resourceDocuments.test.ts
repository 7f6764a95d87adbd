import assert from 'node:assert/strict';
import type { LiveTemplate, TemplateGroupSummary } from '../../src/api/types';
import {
  liveTemplateToDocument,
  normalForm,
  resourceFileName,
  templateGroupToDocument,
} from '../../src/authoring/resourceDocuments';
import { validateDocument } from '../../src/authoring/validate';

const summary: TemplateGroupSummary = {
  id: 1001,
  userId: '7',
  name: 'Ladder',
  type: 0,
  defaultGroup: true,
  trailor: false,
  trailorDuration: 0,
  logoGroupId: null,
  transcodeTemplates: [
    {
      name: '720p',
      videoWidth: 1280,
      videoHeight: 720,
      videoBitrate: 2500,
      audioBitrate: 128000,
      format: 0,
      encryptType: 0,
      defaultVideo: 1,
      advancedArguments: '{"gopSize":50}',
    },
  ],
};

describe('resource documents: records as documents, and the normal form of Compare with Platform', () => {
  it('makes a valid template group document without the read-only fields, advanced arguments as an object', () => {
    const { doc, templatesListed } = templateGroupToDocument(summary);
    assert.equal(templatesListed, true);
    assert.deepEqual(Object.keys(doc), [
      'id',
      'name',
      'type',
      'trailor',
      'trailorDuration',
      'logoGroupId',
      'transcodeTemplates',
    ]);
    assert.equal(doc.logoGroupId, 0, 'null is "no logo group", 0 in the document');
    assert.deepEqual((doc.transcodeTemplates as Array<{ advancedArguments: unknown }>)[0]!.advancedArguments, {
      gopSize: 50,
    });
    const errors = validateDocument('templategroup', JSON.stringify(doc)).problems.filter(
      (p) => p.severity === 'error',
    );
    assert.deepEqual(errors, []);
  });

  it('says when the platform listed a template group without its templates', () => {
    const { transcodeTemplates: _left, ...bare } = summary;
    assert.equal(templateGroupToDocument(bare).templatesListed, false);
  });

  it('gives a live template its integer type and leaves unset advanced arguments out', () => {
    const doc = liveTemplateToDocument({
      id: 'a'.repeat(32),
      displayName: 'HD',
      name: 'HD/2000kbps/1280x720',
      type: '1',
      transcodeType: 0,
      videoWidth: 1280,
      videoHeight: 720,
      videoBitrate: 2000,
      audioBitrate: 128,
      frameRate: 25,
      advancedArgumentsObj: { rc: null, gopSize: 50 },
      advancedArguments: '{"rc":null,"gopSize":50}',
    } as unknown as LiveTemplate);
    assert.equal(doc.type, 1);
    assert.deepEqual(doc.advancedArguments, { gopSize: 50 });
    assert.equal(doc.name, undefined, 'the composed name is read-only');
  });

  it('puts keys in the schema order (others after, by name), drops $schema and reads a digit id as a number', () => {
    const text = normalForm('logogroup', {
      zeta: 1,
      logos: [{ end: 100, uri: 'a.png', width: 1, height: 1, leftPos: 0, topPos: 0, opacity: 1, resize: 1, start: 0 }],
      $schema: './x.json',
      alpha: 2,
      name: 'N',
      id: '12',
    });
    const value = JSON.parse(text) as Record<string, unknown> & { logos: Array<Record<string, unknown>> };
    assert.deepEqual(Object.keys(value), ['id', 'name', 'logos', 'alpha', 'zeta']);
    assert.equal(value.id, 12);
    assert.deepEqual(Object.keys(value.logos[0]!), [
      'uri',
      'width',
      'height',
      'leftPos',
      'topPos',
      'opacity',
      'resize',
      'start',
      'end',
    ]);
    assert.ok(text.endsWith('}\n') && text.includes('\n  "id": 12,\n'));
  });

  it("writes a channel's flags as the platform does, whichever form the file used", () => {
    const group = (flag: 0 | '0') => ({
      protocolType: 1,
      isRecord: flag,
      outputTemplateList: [{ templateId: 'a'.repeat(32), isDefault: flag === 0 ? 1 : '1' }],
    });
    assert.equal(
      normalForm('channel', { name: 'N', signalType: 1, outputGroupList: [group(0)] }),
      normalForm('channel', { name: 'N', signalType: '1', outputGroupList: [group('0')] }),
    );
  });

  it('names files after the record, safely', () => {
    assert.equal(resourceFileName('templategroup', 'HD / mobile: v2', 1001), 'HD - mobile- v2.templategroup.json');
    assert.equal(resourceFileName('livelogo', '  ', 'abc'), 'abc.livelogo.json');
  });
});
