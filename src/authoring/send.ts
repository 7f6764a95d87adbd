/**
 * Sends a document's request with the platform client and says what happened in words a user
 * reads: what was created or updated (and the id to write back), or each video's outcome of a
 * transcode job. No editor code here, so the command and the tests run the very same path.
 */
import type { PlatformClient } from '../api/client';
import { explainCode, knownCode } from '../api/errorCodes';
import type { SecondTranscodeResult } from '../api/types';
import { l10n } from '../l10n/l10n';
import { translatedExplanation } from './explanation';
import type { DocumentRequest } from './toRequest';
import { createdIdsOfChannel, pickCreatedLogoGroup, type CreatedIds } from './writeBack';

export type SendingClient = Pick<
  PlatformClient,
  | 'liveCreateChannel'
  | 'liveUpdate'
  | 'templateGroup'
  | 'logoGroup'
  | 'getLogoGroupList'
  | 'liveTemplateCreate'
  | 'liveTemplateUpdate'
  | 'liveLogoCreate'
  | 'secondTranscodeV2'
>;

export interface SendOutcome {
  /** Ids to write into the document (after a create only). */
  created?: CreatedIds;
  /** What to show in the explorer afterwards. */
  reveal?: { view: 'channel'; id: string } | { view: 'video'; id: string };
  /** One readable sentence. */
  summary: string;
  /** secondTranscodeV2 only: each video's outcome, as the platform returned it. */
  videos?: SecondTranscodeResult[];
  /** True when some part failed (a video the platform refused). */
  partial?: boolean;
}

export async function sendRequest(
  client: SendingClient,
  request: DocumentRequest,
  signal?: AbortSignal,
): Promise<SendOutcome> {
  const o = { signal };
  switch (request.operation) {
    case 'liveCreateChannel': {
      const channel = await client.liveCreateChannel(request.input, o);
      return {
        created: createdIdsOfChannel(channel),
        reveal: { view: 'channel', id: channel.id },
        summary: l10n.t('Created channel "{0}" ({1}).', channel.name, channel.id),
      };
    }
    case 'liveUpdate': {
      const channel = await client.liveUpdate(request.input, o);
      return {
        reveal: { view: 'channel', id: channel.id },
        summary: l10n.t('Updated channel "{0}" ({1}).', channel.name, channel.id),
      };
    }
    case 'templateGroup': {
      const id = await client.templateGroup(request.input, o);
      return request.creates
        ? { created: { id }, summary: l10n.t('Created template group "{0}" (id {1}).', request.input.name, id) }
        : { summary: l10n.t('Updated template group "{0}" (id {1}).', request.input.name, id) };
    }
    case 'logoGroup': {
      if (!request.creates) {
        await client.logoGroup(request.input, o);
        return { summary: l10n.t('Updated logo group "{0}" (id {1}).', request.input.name, String(request.input.id)) };
      }
      // logoGroup answers "" rather than the new id: tell the new group apart by the list before and after.
      const before = new Set((await client.getLogoGroupList(o)).map((g) => g.id));
      await client.logoGroup(request.input, o);
      const created = pickCreatedLogoGroup(await client.getLogoGroupList(o), request.input.name, before);
      return created
        ? {
            created: { id: created.id },
            summary: l10n.t('Created logo group "{0}" (id {1}).', created.name, created.id),
          }
        : {
            summary: l10n.t(
              'Created logo group "{0}"; its id could not be found in the list, so it was not written into the file.',
              request.input.name,
            ),
          };
    }
    case 'liveTemplateCreate': {
      const template = await client.liveTemplateCreate(request.input, o);
      return {
        created: { id: template.id },
        summary: l10n.t('Created live template "{0}" ({1}).', template.name, template.id),
      };
    }
    case 'liveTemplateUpdate': {
      const template = await client.liveTemplateUpdate(request.input, o);
      return { summary: l10n.t('Updated live template "{0}" ({1}).', template.name, template.id) };
    }
    case 'liveLogoCreate': {
      const logo = await client.liveLogoCreate(request.input, o);
      return { created: { id: logo.id }, summary: l10n.t('Created live logo "{0}" ({1}).', logo.name, logo.id) };
    }
    case 'secondTranscodeV2': {
      const videos = await client.secondTranscodeV2(request.input, o);
      const failed = videos.filter((v) => v.code !== 0);
      const started = videos.length - failed.length;
      const first = videos.find((v) => v.code === 0);
      const summary =
        failed.length === 0
          ? started === 1
            ? l10n.t('Transcoding started for 1 video.')
            : l10n.t('Transcoding started for {0} videos.', started)
          : l10n.t(
              'Transcoding started for {0} of {1}; refused: {2}.',
              started,
              videos.length === 1 ? l10n.t('1 video') : l10n.t('{0} videos', videos.length),
              failed.map(describeVideoOutcome).join('; '),
            );
      return {
        videos,
        partial: failed.length > 0,
        summary,
        ...(first ? { reveal: { view: 'video' as const, id: first.id } } : {}),
      };
    }
  }
}

/** `0a1b...: video_not_exists (The video does not exist in this account.)` */
export function describeVideoOutcome(outcome: SecondTranscodeResult): string {
  if (outcome.code === 0) return l10n.t('{0}: started', outcome.id);
  // The platform's message (or its code's name) as it is; the explanation in the user's language.
  const text = outcome.message || knownCode(outcome.code)?.message || l10n.t('code {0}', outcome.code);
  const explanation = translatedExplanation({ code: outcome.code, explanation: explainCode(outcome.code) });
  return `${outcome.id}: ${text} (${explanation})`;
}
