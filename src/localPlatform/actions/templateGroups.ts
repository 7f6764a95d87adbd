/**
 * Transcoding template groups (integer ids): templateGroup create/modify, templateGroupList
 * (rest-interface 4.3, facts section 4) and deleteTemplateGroup. Built-in groups cannot be modified
 * or deleted (cannotModifyTemplateGroup); the default group cannot change type
 * (cannotModifyDefaultGroupType). An account's first regular group becomes its default group; when
 * the default group is deleted, the account's lowest-numbered remaining regular group becomes the
 * default (none if there is none: the next regular group created becomes it).
 */
import { OPERATIONS } from '../../api/operations';
import { Codes } from '../../api/errorCodes';
import { BUILTIN_TEMPLATE_GROUPS, builtinTemplateGroup } from './builtinGroups';
import type { ActionHandler } from './context';
import { PlatformFault } from '../http/faults';
import { checkRenditionWork } from './workLimits';
import { Fields } from './fields';
import { metaOf } from '../store/meta';
import type { TemplateGroupItemRec, TemplateGroupRec } from '../store/records';
import * as out from '../http/serialize';
import { Tx, type AccountStore } from '../store/store';
import { checkLogoGroup, readGroupId, readGroupIds } from './logoGroups';

const MAX_ITEMS = 20;
const TEMPLATE_CODES = { missing: Codes.transcodeTemplateNotCorrect, invalid: Codes.transcodeTemplateNotCorrect };

export function findTemplateGroup(store: AccountStore, id: number): TemplateGroupRec | undefined {
  return builtinTemplateGroup(id) ?? store.get('templateGroups', id);
}

function readItem(t: Fields): TemplateGroupItemRec {
  const format = t.int('format', true, { oneOf: [0, 1, 2, 3] }) as 0 | 1 | 2 | 3;
  const encryptType = t.int('encryptType', true, { oneOf: [0, 6, 7] }) as 0 | 6 | 7;
  if (encryptType === 6 && format !== 0) throw t.invalid('encryptType', '6 (AES) applies to HLS (format 0) only');
  let advancedArguments: string | null = null;
  if (t.has('advancedArguments')) {
    const value = t.jsonValue('advancedArguments');
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      throw t.invalid('advancedArguments', 'must be JSON text of an object');
    }
    // Its keys (rc, gopSize, bFrame, ...) hold numbers or text: a flat object, kept small.
    const flat = Object.values(value).every((v) => v === null || ['string', 'number', 'boolean'].includes(typeof v));
    if (!flat)
      throw t.invalid(
        'advancedArguments',
        'values must be numbers, text, booleans or null (no nested objects or arrays)',
      );
    advancedArguments = JSON.stringify(value);
    if (advancedArguments.length > 4000)
      throw t.invalid('advancedArguments', 'must be at most 4000 characters of JSON');
  }
  return {
    name: t.str('name', true, 100).trim(),
    videoWidth: t.int('videoWidth', true, { min: 16, max: 7680 }),
    videoHeight: t.int('videoHeight', true, { min: 16, max: 4320 }),
    videoBitrate: t.int('videoBitrate', true, { min: 1, max: 100_000 }),
    audioBitrate: t.int('audioBitrate', true, { min: 1000, max: 1_024_000 }),
    format,
    encryptType,
    defaultVideo: t.int('defaultVideo', true, { oneOf: [0, 1] }) as 0 | 1,
    advancedArguments,
  };
}

/** The template items of a group: a JSON array with exactly one `defaultVideo` 1 (transcodeTemplateNotCorrect otherwise). */
function readItems(p: Fields): TemplateGroupItemRec[] {
  if (!p.has('transcodeTemplates')) throw p.missing('transcodeTemplates');
  const f = new Fields({ transcodeTemplates: p.raw('transcodeTemplates') }, '', TEMPLATE_CODES);
  const list = f.array('transcodeTemplates', true);
  if (list.length === 0) throw f.invalid('transcodeTemplates', 'must hold at least one template');
  if (list.length > MAX_ITEMS) throw f.invalid('transcodeTemplates', `must hold at most ${MAX_ITEMS} templates`);
  const items = list.map((value, i) => readItem(f.item('transcodeTemplates', i, value)));
  checkRenditionWork('transcodeTemplates', items);
  const defaults = items.filter((item) => item.defaultVideo === 1).length;
  if (defaults !== 1) {
    throw f.invalid('transcodeTemplates', `must have exactly one template with defaultVideo 1 (found ${defaults})`);
  }
  return items;
}

