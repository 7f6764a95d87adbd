/**
 * A template group as a ladder: from a `*.templategroup.json` document (checked by the authoring rules, so a bad
 * document is refused with the problem the editor shows) or from the platform's record of a group.
 */
import type { TemplateGroupListedItem, TemplateGroupSummary } from '../../api/types';
import { validateDocument } from '../../authoring/validate';
import { l10n } from '../../l10n/l10n';
import type { Ladder, Rung } from './model';

/** A group that cannot be evaluated: the message names the field and the rule. */
export class LadderInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LadderInputError';
  }
}

interface ItemLike {
  name: string;
  videoWidth: number;
  videoHeight: number;
  videoBitrate: number;
  audioBitrate: number;
  advancedArguments?: unknown;
}

/** One rung per rendition name (the formats of one rendition share its size and bitrates). */
function rungsOf(items: readonly ItemLike[]): Rung[] {
  const seen = new Map<string, Rung>();
  for (const item of items) {
    if (seen.has(item.name)) continue;
    const advanced =
      typeof item.advancedArguments === 'string'
        ? item.advancedArguments
        : item.advancedArguments && typeof item.advancedArguments === 'object'
          ? JSON.stringify(item.advancedArguments)
          : undefined;
    seen.set(item.name, {
      name: item.name,
      width: item.videoWidth,
      height: item.videoHeight,
      videoKbps: item.videoBitrate,
      audioBps: item.audioBitrate,
      ...(advanced ? { advancedArguments: advanced } : {}),
    });
  }
  return [...seen.values()];
}

function lineOf(text: string, offset: number): number {
  return text.slice(0, offset).split('\n').length;
}

/** The ladder of a template group document; its first error refuses it. */
export function ladderFromDocument(text: string, fileName: string): Ladder {
  const { value, problems } = validateDocument('templategroup', text);
  const error = problems.find((p) => p.severity === 'error');
  if (error || !value) {
    const line = error ? lineOf(text, error.range.offset) : 1;
    throw new LadderInputError(
      l10n.t('{0}, line {1}: {2}', fileName, line, error?.message ?? l10n.t('not a template group document')),
    );
  }
  const group = value as { name: string; transcodeTemplates: ItemLike[] };
  return { name: group.name, rungs: rungsOf(group.transcodeTemplates) };
}

/** The ladder of a group the platform lists (its items must be listed: facts section 4 makes them optional). */
export function ladderFromRecord(group: TemplateGroupSummary): Ladder {
  const items: readonly TemplateGroupListedItem[] = group.transcodeTemplates ?? [];
  if (items.length === 0) {
    throw new LadderInputError(
      l10n.t('The platform did not list the templates of "{0}" (transcodeTemplates).', group.name),
    );
  }
  return { name: group.name, rungs: rungsOf(items), groupId: group.id };
}
