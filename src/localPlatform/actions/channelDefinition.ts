/**
 * Reads and checks a liveCreateChannel / liveUpdate JSON body (rest-interface 4.1), naming the
 * offending field in every refusal. Unknown fields (`fillInfo`, `isFastEdit`, ...) are ignored.
 */
import { LIVE_TYPES } from '../../api/operations/liveResources';
import { Codes } from '../../api/errorCodes';
import { PlatformFault } from '../http/faults';
import { Fields } from './fields';
import type { Flag } from '../../api/types';
import type { AccountStore } from '../store/store';
import { outputUrlProblem, pullStreamProblem } from '../live/pullSource';
import { checkRenditionWork } from './workLimits';

export interface OutputTemplateDef {
  templateId: string;
  isDefault: Flag;
}

export interface OutputGroupDef {
  id: string | undefined;
  protocolType: 1 | 2;
  rtmpThirdPartyOutputUrl: string | null;
  rotation: string | null;
  isRecord: Flag;
  needToMp4: Flag;
  isTimeShift: Flag;
  timeShiftDuration: string | null;
  isLiveEncrypt: Flag;
  logoId: string | null;
  templates: OutputTemplateDef[];
}

export interface ChannelDef {
  id: string | undefined;
  name: string;
  description: string | null;
  signalType: '1' | '2';
  pullStream: string | null;
  liveType: number;
  type: string | null;
  typeName: string | null;
  groups: OutputGroupDef[];
}

export const ROTATIONS = ['0', '90', '270'] as const;
const MAX_GROUPS = 10;
const MAX_TEMPLATES = 10;

export function readChannelDefinition(body: unknown, store: AccountStore, withId: boolean): ChannelDef {
  if (body === undefined || body === null) {
    throw new PlatformFault(Codes.parameterMissing, 'the channel definition (JSON request body) is required');
  }
  if (typeof body !== 'object' || Array.isArray(body)) {
    throw new PlatformFault(Codes.parameterInvalid, 'the channel definition (JSON request body) must be a JSON object');
  }
  const f = new Fields(body as Record<string, unknown>);
  const id = withId ? f.str('id', true, 64) : undefined;
  const name = f.str('name', true, 200).trim();
  const signalType = f.oneOf('signalType', ['1', '2'] as const, true) as '1' | '2';
  let pullStream: string | null = null;
  if (signalType === '2') {
    pullStream = f.str('pullStream', true, 2000).trim();
    const problem = pullStreamProblem(pullStream);
    if (problem) throw f.invalid('pullStream', problem);
  }
  const liveTypeGiven = f.int('liveType', false, { oneOf: LIVE_TYPES });
  const description = f.str('description', false, 2000) ?? null;

  let type = f.str('type', false, 64) ?? null;
  let typeName = f.str('typeName', false, 200) ?? null;
  if (type !== null) {
    const cat = store.get('categories', type);
    if (!cat)
      throw new PlatformFault(Codes.channelCategoryNotExists, `type ${type} is not a channel category of this account`);
    typeName = cat.name;
  } else if (typeName !== null) {
    const wanted = typeName.toLowerCase();
    const cat = [...store.values('categories')].find((c) => c.name.toLowerCase() === wanted);
    if (!cat) {
      throw new PlatformFault(
        Codes.channelCategoryNotExists,
        `typeName ${typeName} is not a channel category of this account`,
      );
    }
    type = cat.id;
    typeName = cat.name;
  }

  const list = f.array('outputGroupList', true);
  if (list.length === 0) throw f.invalid('outputGroupList', 'must hold at least one output group');
  if (list.length > MAX_GROUPS) throw f.invalid('outputGroupList', `must hold at most ${MAX_GROUPS} output groups`);
  const groups = list.map((item, i) => readGroup(f.item('outputGroupList', i, item), store, withId));
  const profiles = groups.flatMap((g) => g.templates.map((t) => store.get('liveTemplates', t.templateId)!));
  checkRenditionWork('outputGroupList', profiles);

  const firstTemplate = store.get('liveTemplates', groups[0].templates[0].templateId);
  const followed =
    firstTemplate && (LIVE_TYPES as readonly number[]).includes(firstTemplate.transcodeType)
      ? firstTemplate.transcodeType
      : 0;
  return {
    id,
    name,
    description,
    signalType,
    pullStream,
    liveType: liveTypeGiven ?? followed,
    type,
    typeName,
    groups,
  };
}

