/**
 * Every schema file (compiled from disk with a fresh ajv, as VS Code would read it) accepts the
 * interface's valid examples and rejects each rule's violation; validateDocument reports each
 * violation with a message naming the field, on the offending value.
 */
import * as assert from 'node:assert/strict';
import type { ValidateFunction } from 'ajv';
import { DOCUMENT_KINDS, type DocumentKind } from '../../src/authoring/documentKind';
import { createAjv } from '../../src/authoring/ajvOptions';
import { editorSchema } from '../../src/authoring/editorSchema';
import { validateDocument } from '../../src/authoring/validate';
import { covered, EXAMPLES, HEX, readJson, textOf } from './fixtures';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test documents are changed freely

const fromDisk = new Map<DocumentKind, ValidateFunction>();
function diskValidator(kind: DocumentKind): ValidateFunction {
  let validate = fromDisk.get(kind);
  if (!validate) {
    validate = createAjv().compile(readJson(`schemas/${kind}.schema.json`) as object);
    fromDisk.set(kind, validate);
  }
  return validate;
}

interface Violation {
  kind: DocumentKind;
  title: string;
  change: (doc: Json) => void;
  code: string;
  /** Words the message must contain (the field, at least). */
  words: string[];
  /** The text the problem's range must cover. */
  at: string;
  /** Whether the schema alone rejects it (false: only the extra rules can). */
  schema: boolean;
  severity?: 'error' | 'warning' | 'info';
  count?: number;
}

const VALID_VARIANTS: Array<{ kind: DocumentKind; title: string; doc: () => Json }> = [
  ...DOCUMENT_KINDS.map((kind) => ({ kind, title: 'the example', doc: EXAMPLES[kind] })),
  {
    kind: 'channel',
    title: 'a pull channel with numeric signalType and an update id',
    doc: () => ({
      id: HEX.channel,
      name: 'Pull',
      signalType: 2,
      pullStream: 'srt://source.example:9000',
      outputGroupList: [
        { id: HEX.group, protocolType: 1, outputTemplateList: [{ templateId: HEX.t720, isDefault: '1' }] },
      ],
    }),
  },
  {
    kind: 'templategroup',
    title: 'an update with a text id and no trial clip',
    doc: () => ({ ...EXAMPLES.templategroup(), id: '12', trailor: false, trailorDuration: 0 }),
  },
  { kind: 'logogroup', title: 'an update with a numeric id', doc: () => ({ ...EXAMPLES.logogroup(), id: 5 }) },
  {
    kind: 'transcode',
    title: 'a job with a template group and replace 1',
    doc: () => ({ videoIds: [HEX.video1], transcodeTemplateGroupId: 3, replace: 1 }),
  },
  {
    kind: 'transcode',
    title: 'a job with {logoGroupId, templates}',
    doc: () => ({
      videoIds: [HEX.video1],
      transcodeTemplates: { logoGroupId: 4, templates: EXAMPLES.transcode().transcodeTemplates },
      replace: true,
    }),
  },
  {
    kind: 'transcode',
    // The interface's template item table (rest-interface.md, secondTranscodeV2) makes defaultVideo optional.
    title: 'ad-hoc templates none of which says defaultVideo',
    doc: () => ({
      videoIds: [HEX.video1],
      transcodeTemplates: (EXAMPLES.transcode().transcodeTemplates as Array<Record<string, unknown>>).map(
        ({ defaultVideo: _, ...item }) => item,
      ),
      replace: false,
    }),
  },
  { kind: 'livetemplate', title: 'an update of one field', doc: () => ({ id: HEX.t720, videoBitrate: 1800 }) },
];

