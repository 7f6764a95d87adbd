/** Live templates, station logos and logo groups (interface section 4.2, facts section 4). */
import { defineOperations, operation, type ParamSpecs } from '../contract';
import type {
  LiveLogo,
  LiveLogoInput,
  LiveTemplate,
  LiveTemplateInput,
  LiveTemplateQuery,
  LiveTemplateUpdate,
  LogoGroup,
  LogoGroupInput,
} from '../types';
import { ID_LENGTH, list, record, SEARCH_LENGTH } from './readers';

/** The live types of a channel and of a template's `transcodeType`: 0 normal, 2 VR, 3 advanced, 4 4K. */
export const LIVE_TYPES = [0, 2, 3, 4] as const;
/** Widest and tallest picture (8K). */
export const MAX_WIDTH = 7680;
export const MAX_HEIGHT = 4320;
/** A relative image path of a logo. */
export const URI_LENGTH = 1000;
/** A logo group's id: an integer; 0 means none. */
export const GROUP_ID = { kind: 'int', min: 0, max: 2_000_000_000 } as const;

/** The fields of a live template; `required` on create, all optional on update. */
function templateParams<const R extends boolean>(required: R) {
  return {
    displayName: { kind: 'text', required, maxLength: 100 },
    type: { kind: 'int', min: 0, max: 99 },
    transcodeType: { kind: 'int', oneOf: LIVE_TYPES },
    videoWidth: { kind: 'int', required, min: 16, max: MAX_WIDTH },
    videoHeight: { kind: 'int', required, min: 16, max: MAX_HEIGHT },
    videoBitrate: { kind: 'int', required, min: 1, max: 100_000 },
    audioBitrate: { kind: 'int', min: 0, max: 1024 },
    frameRate: { kind: 'int', min: 1, max: 120 },
    advancedArguments: { kind: 'json' },
  } as const satisfies ParamSpecs;
}

export const LiveResourceOperations = defineOperations({
  liveGetTemplates: operation<LiveTemplateQuery, LiveTemplate[]>()({
    method: 'GET',
    input: { field: 'query', optional: true },
    params: {
      name: { kind: 'text', maxLength: SEARCH_LENGTH },
      type: { kind: 'int' },
      transcodeType: { kind: 'int' },
    },
    read: list<LiveTemplate>(),
  }),
  liveTemplateCreate: operation<LiveTemplateInput, LiveTemplate>()({
    method: 'POST',
    input: { field: 'input' },
    params: templateParams(true),
    read: record<LiveTemplate>(),
  }),
  liveTemplateUpdate: operation<LiveTemplateUpdate, LiveTemplate>()({
    method: 'POST',
    input: { field: 'input' },
    params: { id: { kind: 'id', required: true, maxLength: ID_LENGTH, client: 'present' }, ...templateParams(false) },
    read: record<LiveTemplate>(),
  }),
  liveLogoCreate: operation<LiveLogoInput, LiveLogo>()({
    method: 'POST',
    input: { field: 'input' },
    params: {
      name: { kind: 'text', required: true, maxLength: 200 },
      uri: { kind: 'text', required: true, maxLength: URI_LENGTH },
      width: { kind: 'int', required: true, min: 1, max: MAX_WIDTH },
      height: { kind: 'int', required: true, min: 1, max: MAX_HEIGHT },
      offsetWidth: { kind: 'int', required: true, min: 0, max: MAX_WIDTH },
      offsetHeight: { kind: 'int', required: true, min: 0, max: MAX_HEIGHT },
      opacity: { kind: 'int', min: 0, max: 100 },
      resize: { kind: 'int', min: 1, max: 100 },
    },
    read: record<LiveLogo>(),
  }),
  liveLogoList: operation<{ name?: string; id?: string }, LiveLogo[]>()({
    method: 'GET',
    input: { field: 'query', optional: true },
    params: {
      name: { kind: 'text', maxLength: SEARCH_LENGTH },
      id: { kind: 'id', maxLength: ID_LENGTH },
    },
    read: list<LiveLogo>(),
  }),
  /** Creates (no `id`) or modifies a logo group; the platform answers `result: ""`, not the id. */
  logoGroup: operation<LogoGroupInput>()({
    method: 'POST',
    input: { field: 'input' },
    params: {
      logos: { kind: 'json', required: true, client: 'array', items: 'logo items' },
      id: GROUP_ID,
      name: { kind: 'text', required: true, maxLength: 100 },
    },
  }),
  /** Deletes logo groups by id. */
  deleteLogoGroup: operation<{ ids: string[] }>()({
    method: 'POST',
    input: { field: 'input' },
    params: { ids: { kind: 'ids', required: true } },
  }),
  getLogoGroupList: operation<Record<string, never>, LogoGroup[]>()({
    method: 'GET',
    params: {},
    read: list<LogoGroup>(),
  }),
});
