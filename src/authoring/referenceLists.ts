/**
 * Fetches the account's lists that documents refer to (for reference checks and completion), in the
 * shape of references.ts. Small lists are fetched whole; channels and videos only up to a limit,
 * and then marked incomplete so a missing id is not reported as unknown.
 */
import type { PlatformClient } from '../api/client';
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
        })),
      );
    case 'liveLogos':
      return whole(
        (await client.liveLogoList({}, o)).map((l) => ({ id: l.id, name: l.name, detail: `${l.width}x${l.height}` })),
      );
    case 'logoGroups':
      return whole(
        (await client.getLogoGroupList(o)).map((g) => ({
          id: g.id,
          name: g.name,
          detail: `${g.logos?.length ?? 0} logos`,
        })),
      );
    case 'categories':
      return whole((await client.liveChannelTypeList({}, o)).map((c) => ({ id: c.id, name: c.name })));
    case 'templateGroups':
      return whole(
        (await client.templateGroupList({}, o)).map((g) => ({
          id: g.id,
          name: g.name,
          detail: [g.type === 1 ? 'VR' : 'normal', g.defaultGroup ? 'default group' : ''].filter(Boolean).join(', '),
        })),
      );
    case 'channels': {
      const items: NamedRef[] = [];
      let count = 0;
      for (let start = 1; items.length < CHANNEL_LIMIT; start++) {
        const page = await client.liveGetChannelsByPage({ start, number: PAGE, sort: 'createTime', order: 'desc' }, o);
        count = page.count;
        items.push(...page.channels.map((c) => ({ id: c.id, name: c.name })));
        if (page.channels.length < PAGE || items.length >= count) break;
      }
      return { items, complete: items.length >= count };
    }
    case 'videos': {
      const videos = await client.queryVideo({ start: 1, number: PAGE, sort: 'uploadTime', order: 'desc' }, o);
      return {
        items: videos.map((v) => ({ id: v.id, name: v.title || v.fileName, detail: v.fileName })),
        complete: false,
      };
    }
  }
}
