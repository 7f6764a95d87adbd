/**
 * Live channel operations: create, update, get, start, stop, delete, play addresses
 * (rest-interface 4.1, facts sections 3 and 4).
 */
import { OPERATIONS } from '../../api/operations';
import { randomBytes } from 'node:crypto';
import { Codes } from '../../api/errorCodes';
import { ChannelStatuses, isChannelRunning } from '../../api/types';
import type { ActionContext, ActionHandler } from './context';
import { PlatformFault } from '../http/faults';
import { newId } from '../store/ids';
import type { ChannelRec, LiveOutputRec, OutputGroupRec } from '../store/records';
import { newChannelRecord } from '../store/records';
import * as out from '../http/serialize';
import { Tx, type AccountStore } from '../store/store';
import { outputUrlProblem, pullStreamProblem } from '../live/pullSource';
import { readChannelDefinition, type OutputGroupDef } from './channelDefinition';

/** `listField` names the comma-separated parameter the id came from, if any. */
function findChannel(store: AccountStore, id: string, listField?: string): ChannelRec {
  const ch = store.get('channels', id);
  if (!ch) {
    const where = listField ? `${listField} lists ${id}, which` : `id ${id}`;
    throw new PlatformFault(Codes.channelNotExists, `${where} is not a channel of this account`);
  }
  return ch;
}

function newOutputs(def: OutputGroupDef, now: number, keep: LiveOutputRec[] = []): LiveOutputRec[] {
  return def.templates.map((t) => {
    const kept = keep.find((o) => o.templateId === t.templateId);
    if (kept) return kept.isDefault === t.isDefault ? kept : { ...kept, isDefault: t.isDefault, updateTime: now };
    return { id: newId(), templateId: t.templateId, isDefault: t.isDefault, createTime: now, updateTime: null };
  });
}

function groupFromDef(def: OutputGroupDef, userId: number, now: number, existing?: OutputGroupRec): OutputGroupRec {
  const encrypted = def.isLiveEncrypt === '1';
  return {
    id: existing?.id ?? newId(),
    protocolType: def.protocolType,
    taskId: existing?.taskId ?? null,
    isLiveEncrypt: def.isLiveEncrypt,
    // Vendor encryption keys exist only while encryption is on; kept stable across updates.
    customerId: encrypted ? (existing?.customerId ?? String(userId)) : null,
    contentId: encrypted ? (existing?.contentId ?? newId()) : null,
    createTime: existing?.createTime ?? now,
    updateTime: existing ? now : null,
    logoId: def.logoId,
    rtmpThirdPartyOutputUrl: def.rtmpThirdPartyOutputUrl,
    isRecord: def.isRecord,
    recordTaskId: existing?.recordTaskId ?? null,
    recordStartTime: existing?.recordStartTime ?? null,
    needToMp4: def.needToMp4,
    isTimeShift: def.isTimeShift,
    timeShiftDuration: def.timeShiftDuration,
    timeShiftTaskId: existing?.timeShiftTaskId ?? null,
    rotation: def.rotation,
    outputs: newOutputs(def, now, existing?.outputs),
  };
}

/**
 * The channel definition: the JSON body (facts section 2). Two tolerances for clients that differ:
 * without a JSON body, a definition sent as query/form fields (`outputGroupList` as JSON text, as
 * other JSON parameters travel) is read the same way; for liveUpdate, an `id` given as a (signed)
 * query or form parameter stands in for one missing from the body.
 */
function definitionOf(ctx: ActionContext, withId: boolean): unknown {
  const body = ctx.body;
  if (body === undefined) return ctx.params.has('outputGroupList') ? ctx.params.entries() : undefined;
  if (!withId || body === null || typeof body !== 'object' || Array.isArray(body) || !ctx.params.has('id')) return body;
  const given = (body as Record<string, unknown>).id;
  const paramId = ctx.params.param(OPERATIONS.liveUpdate.params, 'id');
  if (given === undefined || given === null || given === '') return { ...body, id: paramId };
  if (String(given) !== paramId) {
    throw new PlatformFault(
      Codes.parameterInvalid,
      `id is ${paramId} as a parameter but ${String(given).slice(0, 64)} in the JSON body`,
    );
  }
  return body;
}

/**
 * With real live media a pull source's host is resolved and must be public (live/pullSource.ts):
 * checked when a definition is stored and again when a channel starts (records stored earlier).
 */
async function checkPullAddress(ctx: ActionContext, pullStream: string | null): Promise<void> {
  if (!pullStream || !ctx.account.live) return;
  const problem = pullStreamProblem(pullStream) ?? (await ctx.account.live.pullProblem(pullStream));
  if (problem) throw new PlatformFault(Codes.parameterInvalid, `pullStream ${problem}`);
}

