/**
 * Fetches the account's lists that documents refer to (for reference checks and completion), in the
 * shape of references.ts. Small lists are fetched whole; channels and videos only up to a limit,
 * and then marked incomplete so a missing id is not reported as unknown.
 */
import type { PlatformClient } from '../api/client';
import type { Channel, Video } from '../api/types';
import { ChannelStatuses, isBuiltInTemplateGroup } from '../api/types';
import { l10n } from '../l10n/l10n';
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
            [l10n.t('size'), `${t.videoWidth}x${t.videoHeight}`],
            [l10n.t('video bitrate'), `${t.videoBitrate} kbps`],
            [l10n.t('audio bitrate'), `${t.audioBitrate} kbps`],
            [l10n.t('frame rate'), `${t.frameRate} fps`],
            [l10n.t('transcode type'), String(t.transcodeType)],
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
            [l10n.t('size'), `${l.width}x${l.height}`],
            [l10n.t('offset'), `${l.offsetWidth}, ${l.offsetHeight}`],
            [l10n.t('opacity'), `${l.opacity}%`],
            [l10n.t('image'), l.uri],
          ],
        })),
      );
    case 'logoGroups':
      return whole(
        (await client.getLogoGroupList(o)).map((g) => ({
          id: g.id,
          name: g.name,
          detail: (g.logos?.length ?? 0) === 1 ? l10n.t('1 logo') : l10n.t('{0} logos', g.logos?.length ?? 0),
          fields: [[l10n.t('logos'), (g.logos ?? []).map((logo) => logo.uri).join(', ') || l10n.t('none')]],
        })),
      );
    case 'categories':
      return whole(
        (await client.liveChannelTypeList({}, o)).map((c) => ({
          id: c.id,
          name: c.name,
          fields: [[l10n.t('created'), new Date(c.createTime).toISOString().slice(0, 10)]],
        })),
      );
    case 'templateGroups':
      return whole(
        (await client.templateGroupList({}, o)).map((g) => ({
          id: g.id,
          name: g.name,
          detail: [g.type === 1 ? 'VR' : l10n.t('normal'), g.defaultGroup ? l10n.t('default group') : '']
            .filter(Boolean)
            .join(', '),
          fields: [
            [l10n.t('type'), g.type === 1 ? 'VR' : l10n.t('normal')],
            [l10n.t('default group'), g.defaultGroup ? l10n.t('yes') : l10n.t('no')],
            [l10n.t('trailer'), g.trailor ? `${g.trailorDuration} s` : l10n.t('none')],
            [l10n.t('logo group'), g.logoGroupId ? String(g.logoGroupId) : l10n.t('none')],
            [l10n.t('built in'), isBuiltInTemplateGroup(g) ? l10n.t('yes') : l10n.t('no')],
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
function channelStatus(status: number): string {
  switch (status) {
    case ChannelStatuses.initialised:
      return l10n.t('initialised');
    case ChannelStatuses.ready:
      return l10n.t('ready (stopped)');
    case ChannelStatuses.live:
      return l10n.t('live');
    case ChannelStatuses.pulling:
      return l10n.t('pulling');
    case ChannelStatuses.starting:
      return l10n.t('starting');
    default:
      return String(status);
  }
}

/** A channel as the hovers and checks see it. */
export function channelRef(c: Channel): NamedRef {
  return {
    id: c.id,
    name: c.name,
    fields: [
      [l10n.t('status'), channelStatus(c.status)],
      [l10n.t('signal'), c.signalType === '2' ? l10n.t('pull from {0}', c.pullStream ?? '?') : l10n.t('push')],
      [l10n.t('category'), c.typeName ?? l10n.t('none')],
      [
        l10n.t('output groups'),
        (c.outputGroupList ?? []).map((g) => PROTOCOLS[g.protocolType] ?? String(g.protocolType)).join(', ') ||
          l10n.t('none'),
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
      [l10n.t('file'), v.fileName],
      [l10n.t('duration'), `${Math.round(v.duration / 1000)} s`],
      [l10n.t('size'), `${v.width}x${v.height}`],
      [l10n.t('category'), v.category ?? l10n.t('none')],
      [l10n.t('transcoded streams'), String(v.transcodedVideoList?.length ?? 0)],
    ],
  };
}