const VIOLATIONS: Violation[] = [
  // Channel
  {
    kind: 'channel',
    title: 'no name',
    change: (d) => delete d.name,
    code: 'schema.required',
    words: ['"name"'],
    at: '{',
    schema: true,
  },
  {
    kind: 'channel',
    title: 'empty name',
    change: (d) => (d.name = ''),
    code: 'schema.minLength',
    words: ['name', 'empty'],
    at: '""',
    schema: true,
  },
  {
    kind: 'channel',
    title: 'signalType "push"',
    change: (d) => (d.signalType = 'push'),
    code: 'schema.enum',
    words: ['signalType', '"push"'],
    at: '"push"',
    schema: true,
  },
  {
    kind: 'channel',
    title: 'pull without pullStream',
    change: (d) => (d.signalType = '2'),
    code: 'channel.pullStreamMissing',
    words: ['signalType', 'pullStream'],
    at: '"2"',
    schema: true,
  },
  {
    kind: 'channel',
    title: 'pull address without a scheme',
    change: (d) => Object.assign(d, { signalType: '2', pullStream: 'source.example/live' }),
    code: 'schema.pattern',
    words: ['pullStream', 'rtmp://'],
    at: '"source.example/live"',
    schema: true,
  },
  {
    kind: 'channel',
    title: 'liveType 1',
    change: (d) => (d.liveType = 1),
    code: 'schema.enum',
    words: ['liveType', '4K'],
    at: '1',
    schema: true,
  },
  {
    kind: 'channel',
    title: 'category id not hex',
    change: (d) => (d.type = 'news'),
    code: 'schema.pattern',
    words: ['type', '32'],
    at: '"news"',
    schema: true,
  },
  {
    kind: 'channel',
    title: 'misspelt field',
    change: (d) => ((d.nmae = 'x'), delete d.name),
    code: 'schema.additionalProperties',
    words: ['"nmae"', 'Did you mean "name"'],
    at: '"nmae"',
    schema: true,
  },
  {
    kind: 'channel',
    title: 'no output group',
    change: (d) => (d.outputGroupList = []),
    code: 'schema.minItems',
    words: ['outputGroupList', 'at least 1'],
    at: '"outputGroupList"',
    schema: true,
  },
  {
    kind: 'channel',
    title: 'eleven output groups',
    change: (d) => (d.outputGroupList = Array.from({ length: 11 }, () => d.outputGroupList[1])),
    code: 'schema.maxItems',
    words: ['outputGroupList', 'at most 10'],
    at: '"outputGroupList"',
    schema: true,
  },
  {
    kind: 'channel',
    title: 'protocolType 3',
    change: (d) => (d.outputGroupList[0].protocolType = 3),
    code: 'schema.enum',
    words: ['outputGroupList[0].protocolType', 'RTMP'],
    at: '3',
    schema: true,
  },
  {
    kind: 'channel',
    title: 'rotation 45',
    change: (d) => (d.outputGroupList[0].rotation = '45'),
    code: 'schema.enum',
    words: ['outputGroupList[0].rotation', '"270"'],
    at: '"45"',
    schema: true,
  },
  {
    kind: 'channel',
    title: 'flag "yes"',
    change: (d) => (d.outputGroupList[0].isRecord = 'yes'),
    code: 'schema.enum',
    words: ['outputGroupList[0].isRecord', '"0"', '"1"'],
    at: '"yes"',
    schema: true,
  },
  {
    kind: 'channel',
    title: 'time shift on RTMP',
    change: (d) => (d.outputGroupList[1].isTimeShift = '1'),
    code: 'channel.timeShiftOnRtmp',
    words: ['outputGroupList[1].isTimeShift', 'HLS'],
    at: '"1"',
    schema: true,
  },
  {
    kind: 'channel',
    title: 'encryption on RTMP',
    change: (d) => (d.outputGroupList[1].isLiveEncrypt = 1),
    code: 'channel.encryptionOnRtmp',
    words: ['outputGroupList[1].isLiveEncrypt', 'HLS'],
    at: '1',
    schema: true,
  },
  {
    kind: 'channel',
    title: 'third-party RTMP address on HLS',
    change: (d) => (d.outputGroupList[0].rtmpThirdPartyOutputUrl = 'rtmp://cdn.example/x'),
    code: 'channel.thirdPartyUrlOnHls',
    words: ['outputGroupList[0].rtmpThirdPartyOutputUrl', 'RTMP groups'],
    at: '"rtmp://cdn.example/x"',
    schema: true,
  },
  {
    kind: 'channel',
    title: 'time shift without duration',
    change: (d) => delete d.outputGroupList[0].timeShiftDuration,
    code: 'channel.timeShiftDurationMissing',
    words: ['outputGroupList[0].isTimeShift', 'timeShiftDuration'],
    at: '"1"',
    schema: true,
  },
  {
    kind: 'channel',
    title: 'time shift of 0 hours',
    change: (d) => (d.outputGroupList[0].timeShiftDuration = '0'),
    code: 'schema.pattern',
    words: ['outputGroupList[0].timeShiftDuration', '720'],
    at: '"0"',
    schema: true,
  },
  {
    kind: 'channel',
    title: 'time shift of 721 hours',
    change: (d) => (d.outputGroupList[0].timeShiftDuration = '721'),
    code: 'schema.pattern',
    words: ['timeShiftDuration'],
    at: '"721"',
    schema: true,
  },
  {
    kind: 'channel',
    title: 'time shift duration as a number',
    change: (d) => (d.outputGroupList[0].timeShiftDuration = 2),
    code: 'schema.type',
    words: ['outputGroupList[0].timeShiftDuration', 'text'],
    at: '2',
    schema: true,
  },
  {
    kind: 'channel',
    title: 'template id not hex',
    change: (d) => (d.outputGroupList[0].outputTemplateList[0].templateId = 'abc'),
    code: 'schema.pattern',
    words: ['outputGroupList[0].outputTemplateList[0].templateId'],
    at: '"abc"',
    schema: true,
  },
  {
    kind: 'channel',
    title: 'template without isDefault',
    change: (d) => delete d.outputGroupList[0].outputTemplateList[1].isDefault,
    code: 'schema.required',
    words: ['outputGroupList[0].outputTemplateList[1]', '"isDefault"'],
    at: '{',
    schema: true,
  },
  {
    kind: 'channel',
    title: 'the same template twice in a group',
    change: (d) => (d.outputGroupList[0].outputTemplateList[1].templateId = HEX.t720),
    code: 'channel.duplicateTemplate',
    words: ['outputGroupList[0].outputTemplateList[1].templateId', 'once'],
    at: `"${HEX.t720}"`,
    schema: false,
  },
  {
    kind: 'channel',
    title: 'two default templates in a group',
    change: (d) => (d.outputGroupList[0].outputTemplateList[1].isDefault = '1'),
    code: 'channel.severalDefaults',
    words: ['isDefault', 'only one'],
    at: '"1"',
    schema: true,
    count: 2,
  },
  {
    kind: 'channel',
    title: 'description too long',
    change: (d) => (d.description = 'x'.repeat(2001)),
    code: 'schema.maxLength',
    words: ['description', '2000'],
    at: `"${'x'.repeat(2001)}"`,
    schema: true,
  },

  // Template group
  {
    kind: 'templategroup',
    title: 'no logoGroupId',
    change: (d) => delete d.logoGroupId,
    code: 'schema.required',
    words: ['"logoGroupId"'],
    at: '{',
    schema: true,
  },
  {
    kind: 'templategroup',
    title: 'type 2',
    change: (d) => (d.type = 2),
    code: 'schema.enum',
    words: ['type', 'VR'],
    at: '2',
    schema: true,
  },
  {
    kind: 'templategroup',
    title: 'trailor "yes"',
    change: (d) => (d.trailor = 'yes'),
    code: 'schema.type',
    words: ['trailor', 'true or false'],
    at: '"yes"',
    schema: true,
  },
  {
    kind: 'templategroup',
    title: 'negative trailorDuration',
    change: (d) => ((d.trailor = false), (d.trailorDuration = -1)),
    code: 'schema.minimum',
    words: ['trailorDuration', 'between 0 and 86400'],
    at: '-1',
    schema: true,
  },
  {
    kind: 'templategroup',
    title: 'trial clip of 0 seconds',
    change: (d) => (d.trailorDuration = 0),
    code: 'templategroup.trailorDurationMissing',
    words: ['trailorDuration', 'at least 1'],
    at: '0',
    schema: true,
  },
  {
    kind: 'templategroup',
    title: 'trailorDuration without trailor',
    change: (d) => (d.trailor = false),
    code: 'templategroup.trailorDurationUnused',
    words: ['trailorDuration', 'trailor is false'],
    at: '30',
    schema: true,
    severity: 'warning',
  },
  {
    kind: 'templategroup',
    title: 'templates as JSON text',
    change: (d) => (d.transcodeTemplates = JSON.stringify(d.transcodeTemplates)),
    code: 'schema.type',
    words: ['transcodeTemplates', 'a list'],
    at: '',
    schema: true,
  },
  {
    kind: 'templategroup',
    title: 'no template',
    change: (d) => (d.transcodeTemplates = []),
    code: 'schema.minItems',
    words: ['transcodeTemplates'],
    at: '"transcodeTemplates"',
    schema: true,
  },
  {
    kind: 'templategroup',
    title: 'no default template',
    change: (d) => (d.transcodeTemplates[1].defaultVideo = 0),
    code: 'templategroup.noDefault',
    words: ['transcodeTemplates', 'exactly one', 'defaultVideo'],
    at: '"transcodeTemplates"',
    schema: true,
  },
  {
    kind: 'templategroup',
    title: 'two default templates',
    change: (d) => (d.transcodeTemplates[0].defaultVideo = 1),
    code: 'templategroup.severalDefaults',
    words: ['defaultVideo', 'only one'],
    at: '1',
    schema: true,
    count: 2,
  },
  {
    kind: 'templategroup',
    title: 'two templates with one name',
    change: (d) => (d.transcodeTemplates[2].name = '720p'),
    code: 'templategroup.duplicateName',
    words: ['transcodeTemplates[2].name', '"720p"'],
    at: '"720p"',
    schema: false,
  },
  {
    kind: 'templategroup',
    title: 'AES with MP4',
    change: (d) => (d.transcodeTemplates[2].encryptType = 6),
    code: 'templategroup.aesNotHls',
    words: ['transcodeTemplates[2].encryptType', 'HLS'],
    at: '6',
    schema: true,
  },
  {
    kind: 'templategroup',
    title: 'format 4',
    change: (d) => (d.transcodeTemplates[0].format = 4),
    code: 'schema.enum',
    words: ['transcodeTemplates[0].format', 'TS'],
    at: '4',
    schema: true,
  },
  {
    kind: 'templategroup',
    title: 'fractional width',
    change: (d) => (d.transcodeTemplates[0].videoWidth = 1280.5),
    code: 'schema.type',
    words: ['transcodeTemplates[0].videoWidth', 'whole number'],
    at: '1280.5',
    schema: true,
  },
  {
    kind: 'templategroup',
    title: 'audio bitrate in kbps',
    change: (d) => (d.transcodeTemplates[0].audioBitrate = 128),
    code: 'bitrate.audioUnit',
    words: ['transcodeTemplates[0].audioBitrate', 'bits per second', '128000'],
    at: '128',
    schema: true,
  },
  {
    kind: 'templategroup',
    title: 'video bitrate in bits per second',
    change: (d) => (d.transcodeTemplates[0].videoBitrate = 4500000),
    code: 'bitrate.videoUnit',
    words: ['transcodeTemplates[0].videoBitrate', 'kilobits', '4500'],
    at: '4500000',
    schema: true,
  },
  {
    kind: 'templategroup',
    title: 'interlace 1',
    change: (d) => (d.transcodeTemplates[1].advancedArguments.interlace = 1),
    code: 'schema.enum',
    words: ['transcodeTemplates[1].advancedArguments.interlace', 'MBAFF'],
    at: '1',
    schema: true,
  },
  {
    kind: 'templategroup',
    title: 'misspelt advanced argument',
    change: (d) => (d.transcodeTemplates[0].advancedArguments = { gopsize: 50 }),
    code: 'advancedArguments.unknownKey',
    words: ['"gopsize"', '"gopSize"'],
    at: '"gopsize"',
    schema: false,
    severity: 'warning',
  },
  {
    kind: 'templategroup',
    title: 'id "12a"',
    change: (d) => (d.id = '12a'),
    code: 'schema.pattern',
    words: ['id', 'whole number'],
    at: '"12a"',
    schema: true,
  },
  {
    kind: 'templategroup',
    title: 'id 0',
    change: (d) => (d.id = 0),
    code: 'schema.minimum',
    words: ['id', 'between 1 and 2000000000'],
    at: '0',
    schema: true,
  },

  // Logo group
  {
    kind: 'logogroup',
    title: 'no logo',
    change: (d) => (d.logos = []),
    code: 'schema.minItems',
    words: ['logos', 'at least 1'],
    at: '"logos"',
    schema: true,
  },
  {
    kind: 'logogroup',
    title: 'eleven logos',
    change: (d) => (d.logos = Array.from({ length: 11 }, () => d.logos[0])),
    code: 'schema.maxItems',
    words: ['logos', 'at most 10'],
    at: '"logos"',
    schema: true,
  },
  {
    kind: 'logogroup',
    title: 'leftPos 120%',
    change: (d) => (d.logos[0].leftPos = 120),
    code: 'schema.maximum',
    words: ['logos[0].leftPos', 'between 0 and 100'],
    at: '120',
    schema: true,
  },
  {
    kind: 'logogroup',
    title: 'resize 0',
    change: (d) => (d.logos[0].resize = 0),
    code: 'schema.minimum',
    words: ['logos[0].resize', 'between 1 and 100'],
    at: '0',
    schema: true,
  },
  {
    kind: 'logogroup',
    title: 'image given as an address',
    change: (d) => (d.logos[0].uri = 'https://cdn.example/logo.png'),
    code: 'schema.pattern',
    words: ['logos[0].uri', 'relative path'],
    at: '"https://cdn.example/logo.png"',
    schema: true,
  },
  {
    kind: 'logogroup',
    title: 'image path with ..',
    change: (d) => (d.logos[0].uri = 'logos/../secret.png'),
    code: 'schema.pattern',
    words: ['logos[0].uri'],
    at: '"logos/../secret.png"',
    schema: true,
  },
  {
    kind: 'logogroup',
    title: 'logo ends before it starts',
    change: (d) => (d.logos[1].end = 50),
    code: 'logogroup.endBeforeStart',
    words: ['logos[1].end', 'start'],
    at: '50',
    schema: false,
  },
  {
    kind: 'logogroup',
    title: 'logo window of no length',
    change: (d) => (d.logos[1].end = 90),
    code: 'logogroup.emptyWindow',
    words: ['logos[1].end'],
    at: '90',
    schema: false,
    severity: 'warning',
  },
  {
    kind: 'logogroup',
    title: 'logo without opacity',
    change: (d) => delete d.logos[0].opacity,
    code: 'schema.required',
    words: ['logos[0]', '"opacity"'],
    at: '{',
    schema: true,
  },

  // Transcode job
  {
    kind: 'transcode',
    title: 'no video',
    change: (d) => (d.videoIds = []),
    code: 'schema.minItems',
    words: ['videoIds'],
    at: '"videoIds"',
    schema: true,
  },
  {
    kind: 'transcode',
    title: 'video ids as comma text',
    change: (d) => (d.videoIds = `${HEX.video1},${HEX.video2}`),
    code: 'schema.type',
    words: ['videoIds', 'a list'],
    at: `"${HEX.video1},${HEX.video2}"`,
    schema: true,
  },
  {
    kind: 'transcode',
    title: 'a video twice',
    change: (d) => (d.videoIds = [HEX.video1, HEX.video2, HEX.video1]),
    code: 'schema.uniqueItems',
    words: ['videoIds[2]', 'videoIds[0]'],
    at: `"${HEX.video1}"`,
    schema: true,
  },
  {
    kind: 'transcode',
    title: 'video id not hex',
    change: (d) => (d.videoIds = ['movie.mp4']),
    code: 'schema.pattern',
    words: ['videoIds[0]', 'video id'],
    at: '"movie.mp4"',
    schema: true,
  },
  {
    kind: 'transcode',
    title: 'no replace',
    change: (d) => delete d.replace,
    code: 'schema.required',
    words: ['"replace"'],
    at: '{',
    schema: true,
  },
  {
    kind: 'transcode',
    title: 'replace "yes"',
    change: (d) => (d.replace = 'yes'),
    code: 'schema.enum',
    words: ['replace', 'save as'],
    at: '"yes"',
    schema: true,
  },
  {
    kind: 'transcode',
    title: 'templates and a group id',
    change: (d) => (d.transcodeTemplateGroupId = 3),
    code: 'transcode.groupIgnored',
    words: ['transcodeTemplateGroupId', 'ignored'],
    at: '3',
    schema: false,
    severity: 'warning',
  },
  {
    kind: 'transcode',
    title: 'neither templates nor a group id',
    change: (d) => (delete d.transcodeTemplates, delete d.videoType, delete d.trailor, delete d.trailorDuration),
    code: 'transcode.defaultGroup',
    words: ['default template group'],
    at: '{',
    schema: false,
    severity: 'info',
  },
  {
    kind: 'transcode',
    title: 'videoType with a template group',
    change: (d) => (
      delete d.transcodeTemplates,
      delete d.trailor,
      delete d.trailorDuration,
      (d.transcodeTemplateGroupId = 2)
    ),
    code: 'transcode.onlyWithTemplates',
    words: ['videoType', 'transcodeTemplates'],
    at: '0',
    schema: false,
    severity: 'warning',
  },
  {
    kind: 'transcode',
    title: 'trial clip without duration',
    change: (d) => delete d.trailorDuration,
    code: 'transcode.trailorDurationMissing',
    words: ['trailorDuration'],
    at: 'true',
    // The interface makes trailorDuration optional (default 0): the schema accepts it.
    schema: false,
  },
  {
    kind: 'transcode',
    title: 'trial clip of 0 seconds',
    change: (d) => (d.trailorDuration = 0),
    code: 'transcode.trailorDurationMissing',
    words: ['trailorDuration', 'at least 1'],
    at: '0',
    schema: false,
  },
  {
    kind: 'transcode',
    title: 'trailorDuration without trailor',
    change: (d) => (d.trailor = false),
    code: 'transcode.trailorDurationUnused',
    words: ['trailorDuration', 'trailor'],
    at: '15',
    schema: false,
    severity: 'warning',
  },
  {
    kind: 'transcode',
    title: 'a template with no format',
    change: (d) => Object.assign(d.transcodeTemplates[1], { flv: false, ts: false, tsEncryptType: 0 }),
    code: 'transcode.noFormat',
    words: ['transcodeTemplates[1]', 'hls, mp4, flv or ts'],
    at: '{',
    schema: false,
  },
  {
    kind: 'transcode',
    title: 'AES for MP4',
    change: (d) => (d.transcodeTemplates[0].mp4EncryptType = 6),
    code: 'schema.enum',
    words: ['transcodeTemplates[0].mp4EncryptType', 'HLS only'],
    at: '6',
    schema: true,
  },
  {
    kind: 'transcode',
    title: 'encryption of a format not produced',
    change: (d) => (d.transcodeTemplates[1].hlsEncryptType = 6),
    code: 'transcode.encryptionWithoutFormat',
    words: ['transcodeTemplates[1].hlsEncryptType', 'HLS'],
    at: '6',
    schema: false,
    severity: 'warning',
  },
  {
    kind: 'transcode',
    title: 'two default templates',
    change: (d) => (d.transcodeTemplates[1].defaultVideo = 1),
    code: 'transcode.severalDefaults',
    words: ['defaultVideo', 'only one'],
    at: '1',
    schema: true,
    count: 2,
  },
  {
    kind: 'transcode',
    title: 'templates object without logoGroupId',
    change: (d) => (d.transcodeTemplates = { templates: d.transcodeTemplates }),
    code: 'schema.required',
    words: ['transcodeTemplates', '"logoGroupId"'],
    at: '"transcodeTemplates"',
    schema: true,
  },
  {
    kind: 'transcode',
    title: 'templates as a number',
    change: (d) => (d.transcodeTemplates = 5),
    code: 'schema.type',
    words: ['transcodeTemplates', 'a list', 'an object'],
    at: '5',
    schema: true,
  },
  {
    kind: 'transcode',
    title: 'audio bitrate in kbps',
    change: (d) => (d.transcodeTemplates[0].audioBitrate = 64),
    code: 'bitrate.audioUnit',
    words: ['transcodeTemplates[0].audioBitrate', '64000'],
    at: '64',
    schema: true,
  },
  {
    kind: 'transcode',
    title: 'group id 0',
    change: (d) => ((d.transcodeTemplateGroupId = 0), delete d.transcodeTemplates),
    code: 'schema.minimum',
    words: ['transcodeTemplateGroupId', 'at least 1'],
    at: '0',
    schema: true,
  },

  // Live template
  {
    kind: 'livetemplate',
    title: 'a new template without bitrate',
    change: (d) => delete d.videoBitrate,
    code: 'livetemplate.createIncomplete',
    words: ['"videoBitrate"', 'liveTemplateCreate'],
    at: '{',
    schema: true,
  },
  {
    kind: 'livetemplate',
    title: 'frame rate 0',
    change: (d) => (d.frameRate = 0),
    code: 'schema.minimum',
    words: ['frameRate', 'between 1 and 120'],
    at: '0',
    schema: true,
  },
  {
    kind: 'livetemplate',
    title: 'frame rate 121',
    change: (d) => (d.frameRate = 121),
    code: 'schema.maximum',
    words: ['frameRate', 'between 1 and 120'],
    at: '121',
    schema: true,
  },
  {
    kind: 'livetemplate',
    title: 'audio bitrate in bits per second',
    change: (d) => (d.audioBitrate = 128000),
    code: 'bitrate.audioUnit',
    words: ['audioBitrate', 'kilobits', '128'],
    at: '128000',
    schema: true,
  },
  {
    kind: 'livetemplate',
    title: 'transcodeType 1',
    change: (d) => (d.transcodeType = 1),
    code: 'schema.enum',
    words: ['transcodeType', 'VR'],
    at: '1',
    schema: true,
  },
  {
    kind: 'livetemplate',
    title: 'upper-case id',
    change: (d) => (d.id = HEX.t720.toUpperCase()),
    code: 'schema.pattern',
    words: ['id', 'lowercase hex'],
    at: `"${HEX.t720.toUpperCase()}"`,
    schema: true,
  },
  {
    kind: 'livetemplate',
    title: 'an update of nothing',
    change: (d) => (Object.keys(d).forEach((k) => delete d[k]), (d.id = HEX.t720)),
    code: 'livetemplate.nothingToUpdate',
    words: ['"id"', 'nothing'],
    at: `"${HEX.t720}"`,
    schema: false,
    severity: 'warning',
  },
  {
    kind: 'livetemplate',
    title: 'gopType 2',
    change: (d) => (d.advancedArguments.gopType = 2),
    code: 'schema.enum',
    words: ['advancedArguments.gopType', 'milliseconds'],
    at: '2',
    schema: true,
  },
  {
    kind: 'livetemplate',
    title: 'advancedArguments as text',
    change: (d) => (d.advancedArguments = '{"gopSize": 50}'),
    code: 'schema.type',
    words: ['advancedArguments', 'an object'],
    at: '"{\\"gopSize\\": 50}"',
    schema: true,
  },

  // Live logo
  {
    kind: 'livelogo',
    title: 'no image',
    change: (d) => delete d.uri,
    code: 'schema.required',
    words: ['"uri"', 'relative path'],
    at: '{',
    schema: true,
  },
  {
    kind: 'livelogo',
    title: 'opacity 101',
    change: (d) => (d.opacity = 101),
    code: 'schema.maximum',
    words: ['opacity', 'between 0 and 100'],
    at: '101',
    schema: true,
  },
  {
    kind: 'livelogo',
    title: 'resize 0',
    change: (d) => (d.resize = 0),
    code: 'schema.minimum',
    words: ['resize', 'between 1 and 100'],
    at: '0',
    schema: true,
  },
  {
    kind: 'livelogo',
    title: 'negative offset',
    change: (d) => (d.offsetWidth = -1),
    code: 'schema.minimum',
    words: ['offsetWidth'],
    at: '-1',
    schema: true,
  },
  {
    kind: 'livelogo',
    title: 'image given as an address',
    change: (d) => (d.uri = 'http://cdn.example/a.png'),
    code: 'schema.pattern',
    words: ['uri', 'relative path'],
    at: '"http://cdn.example/a.png"',
    schema: true,
  },
  {
    kind: 'livelogo',
    title: 'an id (logos cannot be updated)',
    change: (d) => (d.id = HEX.logo),
    code: 'livelogo.cannotUpdate',
    words: ['"id"', 'cannot be modified'],
    at: `"${HEX.logo}"`,
    schema: false,
    severity: 'info',
  },
];

