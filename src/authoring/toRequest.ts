/**
 * A valid document as the client's request input, and which operation applies: create without
 * `id`, update with it. Arrays and objects (`transcodeTemplates`, `logos`, `advancedArguments`)
 * stay JSON values; the client turns them into the JSON text the platform wants.
 */
import type {
  AdHocTemplates,
  ChannelDefinition,
  ChannelUpdate,
  Flag,
  LiveLogoInput,
  LiveTemplateInput,
  LiveTemplateUpdate,
  LogoGroupInput,
  OutputGroupDefinition,
  SecondTranscodeJob,
  TemplateGroupInput,
} from '../api/types';
import { l10n } from '../l10n/l10n';
import { kindLabel, type DocumentKind } from './documentKind';
import { labelOf } from './jsonDocument';
import { hasErrors, type Problem } from './problems';
import { validateDocument } from './validate';

export type DocumentRequest =
  | { kind: 'channel'; operation: 'liveCreateChannel'; input: ChannelDefinition }
  | { kind: 'channel'; operation: 'liveUpdate'; input: ChannelUpdate }
  | { kind: 'templategroup'; operation: 'templateGroup'; creates: boolean; input: TemplateGroupInput }
  | { kind: 'logogroup'; operation: 'logoGroup'; creates: boolean; input: LogoGroupInput }
  | { kind: 'livetemplate'; operation: 'liveTemplateCreate'; input: LiveTemplateInput }
  | { kind: 'livetemplate'; operation: 'liveTemplateUpdate'; input: LiveTemplateUpdate }
  | { kind: 'livelogo'; operation: 'liveLogoCreate'; input: LiveLogoInput }
  | { kind: 'transcode'; operation: 'secondTranscodeV2'; input: SecondTranscodeJob };

/** Refusal of a document that breaks a rule; `problems` are the errors, located in the document. */
export class DocumentInvalidError extends Error {
  constructor(
    readonly kind: DocumentKind,
    readonly problems: Problem[],
  ) {
    const errors = problems.filter((p) => p.severity === 'error');
    const shown = errors.slice(0, 3).map((p) => p.message);
    super(
      errors.length > 3
        ? l10n.t(
            'This {0} document is not valid: {1} (and {2} more)',
            kindLabel(kind),
            shown.join(' '),
            errors.length - 3,
          )
        : l10n.t('This {0} document is not valid: {1}', kindLabel(kind), shown.join(' ')),
    );
    this.name = 'DocumentInvalidError';
  }
}

/** Whether the document creates a new object (no `id`) or changes an existing one. */
export function createsNew(request: DocumentRequest): boolean {
  switch (request.operation) {
    case 'liveCreateChannel':
    case 'liveTemplateCreate':
    case 'liveLogoCreate':
      return true;
    case 'templateGroup':
    case 'logoGroup':
      return request.creates;
    default:
      return false;
  }
}

/**
 * The request for a document value. Validates first (schema and extra rules), so a value that
 * breaks a rule is refused with the problems named, and nothing is sent.
 */