function readGroup(g: Fields, store: AccountStore, withId: boolean): OutputGroupDef {
  const id = withId ? g.str('id', false, 64) : undefined;
  const protocolType = g.int('protocolType', true, { oneOf: [1, 2] }) as 1 | 2;
  const hls = protocolType === 1;

  const third = g.str('rtmpThirdPartyOutputUrl', false, 2000)?.trim() || null;
  if (third !== null) {
    if (hls) throw g.invalid('rtmpThirdPartyOutputUrl', 'applies to RTMP groups (protocolType 2) only');
    const problem = outputUrlProblem(third);
    if (problem) throw g.invalid('rtmpThirdPartyOutputUrl', problem);
  }
  const rotation = g.oneOf('rotation', ROTATIONS) ?? null;
  const isRecord = g.flag('isRecord') ?? '0';
  const needToMp4 = g.flag('needToMp4') ?? '0';
  const isTimeShift = g.flag('isTimeShift') ?? '0';
  const isLiveEncrypt = g.flag('isLiveEncrypt') ?? '0';
  if (isTimeShift === '1' && !hls) throw g.invalid('isTimeShift', 'can be 1 on HLS groups (protocolType 1) only');
  if (isLiveEncrypt === '1' && !hls) throw g.invalid('isLiveEncrypt', 'can be 1 on HLS groups (protocolType 1) only');
  let timeShiftDuration: string | null = null;
  if (isTimeShift === '1') {
    if (!g.has('timeShiftDuration')) throw g.invalid('timeShiftDuration', 'is required when isTimeShift is 1');
    timeShiftDuration = String(g.int('timeShiftDuration', true, { min: 1, max: 720 }));
  }
  const logoId = g.str('logoId', false, 64) ?? null;
  if (logoId !== null && !store.get('liveLogos', logoId)) {
    throw new PlatformFault(
      Codes.liveLogoNotExists,
      `${g.path('logoId')} ${logoId} is not a live logo of this account`,
    );
  }

  const list = g.array('outputTemplateList', true);
  if (list.length === 0) throw g.invalid('outputTemplateList', 'must hold at least one template');
  if (list.length > MAX_TEMPLATES)
    throw g.invalid('outputTemplateList', `must hold at most ${MAX_TEMPLATES} templates`);
  const seen = new Set<string>();
  const templates = list.map((item, i): OutputTemplateDef => {
    const t = g.item('outputTemplateList', i, item);
    const templateId = t.str('templateId', true, 64);
    if (!store.get('liveTemplates', templateId)) {
      throw new PlatformFault(
        Codes.liveTemplateNotExists,
        `${t.path('templateId')} ${templateId} is not a live template of this account`,
      );
    }
    if (seen.has(templateId)) throw t.invalid('templateId', 'repeats a template already in this group');
    seen.add(templateId);
    const isDefault = t.flag('isDefault');
    if (isDefault === undefined) throw t.missing('isDefault');
    return { templateId, isDefault };
  });
  if (templates.filter((t) => t.isDefault === '1').length > 1) {
    throw g.invalid('outputTemplateList', 'must have at most one template with isDefault 1');
  }
  return {
    id,
    protocolType,
    rtmpThirdPartyOutputUrl: third,
    rotation,
    isRecord,
    needToMp4,
    isTimeShift,
    timeShiftDuration,
    isLiveEncrypt,
    logoId,
    templates,
  };
}