describe('authoring schemas and validateDocument', () => {
  describe('accept valid documents', () => {
    for (const variant of VALID_VARIANTS) {
      it(`${variant.kind}: ${variant.title}`, () => {
        const doc = variant.doc();
        const validate = diskValidator(variant.kind);
        assert.equal(validate(doc), true, JSON.stringify(validate.errors));
        const { value, problems } = validateDocument(variant.kind, textOf(doc));
        assert.deepEqual(problems, []);
        assert.deepEqual(value, doc);
      });
    }
  });

  describe('reject each violation, naming the field, at the offending value', () => {
    for (const v of VIOLATIONS) {
      it(`${v.kind}: ${v.title}`, () => {
        const doc = EXAMPLES[v.kind]() as Json;
        v.change(doc);
        const validate = diskValidator(v.kind);
        assert.equal(
          validate(doc),
          !v.schema,
          `schema file ${v.schema ? 'should reject' : 'cannot see'} this: ${JSON.stringify(validate.errors)}`,
        );

        const text = textOf(doc);
        const { problems } = validateDocument(v.kind, text);
        const found = problems.filter((p) => p.code === v.code);
        assert.equal(
          found.length,
          v.count ?? 1,
          `${v.code} expected; got ${JSON.stringify(problems.map((p) => [p.code, p.message]))}`,
        );
        for (const problem of found) {
          assert.equal(problem.severity, v.severity ?? 'error', problem.message);
          for (const word of v.words)
            assert.ok(problem.message.includes(word), `"${problem.message}" should mention ${word}`);
          if (v.at !== '') assert.equal(covered(text, problem), v.at);
          assert.doesNotMatch(
            problem.message,
            /must match "then"|must NOT have|instancePath|#\//,
            'plain words, not raw ajv text',
          );
        }
      });
    }
  });

  describe('accept a document with only the fields the interface requires', () => {
    // One per document kind, from the "Required" columns of docs/platform/rest-interface.md.
    const MINIMAL: Record<DocumentKind, Json[]> = {
      channel: [
        {
          name: 'Minimal',
          signalType: '1',
          outputGroupList: [{ protocolType: 1, outputTemplateList: [{ templateId: HEX.t720, isDefault: '1' }] }],
        },
      ],
      livetemplate: [{ id: HEX.t720 }],
      livelogo: [{ name: 'Logo', uri: 'logos/a.png', width: 100, height: 50, offsetWidth: 0, offsetHeight: 0 }],
      logogroup: [
        {
          name: 'Logos',
          logos: [
            {
              uri: 'logos/a.png',
              width: 10,
              height: 10,
              leftPos: 1,
              topPos: 1,
              opacity: 100,
              resize: 100,
              start: 0,
              end: 100,
            },
          ],
        },
      ],
      templategroup: [
        {
          name: 'Group',
          type: 0,
          trailor: false,
          trailorDuration: 0,
          logoGroupId: 0,
          transcodeTemplates: [
            {
              name: '720p',
              videoWidth: 1280,
              videoHeight: 720,
              videoBitrate: 2000,
              audioBitrate: 64000,
              format: 0,
              encryptType: 0,
              defaultVideo: 1,
            },
          ],
        },
      ],
      transcode: [
        { videoIds: [HEX.video1], replace: false },
        // trailorDuration is optional (default 0), also with a trial clip on.
        {
          videoIds: [HEX.video1],
          replace: true,
          trailor: true,
          transcodeTemplates: [
            {
              name: 'a',
              videoWidth: 640,
              videoHeight: 360,
              videoBitrate: 500,
              audioBitrate: 64000,
              hls: true,
              mp4: false,
              flv: false,
            },
          ],
        },
      ],
    };
    for (const kind of DOCUMENT_KINDS) {
      it(kind, () => {
        assert.ok(MINIMAL[kind].length > 0);
        for (const doc of MINIMAL[kind]) {
          const validate = diskValidator(kind);
          assert.equal(validate(doc), true, `${JSON.stringify(doc)}: ${JSON.stringify(validate.errors)}`);
        }
      });
    }
  });

  it('every property of every schema has a description and a markdownDescription', () => {
    const missing: string[] = [];
    const walk = (node: unknown, where: string): void => {
      if (Array.isArray(node)) return node.forEach((n, i) => walk(n, `${where}[${i}]`));
      if (typeof node !== 'object' || node === null) return;
      const record = node as Record<string, unknown>;
      for (const [name, child] of Object.entries(
        (record.properties ?? {}) as Record<string, Record<string, unknown>>,
      )) {
        if (/\/(if|then|contains|not)\b/.test(where)) continue;
        if (typeof child.description !== 'string' && !child.$ref) missing.push(`${where}.${name}`);
        if (typeof child.description === 'string' && typeof child.markdownDescription !== 'string')
          missing.push(`${where}.${name} (markdown)`);
      }
      for (const [key, child] of Object.entries(record)) if (key !== 'defaultSnippets') walk(child, `${where}/${key}`);
    };
    for (const kind of DOCUMENT_KINDS) walk(readJson(`schemas/${kind}.schema.json`), kind);
    assert.deepEqual(missing, []);
  });

  it('shared definitions (flags, advanced arguments, numeric ids) are the same in every schema', () => {
    const definitions = DOCUMENT_KINDS.map(
      (kind) =>
        (readJson(`schemas/${kind}.schema.json`) as { definitions?: Record<string, unknown> }).definitions ?? {},
    );
    for (const name of ['advancedArguments', 'numericId', 'flag', 'liveId']) {
      const copies = definitions.filter((d) => d[name] !== undefined).map((d) => JSON.stringify(d[name]));
      assert.ok(copies.length >= 1, name);
      if (name === 'advancedArguments') {
        // Same keys and rules; the words differ (each kind names its own B-frame spelling first).
        const strip = (text: string): string =>
          JSON.stringify(JSON.parse(text), (key, value: unknown) =>
            ['defaultSnippets', 'description', 'markdownDescription'].includes(key) ? undefined : value,
          );
        assert.equal(new Set(copies.map(strip)).size, 1, name);
      } else {
        assert.equal(new Set(copies).size, 1, name);
      }
    }
  });

  it('manifest associates each kind with the schema copy the build writes for VS Code, and contributes no json snippets', () => {
    const manifest = readJson('package.json') as {
      contributes: { jsonValidation: Array<{ fileMatch: string[]; url: string }>; snippets?: unknown };
    };
    for (const kind of DOCUMENT_KINDS) {
      const entry = manifest.contributes.jsonValidation.find((e) => e.url === `./schemas/editor/${kind}.schema.json`);
      assert.deepEqual(entry?.fileMatch, [`*.${kind}.json`]);
      // npm test builds first: the copy is there and is this kind's schema without the checks.
      assert.deepEqual(
        readJson(`schemas/editor/${kind}.schema.json`),
        editorSchema(readJson(`schemas/${kind}.schema.json`)),
      );
    }
    // The vp- snippets come from the extension's completion in the six kinds only (src/authoring/snippets.ts).
    assert.equal(manifest.contributes.snippets, undefined);
  });
});