/** The same for each RTMP group's `rtmpThirdPartyOutputUrl`: the platform sends there from the ladder. */
async function checkOutputAddresses(
  ctx: ActionContext,
  groups: ReadonlyArray<{ rtmpThirdPartyOutputUrl: string | null }>,
): Promise<void> {
  const live = ctx.account.live;
  if (!live) return;
  for (const [i, g] of groups.entries()) {
    const url = g.rtmpThirdPartyOutputUrl;
    const problem = url ? (outputUrlProblem(url) ?? (await live.outputProblem(url))) : undefined;
    if (problem) {
      throw new PlatformFault(Codes.parameterInvalid, `outputGroupList[${i}].rtmpThirdPartyOutputUrl ${problem}`);
    }
  }
}

export const liveCreateChannel: ActionHandler = async (ctx) => {
  const { store } = ctx.account;
  const def = readChannelDefinition(definitionOf(ctx, false), store, false);
  await checkPullAddress(ctx, def.pullStream);
  await checkOutputAddresses(ctx, def.groups);
  const id = newId();
  const ch = newChannelRecord({
    id,
    name: def.name,
    description: def.description,
    authCode: randomBytes(8).toString('hex'),
    type: def.type,
    typeName: def.typeName,
    signalType: def.signalType,
    pullStream: def.pullStream,
    createTime: ctx.now,
    liveType: def.liveType,
    groups: def.groups.map((g) => groupFromDef(g, ctx.account.userId, ctx.now)),
  });
  await store.commit(new Tx().put('channels', ch));
  return { result: out.channel(ctx.view, ch) };
};

/** liveUpdate: groups with an `id` are kept (same ids and play addresses); groups without are new. */
export const liveUpdate: ActionHandler = async (ctx) => {
  const { store } = ctx.account;
  const def = readChannelDefinition(definitionOf(ctx, true), store, true);
  await checkPullAddress(ctx, def.pullStream);
  await checkOutputAddresses(ctx, def.groups);
  const current = findChannel(store, def.id ?? '');
  if (isRunning(current)) {
    throw new PlatformFault(Codes.channelStateConflict, `channel ${current.id} is live; stop it before updating it`);
  }
  const used = new Set<string>();
  const groups = def.groups.map((g, i) => {
    if (g.id === undefined) return groupFromDef(g, ctx.account.userId, ctx.now);
    const existing = current.groups.find((x) => x.id === g.id);
    if (!existing) {
      throw new PlatformFault(
        Codes.parameterInvalid,
        `outputGroupList[${i}].id ${g.id} is not an output group of channel ${current.id}`,
      );
    }
    if (used.has(g.id))
      throw new PlatformFault(Codes.parameterInvalid, `outputGroupList[${i}].id ${g.id} is given twice`);
    used.add(g.id);
    if (existing.protocolType !== g.protocolType) {
      throw new PlatformFault(
        Codes.parameterInvalid,
        `outputGroupList[${i}].protocolType cannot change on a kept group; leave out its id to replace the group`,
      );
    }
    return groupFromDef(g, ctx.account.userId, ctx.now, existing);
  });
  const ch: ChannelRec = {
    ...current,
    name: def.name,
    description: def.description,
    type: def.type,
    typeName: def.typeName,
    signalType: def.signalType,
    pullStream: def.pullStream,
    liveType: def.liveType,
    updateTime: ctx.now,
    groups,
  };
  await store.commit(new Tx().put('channels', ch));
  return { result: out.channel(ctx.view, ch) };
};

export const liveGetChannelById: ActionHandler = (ctx) => {
  const id = ctx.params.param(OPERATIONS.liveGetChannelById.params, 'id');
  return { result: out.channel(ctx.view, findChannel(ctx.account.store, id)) };
};

/** Largest output of the channel: what the simulated incoming stream looks like. */
function sourceProfile(
  ctx: ActionContext,
  ch: ChannelRec,
): Pick<ChannelRec, 'streamWidth' | 'streamHeight' | 'streamBitrate' | 'streamAudioBitrate' | 'streamFrameRate'> {
  let best: { w: number; h: number; vb: number; ab: number; fr: number } | undefined;
  for (const g of ch.groups) {
    for (const o of g.outputs) {
      const t = ctx.account.store.get('liveTemplates', o.templateId);
      if (t && (!best || t.videoWidth * t.videoHeight > best.w * best.h)) {
        best = { w: t.videoWidth, h: t.videoHeight, vb: t.videoBitrate, ab: t.audioBitrate, fr: t.frameRate };
      }
    }
  }
  if (!best)
    return {
      streamWidth: null,
      streamHeight: null,
      streamBitrate: null,
      streamAudioBitrate: null,
      streamFrameRate: null,
    };
  return {
    streamWidth: best.w,
    streamHeight: best.h,
    streamBitrate: best.vb,
    streamAudioBitrate: best.ab,
    streamFrameRate: best.fr,
  };
}