export const templateGroup: ActionHandler = async (ctx) => {
  const p = ctx.params;
  const { store } = ctx.account;
  const id = readGroupId(p, 'id');
  let current: TemplateGroupRec | undefined;
  if (id !== undefined) {
    if (builtinTemplateGroup(id)) {
      throw new PlatformFault(
        Codes.cannotModifyTemplateGroup,
        `id ${id} is a built-in template group, which cannot be modified`,
      );
    }
    current = store.get('templateGroups', id);
    if (!current)
      throw new PlatformFault(Codes.templateGroupNotExist, `id ${id} is not a template group of this account`);
  }
  const specs = OPERATIONS.templateGroup.params;
  const name = p.param(specs, 'name').trim();
  const type = p.param(specs, 'type') as 0 | 1;
  const trailor = p.param(specs, 'trailor');
  const trailorDuration = p.param(specs, 'trailorDuration');
  const logoGroupId = checkLogoGroup(store, p.param(specs, 'logoGroupId'), 'logoGroupId');
  const templates = readItems(p);
  const meta = metaOf(store);
  const tx = new Tx();
  let group: TemplateGroupRec;
  if (current) {
    if (current.id === meta.defaultTemplateGroupId && type !== current.type) {
      throw new PlatformFault(
        Codes.cannotModifyDefaultGroupType,
        `type of the default template group ${current.id} cannot change (it is ${current.type})`,
      );
    }
    group = { ...current, name, type, trailor, trailorDuration, logoGroupId, templates, updateTime: ctx.now };
  } else {
    group = {
      id: meta.nextTemplateGroupId,
      name,
      type,
      trailor,
      trailorDuration,
      logoGroupId,
      templates,
      createTime: ctx.now,
      updateTime: null,
    };
    const becomesDefault = meta.defaultTemplateGroupId === null && type === 0;
    tx.put('meta', {
      ...meta,
      nextTemplateGroupId: meta.nextTemplateGroupId + 1,
      defaultTemplateGroupId: becomesDefault ? group.id : meta.defaultTemplateGroupId,
    });
  }
  await store.commit(tx.put('templateGroups', group));
  return { result: group.id };
};

export const templateGroupList: ActionHandler = (ctx) => {
  const type = ctx.params.param(OPERATIONS.templateGroupList.params, 'type');
  const { defaultTemplateGroupId } = metaOf(ctx.account.store);
  const rows = [
    ...BUILTIN_TEMPLATE_GROUPS,
    ...[...ctx.account.store.values('templateGroups')].sort((a, b) => a.id - b.id),
  ]
    .filter((g) => type === undefined || g.type === type)
    .map((g) =>
      out.templateGroupSummary(g, defaultTemplateGroupId, builtinTemplateGroup(g.id) ? 0 : ctx.account.userId),
    );
  return { result: rows };
};

/** deleteTemplateGroup: `ids` comma-separated; all or nothing; result null. */
export const deleteTemplateGroup: ActionHandler = async (ctx) => {
  const { store } = ctx.account;
  const ids = readGroupIds(ctx.params, 'ids');
  const tx = new Tx();
  for (const id of ids) {
    if (builtinTemplateGroup(id)) {
      throw new PlatformFault(
        Codes.cannotModifyTemplateGroup,
        `ids: ${id} is a built-in template group, which cannot be deleted`,
      );
    }
    if (!store.get('templateGroups', id))
      throw new PlatformFault(Codes.templateGroupNotExist, `ids: ${id} is not a template group of this account`);
    tx.del('templateGroups', id);
  }
  const meta = metaOf(store);
  if (meta.defaultTemplateGroupId !== null && ids.includes(meta.defaultTemplateGroupId)) {
    const next = [...store.values('templateGroups')]
      .filter((g) => g.type === 0 && !ids.includes(g.id))
      .sort((a, b) => a.id - b.id)[0];
    tx.put('meta', { ...meta, defaultTemplateGroupId: next?.id ?? null });
  }
  await store.commit(tx);
  return { result: null };
};

/** This module's operations by action name, collected in ../handlers.ts. */
export const handlers = { templateGroup, templateGroupList, deleteTemplateGroup };
