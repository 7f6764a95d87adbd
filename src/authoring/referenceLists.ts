/**
 * Fetches the account's lists that documents refer to (for reference checks and completion), in the
 * shape of references.ts. Small lists are fetched whole; channels and videos only up to a limit,
 * and then marked incomplete so a missing id is not reported as unknown.
 */
import type { PlatformClient } from '../api/client';
import type { Channel, Video } from '../api/types';
import type { NamedRef, ReferenceKind, ReferenceList } from './references';

export type ListingClient = Pick<
  PlatformClient,
  | 'liveGetTemplates'
  | 'liveLogoList'
  | 'getLogoGroupList'
  | 'liveChannelTypeList'
  | 'templateGroupList'
  | 'liveGetChannelsByPage'
  | 'queryVideo'
>;

const CHANNEL_LIMIT = 500;
const PAGE = 100;

export async function fetchReferenceList(
  client: ListingClient,
  kind: ReferenceKind,
  signal?: AbortSignal,
): Promise<ReferenceList> {
  const o = { signal };
  const whole = (items: NamedRef[]): ReferenceList => ({ items, complete: true });
  switch (kind) {
    case 'liveTemplates':
      return whole(
        (await client.liveGetTemplates({}, o)).map((t) => ({
          id: t.id,
          name: t.displayName || t.name,
          detail: `${t.videoWidth}x${t.videoHeight}, ${t.videoBitrate} kbps`,
          fields: [
            ['size', `${t.videoWidth}x${t.videoHeight}`],
            ['video bitrate', `${t.videoBitrate} kbps`],
            ['audio bitrate', `${t.audioBitrate} kbps`],
            ['frame rate', `${t.frameRate} fps`],
            ['transcode type', String(t.transcodeType)],
          ],
        })),
      );
    case 'liveLogos':
      return whole(
        (await client.liveLogoList({}, o)).map((l) => ({
          id: l.id,
          name: l.name,
          detail: `${l.width}x${l.height}`,
          fields: [
            ['size', `${l.width}x${l.height}`],
            ['offset', `${l.offsetWidth}, ${l.offsetHeight}`],
            ['opacity', `${l.opacity}%`],
            ['image', l.uri],
          ],
        })),
      );
    case 'logoGroups':
      return whole(
        (await client.getLogoGroupList(o)).map((g) => ({
          id: g.id,
          name: g.name,
          detail: `${g.logos?.length ?? 0} logos`,
          fields: [['logos', (g.logos ?? []).map((logo) => logo.uri).join(', ') || 'none']],
        })),
      );
    case 'categories':
      return whole(
        (await client.liveChannelTypeList({}, o)).map((c) => ({
          id: c.id,
          name: c.name,
          fields: [['created', new Date(c.createTime).toISOString().slice(0, 10)]],
        })),
      );
    case 'templateGroups':
      return whole(
        (await client.templateGroupList({}, o)).map((g) => ({
          id: g.id,
          name: g.name,
          detail: [g.type === 1 ? 'VR' : 'normal', g.defaultGroup ? 'default group' : ''].filter(Boolean).join(', '),
          fields: [
            ['type', g.type === 1 ? 'VR' : 'normal'],
            ['default group', g.defaultGroup ? 'yes' : 'no'],
            ['trailer', g.trailor ? `${g.trailorDuration} s` : 'none'],
            ['logo group', g.logoGroupId ? String(g.logoGroupId) : 'none'],
            ['built in', g.userId === 0 ? 'yes' : 'no'],
          ],
        })),
      );
    case 'channels': {
      const items: NamedRef[] = [];
      let count = 0;
      for (let start = 1; items.length < CHANNEL_LIMIT; start++) {
        const page = await client.liveGetChannelsByPage({ start, number: PAGE, sort: 'createTime', order: 'desc' }, o);
        count = page.count;
        items.push(...page.channels.map(channelRef));
        if (page.channels.length < PAGE || items.length >= count) break;
      }
      return { items, complete: items.length >= count };
    }
    case 'videos': {
      const videos = await client.queryVideo({ start: 1, number: PAGE, sort: 'uploadTime', order: 'desc' }, o);
      return {
        items: videos.map(videoRef),
        complete: false,
      };
    }
  }
}

// docs/platform/platform-facts.md section 3.
const CHANNEL_STATUS: Readonly<Record<number, string>> = {
  0: 'initialised',
  1: 'ready (stopped)',
  2: 'live',
  3: 'pulling',
  5: 'starting',
};

/** A channel as the hovers and checks see it. */
export function channelRef(c: Channel): NamedRef {
  return {
    id: c.id,
    name: c.name,
    fields: [
      ['status', CHANNEL_STATUS[c.status] ?? String(c.status)],
      ['signal', c.signalType === '2' ? `pull from ${c.pullStream ?? '?'}` : 'push'],
      ['category', c.typeName ?? 'none'],
      [
        'output groups',
        (c.outputGroupList ?? []).map((g) => PROTOCOLS[g.protocolType] ?? String(g.protocolType)).join(', ') || 'none',
      ],
    ],
  };
}

const PROTOCOLS: Readonly<Record<number, string>> = { 1: 'HLS', 2: 'RTMP' };

/** A video as the hovers and checks see it. */
export function videoRef(v: Video): NamedRef {
  return {
    id: v.id,
    name: v.title || v.fileName,
    detail: v.fileName,
    fields: [
      ['file', v.fileName],
      ['duration', `${Math.round(v.duration / 1000)} s`],
      ['size', `${v.width}x${v.height}`],
      ['category', v.category ?? 'none'],
      ['transcoded streams', String(v.transcodedVideoList?.length ?? 0)],
    ],
  };
}
