/**
 * After a create: the edit that writes the new object's id into the document, so the next run of
 * the same file updates instead of creating again. For a channel, the new output groups' ids are
 * written too, so an update keeps the groups (and their play addresses) rather than replacing them.
 */
import type { Channel, LogoGroup } from '../api/types';
import { l10n } from '../l10n/l10n';
import { JsonDocument } from './jsonDocument';
import type { TextEdit } from './problems';

export interface CreatedIds {
  id: string | number;
  /** Channel only: ids of the output groups, in the order they were sent. */
  groupIds?: string[];
}

export function createdIdsOfChannel(channel: Channel): CreatedIds {
  return { id: channel.id, groupIds: channel.outputGroupList.map((group) => group.id) };
}

/**
 * logoGroup answers `""`, not the new id: the new group is the one of that name with the highest
 * id not listed before the call.
 */
export function pickCreatedLogoGroup(
  after: readonly LogoGroup[],
  name: string,
  idsBefore: ReadonlySet<number>,
): LogoGroup | undefined {
  return after.filter((group) => group.name === name && !idsBefore.has(group.id)).sort((a, b) => b.id - a.id)[0];
}

/** Edits writing `id` (first in the object) and, for channels, each group's `id`; [] if nothing to write. */
export function idWriteBackEdits(text: string, created: CreatedIds): TextEdit[] {
  const doc = new JsonDocument(text);
  if (!doc.root || doc.root.type !== 'object') return [];
  const groups = doc.node(['outputGroupList']);
  const fix = doc.fix(l10n.t('Write the new id'), (draft) => {
    draft.set(['id'], created.id, true);
    created.groupIds?.forEach((groupId, index) => {
      const group = groups?.children?.[index];
      if (group?.type !== 'object') return;
      const current = new JsonDocument(draft.text).node(['outputGroupList', index, 'id']);
      if (current === undefined) draft.set(['outputGroupList', index, 'id'], groupId, true);
    });
  });
  return fix.edits[0].length === 0 && fix.edits[0].newText === '' ? [] : fix.edits;
}