function isRunning(ch: ChannelRec): boolean {
  return isChannelRunning(ch.status);
}

export const liveStartChannel: ActionHandler = async (ctx) => {
  const { store } = ctx.account;
  const id = ctx.params.param(OPERATIONS.liveStartChannel.params, 'id');
  const stored = findChannel(store, id);
  if (stored.signalType === '2') await checkPullAddress(ctx, stored.pullStream);
  await checkOutputAddresses(ctx, stored.groups);
  // Read again after the look-up: the record may have changed meanwhile.
  const current = findChannel(store, id);
  if (isRunning(current)) {
    throw new PlatformFault(
      Codes.channelStateConflict,
      `channel ${current.id} is already live; stop it before starting it again`,
    );
  }
  const live = ctx.account.live;
  live?.reserve(current);
  const now = ctx.now;
  // Real media: starting (5) with no source yet; the media (live/channelMedia.ts) reports the rest.
  // Simulated: live at once with the largest template as the stream.
  const ch: ChannelRec = {
    ...current,
    ...(live
      ? { streamWidth: null, streamHeight: null, streamBitrate: null, streamAudioBitrate: null, streamFrameRate: null }
      : sourceProfile(ctx, current)),
    status: live ? ChannelStatuses.starting : ChannelStatuses.live,
    streamStatus: live ? 2 : 1,
    startTime: now,
    endTime: null,
    updateTime: now,
    pullTaskId: current.signalType === '2' ? newId() : current.pullTaskId,
    groups: current.groups.map((g) => ({
      ...g,
      taskId: newId(),
      recordTaskId: g.isRecord === '1' ? newId() : g.recordTaskId,
      recordStartTime: g.isRecord === '1' ? now : g.recordStartTime,
      timeShiftTaskId: g.isTimeShift === '1' ? newId() : g.timeShiftTaskId,
      updateTime: now,
    })),
  };
  await store.commit(new Tx().put('channels', ch));
  live?.start(ch.id);
  return { result: out.channel(ctx.view, ch) };
};

export const liveStopChannel: ActionHandler = async (ctx) => {
  const { store } = ctx.account;
  const current = findChannel(store, ctx.params.param(OPERATIONS.liveStopChannel.params, 'id'));
  if (!isRunning(current)) {
    throw new PlatformFault(
      Codes.channelStateConflict,
      `channel ${current.id} is not live (status ${current.status}); only a live channel can be stopped`,
    );
  }
  const live = ctx.account.live;
  // Every process of the channel ends before the answer (its recording becomes a video).
  if (live) await live.stop(current.id);
  const now = live ? Date.now() : ctx.now;
  const latest = store.get('channels', current.id) ?? current;
  const ch: ChannelRec = {
    ...latest,
    status: ChannelStatuses.ready,
    streamStatus: live ? 2 : 1,
    endTime: now,
    updateTime: now,
    groups: current.groups.map((g) => ({ ...g, taskId: '', timeShiftTaskId: '', updateTime: now })),
  };
  await store.commit(new Tx().put('channels', ch));
  return { result: out.channel(ctx.view, ch) };
};

/** liveDelete: all or nothing; a live channel must be stopped first. */
export const liveDelete: ActionHandler = async (ctx) => {
  const { store } = ctx.account;
  const ids = ctx.params.param(OPERATIONS.liveDelete.params, 'ids');
  const tx = new Tx();
  for (const id of ids) {
    const ch = findChannel(store, id, 'ids');
    if (isRunning(ch))
      throw new PlatformFault(Codes.channelStateConflict, `channel ${id} is live; stop it before deleting it`);
    tx.del('channels', id);
  }
  await store.commit(tx);
  return { result: null };
};

export const liveGetChannelsPlayUrl: ActionHandler = (ctx) => {
  const ids = ctx.params.param(OPERATIONS.liveGetChannelsPlayUrl.params, 'channelId');
  const result = ids.flatMap((id) => out.playUrls(ctx.view, findChannel(ctx.account.store, id, 'channelId')));
  return { result };
};

/** This module's operations by action name, collected in ../handlers.ts. */
export const handlers = {
  liveCreateChannel,
  liveUpdate,
  liveGetChannelById,
  liveStartChannel,
  liveStopChannel,
  liveDelete,
  liveGetChannelsPlayUrl,
};
