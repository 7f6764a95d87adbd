import type { DocumentKind } from '../../authoring/documentKind';
import { documentText } from '../../authoring/resourceDocuments';
import type { AppContext, CommandArgs } from '../context';
import { l10n } from '../../l10n/l10n';
import {
  RESOURCE_KINDS,
  ResourceNode,
  ResourceSectionNode,
  resourceWords,
  type ResourceKind,
} from '../tree/resourceNodes';
import { createCategory } from './createCategory';
import { createChannel } from './createChannel';
import { DOCUMENT_KIND_OF } from './resourceTargets';

/** What a new document starts from: every required field, values the platform accepts (the user edits them). */
const STARTERS: Readonly<Record<Exclude<DocumentKind, 'channel' | 'transcode'>, Record<string, unknown>>> = {
  templategroup: {
    name: 'New template group',
    type: 0,
    trailor: false,
    trailorDuration: 0,
    logoGroupId: 0,
    transcodeTemplates: [
      {
        name: '720p',
        videoWidth: 1280,
        videoHeight: 720,
        videoBitrate: 2500,
        audioBitrate: 128000,
        format: 0,
        encryptType: 0,
        defaultVideo: 1,
      },
    ],
  },
  logogroup: {
    name: 'New logo group',
    logos: [
      {
        uri: 'logos/logo.png',
        width: 200,
        height: 80,
        leftPos: 85,
        topPos: 5,
        opacity: 100,
        resize: 100,
        start: 0,
        end: 100,
      },
    ],
  },
  livetemplate: {
    displayName: 'New live template',
    type: 1,
    transcodeType: 0,
    videoWidth: 1280,
    videoHeight: 720,
    videoBitrate: 2000,
    audioBitrate: 128,
    frameRate: 25,
  },
  livelogo: {
    name: 'New live logo',
    uri: 'logos/logo.png',
    width: 200,
    height: 80,
    offsetWidth: 20,
    offsetHeight: 20,
    opacity: 100,
    resize: 100,
  },
};

/** From the palette or the view title: a channel (the Create Channel wizard) or one of the Resources view's kinds. */
function pickKind(ctx: AppContext): Promise<ResourceKind | 'channel' | undefined> {
  return ctx.ui.pick<ResourceKind | 'channel'>(
    [
      { label: l10n.t('Channel'), description: l10n.t('the Create Channel wizard'), value: 'channel' },
      ...RESOURCE_KINDS.map((kind) => ({ label: resourceWords(kind).section, value: kind })),
    ],
    { title: l10n.t('Create'), placeHolder: l10n.t('Which kind?') },
  );
}

/**
 * videoPlatform.createResource: from a section (its kind) or the view title and palette (a kind picked). A channel
 * category is created at once (its name asked); the other kinds open a new document of their kind, checked by its
 * schema, which "Create or Update on the Platform" sends. A channel (picked, not a section of the view) runs the Create
 * Channel wizard.
 */
export async function createResource(ctx: AppContext, args: CommandArgs = {}): Promise<string | undefined> {
  const node = args.node;
  const kind: ResourceKind | 'channel' | undefined =
    node instanceof ResourceSectionNode
      ? node.resourceKind
      : node instanceof ResourceNode
        ? node.resource.kind
        : await pickKind(ctx);
  if (!kind) return undefined;
  if (kind === 'channel') return (await createChannel(ctx))?.id;
  if (kind === 'channelCategory') {
    return (await createCategory(ctx))?.id;
  }
  const documentKind = DOCUMENT_KIND_OF[kind] as keyof typeof STARTERS;
  const text = documentText(STARTERS[documentKind]);
  await ctx.editor.openUntitled(`new.${documentKind}.json`, text);
  void ctx.ui.info(
    l10n.t('Fill in the new file, then run "Create or Update on the Platform" (in the editor title) to create it.'),
  );
  return text;
}