export function toRequest(kind: DocumentKind, value: unknown): DocumentRequest {
  const { problems } = validateDocument(kind, JSON.stringify(value ?? null, null, 2));
  if (hasErrors(problems)) throw new DocumentInvalidError(kind, problems);
  const doc = value as Record<string, unknown>;
  switch (kind) {
    case 'channel': {
      const definition = channelDefinition(doc);
      return typeof doc.id === 'string'
        ? { kind, operation: 'liveUpdate', input: { id: doc.id, ...definition } }
        : { kind, operation: 'liveCreateChannel', input: definition };
    }
    case 'templategroup': {
      const id = numericId(doc.id);
      const input: TemplateGroupInput = {
        ...(id !== undefined ? { id } : {}),
        name: doc.name as string,
        type: doc.type as 0 | 1,
        trailor: doc.trailor as boolean,
        trailorDuration: doc.trailorDuration as number,
        logoGroupId: doc.logoGroupId as number,
        transcodeTemplates: doc.transcodeTemplates as TemplateGroupInput['transcodeTemplates'],
      };
      return { kind, operation: 'templateGroup', creates: id === undefined, input };
    }
    case 'logogroup': {
      const id = numericId(doc.id);
      const input: LogoGroupInput = {
        ...(id !== undefined ? { id } : {}),
        name: doc.name as string,
        logos: doc.logos as LogoGroupInput['logos'],
      };
      return { kind, operation: 'logoGroup', creates: id === undefined, input };
    }
    case 'livetemplate': {
      const input = pick(doc, [
        'displayName',
        'type',
        'transcodeType',
        'videoWidth',
        'videoHeight',
        'videoBitrate',
        'audioBitrate',
        'frameRate',
        'advancedArguments',
      ]) as LiveTemplateInput;
      return typeof doc.id === 'string'
        ? { kind, operation: 'liveTemplateUpdate', input: { id: doc.id, ...input } }
        : { kind, operation: 'liveTemplateCreate', input };
    }
    case 'livelogo': {
      if (doc.id !== undefined) {
        throw new DocumentInvalidError(kind, [
          {
            severity: 'error',
            code: 'livelogo.cannotUpdate',
            range: { offset: 0, length: 0 },
            message: l10n.t(
              '{0}: this logo already exists, and live logos cannot be modified; remove "id" to create another logo.',
              labelOf(['id']),
            ),
          },
        ]);
      }
      const input = pick(doc, [
        'name',
        'uri',
        'width',
        'height',
        'offsetWidth',
        'offsetHeight',
        'opacity',
        'resize',
      ]) as unknown as LiveLogoInput;
      return { kind, operation: 'liveLogoCreate', input };
    }
    case 'transcode': {
      const input: SecondTranscodeJob = {
        videoIds: doc.videoIds as string[],
        replace: doc.replace === true || doc.replace === 1,
        ...(pick(doc, [
          'transcodeTemplateGroupId',
          'videoType',
          'trailor',
          'trailorDuration',
        ]) as Partial<SecondTranscodeJob>),
      };
      if (doc.transcodeTemplates !== undefined) input.transcodeTemplates = doc.transcodeTemplates as AdHocTemplates;
      return { kind, operation: 'secondTranscodeV2', input };
    }
  }
}

function channelDefinition(doc: Record<string, unknown>): ChannelDefinition {
  const groups = doc.outputGroupList as Array<Record<string, unknown>>;
  return {
    name: doc.name as string,
    signalType: String(doc.signalType) as '1' | '2',
    ...(pick(doc, ['pullStream', 'liveType', 'typeName', 'type', 'description']) as Partial<ChannelDefinition>),
    outputGroupList: groups.map((group): OutputGroupDefinition => {
      const definition: OutputGroupDefinition = {
        ...(pick(group, [
          'id',
          'rtmpThirdPartyOutputUrl',
          'rotation',
          'timeShiftDuration',
          'logoId',
        ]) as Partial<OutputGroupDefinition>),
        protocolType: group.protocolType as 1 | 2,
        outputTemplateList: (group.outputTemplateList as Array<Record<string, unknown>>).map((t) => ({
          templateId: t.templateId as string,
          isDefault: flag(t.isDefault) ?? '0',
        })),
      };
      for (const name of ['isRecord', 'needToMp4', 'isTimeShift', 'isLiveEncrypt'] as const) {
        const value = flag(group[name]);
        if (value !== undefined) definition[name] = value;
      }
      return definition;
    }),
  };
}

/** Flags go out as the `"0"`/`"1"` text the interface documents, whichever form the file used. */
function flag(value: unknown): Flag | undefined {
  if (value === '1' || value === 1) return '1';
  if (value === '0' || value === 0) return '0';
  return undefined;
}

function numericId(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  return typeof value === 'number' ? value : Number(value);
}

function pick(source: Record<string, unknown>, names: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of names) if (source[name] !== undefined) out[name] = source[name];
  return out;
}
