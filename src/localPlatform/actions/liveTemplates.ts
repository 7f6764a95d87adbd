/**
 * Live templates: liveTemplateCreate, liveTemplateUpdate, liveGetTemplates (rest-interface 4.2,
 * facts section 4). The record's `name` is composed as `<displayName>/<videoBitrate>kbps/<width>x<height>`.
 */
import { OPERATIONS } from '../../api/operations';
import { Codes } from '../../api/errorCodes';
import type { ActionHandler } from './context';
import { PlatformFault } from '../http/faults';
import { Fields } from './fields';
import { newId } from '../store/ids';
import type { AdvancedArgumentsRec, LiveTemplateRec } from '../store/records';
import * as out from '../http/serialize';
import { Tx } from '../store/store';

const EMPTY_ADVANCED: AdvancedArgumentsRec = {
  rc: null,
  refFrame: null,
  gopSize: null,
  bframe: null,
  interlace: null,
  gopType: null,
  smartBorder: null,
};

/** `advancedArguments`: a JSON object, or JSON text of one (how form parameters carry it). */
export function readAdvancedArguments(p: Fields, base: AdvancedArgumentsRec): AdvancedArgumentsRec {
  const value = p.jsonValue('advancedArguments');
  if (value === undefined) return base;
  const a = Fields.object(value, p.path('advancedArguments'));
  let rc: AdvancedArgumentsRec['rc'] = base.rc;
  if (a.has('rc')) {
    const raw = a.raw('rc');
    if (typeof raw === 'number' && Number.isInteger(raw)) rc = raw;
    else if (typeof raw === 'string' && raw.length <= 32) rc = raw;
    else throw a.invalid('rc', 'must be a bitrate control name or number');
  }
  // Both spellings are in use: `bFrame` (interface 4.3) and `bframe` (the record's key).
  const bframe = a.int('bFrame', false, { min: 0, max: 16 }) ?? a.int('bframe', false, { min: 0, max: 16 });
  a.int('qualityLevel', false, { min: 0, max: 100 });
  return {
    rc,
    refFrame: a.int('refFrame', false, { min: 0, max: 16 }) ?? base.refFrame,
    gopSize: a.int('gopSize', false, { min: 0, max: 100_000 }) ?? base.gopSize,
    bframe: bframe ?? base.bframe,
    interlace: a.int('interlace', false, { oneOf: [-1, 0, 3] }) ?? base.interlace,
    gopType: a.int('gopType', false, { oneOf: [0, 1] }) ?? base.gopType,
    smartBorder: a.int('smartBorder', false, { oneOf: [0, 1, 2] }) ?? base.smartBorder,
  };
}

interface TemplateFields {
  displayName?: string;
  type?: number;
  transcodeType?: number;
  videoWidth?: number;
  videoHeight?: number;
  videoBitrate?: number;
  audioBitrate?: number;
  frameRate?: number;
}

/** The template's fields by the create or the update contract (required on create, optional on update). */
function readTemplateFields(
  p: Fields,
  specs: typeof OPERATIONS.liveTemplateCreate.params | typeof OPERATIONS.liveTemplateUpdate.params,
): TemplateFields {
  const displayName = p.param(specs, 'displayName')?.trim();
  if (displayName !== undefined && displayName === '') throw p.missing('displayName');
  return {
    displayName,
    type: p.param(specs, 'type'),
    transcodeType: p.param(specs, 'transcodeType'),
    videoWidth: p.param(specs, 'videoWidth'),
    videoHeight: p.param(specs, 'videoHeight'),
    videoBitrate: p.param(specs, 'videoBitrate'),
    audioBitrate: p.param(specs, 'audioBitrate'),
    frameRate: p.param(specs, 'frameRate'),
  };
}

export const liveTemplateCreate: ActionHandler = async (ctx) => {
  const p = ctx.params;
  const f = readTemplateFields(p, OPERATIONS.liveTemplateCreate.params);
  const t: LiveTemplateRec = {
    id: newId(),
    displayName: f.displayName ?? '',
    type: f.type ?? 1,
    transcodeType: f.transcodeType ?? 0,
    videoWidth: f.videoWidth ?? 0,
    videoHeight: f.videoHeight ?? 0,
    videoBitrate: f.videoBitrate ?? 0,
    audioBitrate: f.audioBitrate ?? 64,
    frameRate: f.frameRate ?? 25,
    videoCodec: 'h264',
    advanced: readAdvancedArguments(p, EMPTY_ADVANCED),
    createTime: ctx.now,
    updateTime: null,
  };
  await ctx.account.store.commit(new Tx().put('liveTemplates', t));
  return { result: out.liveTemplate(ctx.view, t) };
};

export const liveTemplateUpdate: ActionHandler = async (ctx) => {
  const p = ctx.params;
  const id = p.param(OPERATIONS.liveTemplateUpdate.params, 'id');
  const current = ctx.account.store.get('liveTemplates', id);
  if (!current) throw new PlatformFault(Codes.liveTemplateNotExists, `id ${id} is not a live template of this account`);
  const f = readTemplateFields(p, OPERATIONS.liveTemplateUpdate.params);
  const t: LiveTemplateRec = {
    ...current,
    displayName: f.displayName ?? current.displayName,
    type: f.type ?? current.type,
    transcodeType: f.transcodeType ?? current.transcodeType,
    videoWidth: f.videoWidth ?? current.videoWidth,
    videoHeight: f.videoHeight ?? current.videoHeight,
    videoBitrate: f.videoBitrate ?? current.videoBitrate,
    audioBitrate: f.audioBitrate ?? current.audioBitrate,
    frameRate: f.frameRate ?? current.frameRate,
    advanced: readAdvancedArguments(p, current.advanced),
    updateTime: ctx.now,
  };
  await ctx.account.store.commit(new Tx().put('liveTemplates', t));
  return { result: out.liveTemplate(ctx.view, t) };
};

export const liveGetTemplates: ActionHandler = (ctx) => {
  const p = ctx.params;
  const specs = OPERATIONS.liveGetTemplates.params;
  const name = p.param(specs, 'name')?.toLowerCase();
  const type = p.param(specs, 'type');
  const transcodeType = p.param(specs, 'transcodeType');
  const rows = [...ctx.account.store.values('liveTemplates')]
    .filter(
      (t) =>
        name === undefined ||
        t.displayName.toLowerCase().includes(name) ||
        out.templateName(t).toLowerCase().includes(name),
    )
    .filter((t) => type === undefined || t.type === type)
    .filter((t) => transcodeType === undefined || t.transcodeType === transcodeType)
    .sort((a, b) => a.createTime - b.createTime || (a.id < b.id ? -1 : 1));
  return { result: rows.map((t) => out.liveTemplate(ctx.view, t)) };
};

/** This module's operations by action name, collected in ../handlers.ts. */
export const handlers = { liveTemplateCreate, liveTemplateUpdate, liveGetTemplates };
