import type { DocumentKind } from '../../authoring/documentKind';
import type { AppContext, CommandArgs } from '../context';
import { step } from '../failures';
import { l10n } from '../../l10n/l10n';
import {
  RESOURCE_KINDS,
  resourceId,
  resourceName,
  resourceWords,
  ResourceNode,
  ResourceSectionNode,
  type Resource,
  type ResourceKind,
} from '../tree/resourceNodes';
import { listResources } from '../tree/resourceTree';
import type { PickItem } from '../ui';
import { answered } from '../ask/inputs';

/** The document kind of a resource (schemas/<kind>.schema.json); channel categories have none. */
export const DOCUMENT_KIND_OF: Readonly<Partial<Record<ResourceKind, DocumentKind>>> = {
  templateGroup: 'templategroup',
  logoGroup: 'logogroup',
  liveTemplate: 'livetemplate',
  liveLogo: 'livelogo',
};

function isResource(value: unknown): value is Resource {
  if (typeof value !== 'object' || value === null) return false;
  const { kind, record } = value as { kind?: unknown; record?: unknown };
  return RESOURCE_KINDS.includes(kind as ResourceKind) && typeof record === 'object' && record !== null;
}

export interface ResourceTargetOptions {
  /** Window title of the picks ("Delete"). */
  readonly title: string;
  /** The kinds the command works on, in the order the palette offers them. */
  readonly kinds: readonly ResourceKind[];
  /** Records the command cannot act on (a built-in group for Delete) are not offered. */
  readonly eligible?: (resource: Resource) => boolean;
}

/** Asks which kind when there are several (a Create from the view title or the palette). */
export async function pickResourceKind(
  ctx: AppContext,
  title: string,
  kinds: readonly ResourceKind[],
): Promise<ResourceKind | undefined> {
  if (kinds.length === 1) return kinds[0];
  return ctx.ui.pick(
    kinds.map((kind) => ({ label: resourceWords(kind).section, value: kind })),
    { title, placeHolder: l10n.t('Which kind?') },
  );
}

/**
 * The resource a command acts on: the clicked row, or from the palette (or a section row) a kind and then one of
 * its records, read with the list operation. Undefined when the user dismissed a pick.
 */
export async function resolveResource(
  ctx: AppContext,
  args: CommandArgs,
  options: ResourceTargetOptions,
): Promise<Resource | undefined> {
  const node = args.node;
  if (node instanceof ResourceNode && options.kinds.includes(node.resource.kind)) return node.resource;
  // A resource handed over by another command (Update from File offering Open as File).
  if (isResource(node) && options.kinds.includes(node.kind)) return node;
  const kinds =
    node instanceof ResourceSectionNode && options.kinds.includes(node.resourceKind)
      ? [node.resourceKind]
      : options.kinds;
  const kind = await pickResourceKind(ctx, options.title, kinds);
  if (!kind) return undefined;
  const words = resourceWords(kind);
  const records = await step(l10n.t('Read the {0}', words.section.toLowerCase()), () =>
    ctx.ui.withProgress({ title: l10n.t('Reading the {0}', words.section.toLowerCase()), cancellable: false }, () =>
      ctx.models.resources.records(kind),
    ),
  );
  const eligible = records.filter((resource) => options.eligible?.(resource) ?? true);
  if (eligible.length === 0) {
    void ctx.ui.info(l10n.t('There is no {0} to choose here.', words.one));
    return undefined;
  }
  const items: PickItem<Resource>[] = eligible.map((resource) => ({
    label: resourceName(resource),
    description: resourceId(resource),
    value: resource,
  }));
  return answered(
    await ctx.ui.pick(items, {
      title: `${options.title}: ${words.one}`,
      placeHolder: l10n.t('Choose the {0}', words.one),
      matchOnDescription: true,
    }),
  );
}

/** The resource as the platform has it now (the view may be a refresh behind); an Error when it is gone. */
export async function freshResource(ctx: AppContext, resource: Resource): Promise<Resource> {
  const words = resourceWords(resource.kind);
  const client = await ctx.connection.activeClient();
  const records = await ctx.ui.withProgress(
    { title: l10n.t('Reading {0} "{1}"', words.one, resourceName(resource)), cancellable: true },
    () => listResources(client, resource.kind),
  );
  const found = records.find((candidate) => resourceId(candidate) === resourceId(resource));
  if (!found) {
    ctx.models.resources.refresh(resource.kind);
    throw new Error(
      l10n.t('{0} "{1}" ({2}) is no longer on the platform', words.one, resourceName(resource), resourceId(resource)),
    );
  }
  return found;
}
