/** The account's records of every kind a folder holds: one list request per kind (channels page by page). */
import type { PlatformClient } from '../../api/client';
import type { Channel } from '../../api/types';
import { type ConfigKind, type Snapshot } from './folderForm';

export type SnapshotClient = Pick<
  PlatformClient,
  | 'getLogoGroupList'
  | 'templateGroupList'
  | 'liveGetTemplates'
  | 'liveLogoList'
  | 'liveChannelTypeList'
  | 'liveGetChannelsByPage'
>;

const PAGE = 100;
/** An account with more channels than this is more than a folder is meant for: refused, not cut short. */
export const CHANNEL_LIMIT = 2000;

export async function readSnapshot(client: SnapshotClient, signal?: AbortSignal): Promise<Snapshot> {
  const o = { signal };
  const [logogroup, templategroup, livetemplate, livelogo, category, channel] = await Promise.all([
    client.getLogoGroupList(o),
    client.templateGroupList({}, o),
    client.liveGetTemplates({}, o),
    client.liveLogoList({}, o),
    client.liveChannelTypeList({}, o),
    allChannels(client, signal),
  ]);
  return { logogroup, templategroup, livetemplate, livelogo, category, channel };
}

async function allChannels(client: SnapshotClient, signal?: AbortSignal): Promise<Channel[]> {
  const channels: Channel[] = [];
  for (let start = 1; ; start++) {
    const page = await client.liveGetChannelsByPage(
      { start, number: PAGE, sort: 'createTime', order: 'asc' },
      { signal },
    );
    if (page.count > CHANNEL_LIMIT)
      throw new Error(`the account has ${page.count} channels; a folder holds at most ${CHANNEL_LIMIT}`);
    channels.push(...page.channels);
    if (page.channels.length < PAGE || channels.length >= page.count) return channels;
  }
}

export function findRecord(snapshot: Snapshot, kind: ConfigKind, id: string): Snapshot[ConfigKind][number] | undefined {
  return (snapshot[kind] as Array<{ id: string | number }>).find((record) => String(record.id) === id) as
    Snapshot[ConfigKind][number] | undefined;
}
