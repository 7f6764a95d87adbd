/** On-demand transcoding: template groups and second transcodes (interface section 4.3, facts section 4). */
import { defineOperations, operation } from '../contract';
import { isRecord } from '../envelope';
import { TransportError } from '../errors';
import { jsonText } from '../params';
import type { SecondTranscodeJob, SecondTranscodeResult, TemplateGroupInput, TemplateGroupSummary } from '../types';
import { GROUP_ID } from './liveResources';
import { list } from './readers';

/** A trailer's length, in seconds (a day at the most). */
const TRAILOR_DURATION = { kind: 'int', min: 0, max: 86_400 } as const;
/** Most videos one second transcode names. */
export const MAX_TRANSCODE_VIDEOS = 100;

export const TranscodingOperations = defineOperations({
  /** Creates (no `id`) or modifies a transcoding template group; answers the group id. */
  templateGroup: operation<TemplateGroupInput, number>()({
    method: 'POST',
    input: { field: 'input' },
    params: {
      transcodeTemplates: { kind: 'json', required: true, client: 'array', items: 'template items' },
      id: GROUP_ID,
      name: { kind: 'text', required: true, maxLength: 100 },
      type: { kind: 'int', required: true, oneOf: [0, 1] },
      trailor: { kind: 'bool', required: true },
      trailorDuration: { ...TRAILOR_DURATION, required: true },
      logoGroupId: { kind: 'int', required: true, min: 0 },
    },
    // Each item's advancedArguments travels as JSON text inside the JSON text (interface section 4.3).
    // Items that are not objects travel as they are: judging them is the platform's job.
    shape: (input) => ({
      ...input,
      transcodeTemplates: Array.isArray(input.transcodeTemplates)
        ? input.transcodeTemplates.map((item, index) =>
            !isRecord(item) || item.advancedArguments === undefined || typeof item.advancedArguments === 'string'
              ? item
              : {
                  ...item,
                  advancedArguments: jsonText(`transcodeTemplates[${index}].advancedArguments`, item.advancedArguments),
                },
          )
        : input.transcodeTemplates,
    }),
    read: (envelope, context) => {
      const { result } = envelope;
      const groupId = typeof result === 'string' && /^\d+$/.test(result) ? Number(result) : result;
      if (typeof groupId !== 'number' || !Number.isInteger(groupId)) {
        throw new TransportError(
          'bad-envelope',
          `${context.action}: ${context.url} answered with a "result" that is not the group id${context.note}`,
          context.action,
          context.url,
        );
      }
      return groupId;
    },
  }),
  templateGroupList: operation<{ type?: 0 | 1 }, TemplateGroupSummary[]>()({
    method: 'GET',
    input: { field: 'query', optional: true },
    params: { type: { kind: 'int', oneOf: [0, 1] } },
    read: list<TemplateGroupSummary>(),
  }),
  /** Deletes transcoding template groups by id. */
  deleteTemplateGroup: operation<{ ids: string[] }>()({
    method: 'POST',
    input: { field: 'input' },
    params: { ids: { kind: 'ids', required: true } },
  }),
  /**
   * Starts a second transcoding. Per-video outcomes (code 0 or an error code) are returned, not
   * thrown; only a failure of the whole call (a top-level code such as Codes.exception, transport) throws.
   */
  secondTranscodeV2: operation<SecondTranscodeJob, SecondTranscodeResult[]>()({
    method: 'POST',
    input: { field: 'job' },
    params: {
      videoIds: { kind: 'ids', required: true, maxItems: MAX_TRANSCODE_VIDEOS },
      transcodeTemplates: { kind: 'json' },
      transcodeTemplateGroupId: GROUP_ID,
      videoType: { kind: 'int', oneOf: [0, 1] },
      trailor: { kind: 'bool' },
      trailorDuration: TRAILOR_DURATION,
      replace: { kind: 'bool', required: true, client: 'boolean', rule: 'must be true (replace) or false (save as)' },
    },
    read: list<SecondTranscodeResult>(),
  }),
});
