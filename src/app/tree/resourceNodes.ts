import type { ChannelCategory, LiveLogo, LiveTemplate, LogoGroup, TemplateGroupSummary } from '../../api/types';
import { isBuiltInTemplateGroup } from '../../api/types';
import { l10n } from '../../l10n/l10n';
import { md, type NodeView } from './nodeView';
import { TreeNode } from './nodes';

/** The five lists of the Resources view, each read with the platform's list operation (facts section 4). */
export type ResourceKind = 'templateGroup' | 'logoGroup' | 'liveTemplate' | 'liveLogo' | 'channelCategory';

export const RESOURCE_KINDS: readonly ResourceKind[] = [
  'templateGroup',
  'logoGroup',
  'liveTemplate',
  'liveLogo',
  'channelCategory',
];

/** A resource with its record; `kind` and `record` always agree. */
export type Resource =
  | { readonly kind: 'templateGroup'; readonly record: TemplateGroupSummary }
  | { readonly kind: 'logoGroup'; readonly record: LogoGroup }
  | { readonly kind: 'liveTemplate'; readonly record: LiveTemplate }
  | { readonly kind: 'liveLogo'; readonly record: LiveLogo }
  | { readonly kind: 'channelCategory'; readonly record: ChannelCategory };

/** The section titles (plural) and the words for one record, for labels and messages. */
export function resourceWords(kind: ResourceKind): { section: string; one: string; icon: string } {
  switch (kind) {
    case 'templateGroup':
      return { section: l10n.t('Template Groups'), one: l10n.t('template group'), icon: 'layers' };
    case 'logoGroup':
      return { section: l10n.t('Logo Groups'), one: l10n.t('logo group'), icon: 'symbol-color' };
    case 'liveTemplate':
      return { section: l10n.t('Live Templates'), one: l10n.t('live template'), icon: 'symbol-ruler' };
    case 'liveLogo':
      return { section: l10n.t('Live Logos'), one: l10n.t('live logo'), icon: 'symbol-color' };
    case 'channelCategory':
      return { section: l10n.t('Channel Categories'), one: l10n.t('channel category'), icon: 'folder' };
  }
}

/** A record's name as the platform lists it (live templates: their display name). */
export function resourceName(resource: Resource): string {
  if (resource.kind === 'liveTemplate')
    return resource.record.displayName || resource.record.name || resource.record.id;
  return resource.record.name || String(resource.record.id);
}

export function resourceId(resource: Resource): string {
  return String(resource.record.id);
}

/** A built-in template group (the platform's, in every account): it cannot be changed or deleted. */
export function isBuiltinGroup(resource: Resource): boolean {
  return resource.kind === 'templateGroup' && isBuiltInTemplateGroup(resource.record);
}

/** One section: "Template Groups" and so on; its children are that list's records. */
export class ResourceSectionNode extends TreeNode {
  readonly kind = 'resourceSection';
  constructor(
    readonly resourceKind: ResourceKind,
    private readonly count: () => number | undefined,
  ) {
    super(undefined);
  }
  view(): NodeView {
    const words = resourceWords(this.resourceKind);
    const count = this.count();
    return {
      id: `resources:${this.resourceKind}`,
      label: words.section,
      ...(count !== undefined ? { description: count.toLocaleString('en-US') } : {}),
      icon: { id: words.icon },
      // resourceSection+<kind>: the view title's and the section's inline Create match on it.
      contextValue: `resourceSection+${this.resourceKind}`,
      collapsible: 'collapsed',
    };
  }
}

function describe(resource: Resource): { description: string; tooltip: string[] } {
  switch (resource.kind) {
    case 'templateGroup': {
      const g = resource.record;
      const templates = g.transcodeTemplates?.length;
      return {
        description: [
          isBuiltInTemplateGroup(g) ? l10n.t('built-in') : '',
          g.defaultGroup ? l10n.t('default') : '',
          g.type === 1 ? 'VR' : '',
          templates === undefined ? '' : templates === 1 ? l10n.t('1 template') : l10n.t('{0} templates', templates),
        ]
          .filter(Boolean)
          .join(' · '),
        tooltip: [
          g.trailor ? l10n.t('Trial clip: {0} s', g.trailorDuration) : '',
          g.logoGroupId ? l10n.t('Logo group `{0}`', g.logoGroupId) : '',
          ...(g.transcodeTemplates ?? []).map(
            (t) => `- ${l10n.t('{0}: {1}x{2}, {3} kbps', md(t.name), t.videoWidth, t.videoHeight, t.videoBitrate)}`,
          ),
        ],
      };
    }
    case 'logoGroup':
      return {
        description: logoCount(resource.record.logos.length),
        tooltip: resource.record.logos.map((logo) => `- \`${md(logo.uri)}\` ${logo.width}x${logo.height}`),
      };
    case 'liveTemplate': {
      const t = resource.record;
      return {
        description: `${t.videoWidth}x${t.videoHeight} · ${l10n.t('{0} kbps', t.videoBitrate)}`,
        tooltip: [md(t.name)],
      };
    }
    case 'liveLogo': {
      const logo = resource.record;
      return { description: `${logo.width}x${logo.height}`, tooltip: [`\`${md(logo.uri)}\``] };
    }
    case 'channelCategory':
      return { description: '', tooltip: [] };
  }
}

/** One record of a section. */
export class ResourceNode extends TreeNode {
  readonly kind = 'resource';
  constructor(
    override readonly parent: ResourceSectionNode,
    readonly resource: Resource,
  ) {
    super(parent);
  }
  view(): NodeView {
    const { description, tooltip } = describe(this.resource);
    const words = resourceWords(this.resource.kind);
    const flags: string[] = [this.resource.kind];
    if (isBuiltinGroup(this.resource)) flags.push('builtin');
    if (this.resource.kind === 'templateGroup' && this.resource.record.defaultGroup) flags.push('default');
    return {
      id: `resource:${this.resource.kind}:${resourceId(this.resource)}`,
      label: resourceName(this.resource),
      ...(description ? { description } : {}),
      tooltip: [
        l10n.t(
          '{0} ({1} {2})',
          `**${md(resourceName(this.resource))}**`,
          words.one,
          `\`${resourceId(this.resource)}\``,
        ),
        '',
        ...tooltip.filter(Boolean),
      ].join('\n'),
      icon: { id: words.icon },
      // <kind>[+builtin][+default]: a built-in template group offers no Update or Delete (the platform refuses them).
      contextValue: flags.join('+'),
      collapsible: 'none',
    };
  }
}

/** "1 logo", "3 logos" (a group's description). */
function logoCount(count: number): string {
  return count === 1 ? l10n.t('1 logo') : l10n.t('{0} logos', count);
}
