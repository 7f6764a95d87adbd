/**
 * The one table of known platform result codes: the interface's (section 7), the facts' extra
 * ones (section 3), and the local platform's own for cases the real service leaves undocumented
 * (the 109xx range, chosen so they never collide with a real code).
 */
export interface KnownCode {
  readonly code: number;
  /** The short `message` text the platform sends. */
  readonly message: string;
  /** What it means for the user, in plain words. */
  readonly explanation: string;
}

/** Every code once, by the name callers use (`Codes.channelNotExists`), with its wire message and meaning. */
const CODE_TABLE = {
  success: { code: 0, message: 'success', explanation: 'The operation succeeded.' },
  exception: {
    code: 10000,
    message: 'exception',
    explanation: 'The platform failed while handling the request (generic failure).',
  },
  getAccessTokenFailed: {
    code: 10001,
    message: 'get_access_token_failed',
    explanation: 'The platform could not authenticate the account: check the access key and secret key.',
  },
  accountNotExists: {
    code: 10003,
    message: 'account_not_exists',
    explanation: 'The account does not exist on the platform.',
  },
  videoNotExists: {
    code: 10012,
    message: 'video_not_exists',
    explanation: 'The video does not exist in this account.',
  },
  sortTypeIncorrect: {
    code: 10013,
    message: 'sort_type_is_incorrect',
    explanation: 'The sort key is not one the operation accepts.',
  },
  noVideoExists: { code: 10017, message: 'video_not_exists', explanation: 'None of the given videos exists.' },
  searchTypeIncorrect: {
    code: 10018,
    message: 'search_type_is_incorrect',
    explanation: 'The search type is not one the operation accepts.',
  },
  noUserTranscodeTemplate: {
    code: 10024,
    message: 'no_user_transcode_template',
    explanation: 'The account has no transcoding template to use (no default template group).',
  },
  createTranscodeTaskFailed: {
    code: 10025,
    message: 'create_transcode_task_failed',
    explanation: 'The platform could not create the transcoding task.',
  },
  videoCategoryExists: {
    code: 10029,
    message: 'video_category_already_exists',
    explanation: 'A category with this name already exists.',
  },
  noCdn: {
    code: 10030,
    message: 'no_cdn',
    explanation: 'No CDN is configured for the account, so there are no playback addresses.',
  },
  transcodeRunning: {
    code: 10033,
    message: 'transcode_running',
    explanation: 'The video is already being transcoded; wait for it to finish.',
  },
  addVideoFailed: {
    code: 10043,
    message: 'add_video_failed',
    explanation: 'The platform could not add the new video item (save as).',
  },
  subCannotModifyTranscodeTemplate: {
    code: 10050,
    message: 'sub_can_not_modify_transcode_template',
    explanation: 'A sub-account cannot modify transcoding templates.',
  },
  transcodeTemplateNotCorrect: {
    code: 10061,
    message: 'transcode_template_is_not_correct',
    explanation: 'The transcoding templates are not valid.',
  },
  videoInWaitingList: {
    code: 10067,
    message: 'video_is_in_transcode_waitting_list',
    explanation: 'The video is already queued for transcoding.',
  },
  templateGroupNotExist: {
    code: 10081,
    message: 'transcode_template_group_not_exist',
    explanation: 'The transcoding template group does not exist.',
  },
  cannotModifyTemplateGroup: {
    code: 10082,
    message: 'can_not_modify_this_template_group',
    explanation: 'This template group cannot be modified (built-in group).',
  },
  addVideoCategoryFailed: {
    code: 10083,
    message: 'add_video_category_failed',
    explanation: 'The platform could not add the category.',
  },
  cannotModifyDefaultGroupType: {
    code: 10095,
    message: 'can_not_modify_default_template_group_type',
    explanation: 'The type of the default template group cannot be changed.',
  },
  apiNotExists: {
    code: 10201,
    message: 'api_not_exists',
    explanation: 'The platform has no such operation (unknown action).',
  },
  parameterMissing: { code: 10901, message: 'parameter_missing', explanation: 'A required parameter is missing.' },
  parameterInvalid: {
    code: 10902,
    message: 'parameter_invalid',
    explanation: 'A parameter breaks a rule of the interface (type, enumeration or range).',
  },
  signatureIncorrect: {
    code: 10903,
    message: 'signature_is_incorrect',
    explanation: 'The request signature does not match: check the secret key.',
  },
  timestampExpired: {
    code: 10904,
    message: 'timestamp_expired',
    explanation: "The request timestamp is outside the allowed window: check the computer's clock.",
  },
  versionNotSupported: {
    code: 10905,
    message: 'version_not_supported',
    explanation: 'Only version 2.0 of the interface is accepted.',
  },
  accessKeyNotExists: {
    code: 10906,
    message: 'access_key_not_exists',
    explanation: 'The access key is not known to the platform.',
  },
  channelNotExists: {
    code: 10907,
    message: 'channel_not_exists',
    explanation: 'The channel does not exist in this account.',
  },
  channelStateConflict: {
    code: 10908,
    message: 'channel_state_conflict',
    explanation: 'The channel is not in a state that allows this (already live, or already stopped).',
  },
  liveTemplateNotExists: {
    code: 10909,
    message: 'live_template_not_exists',
    explanation: 'A referenced live template does not exist in this account.',
  },
  liveLogoNotExists: {
    code: 10910,
    message: 'live_logo_not_exists',
    explanation: 'A referenced live logo does not exist in this account.',
  },
  channelCategoryNotExists: {
    code: 10911,
    message: 'channel_category_not_exists',
    explanation: 'The referenced channel category does not exist in this account.',
  },
  logoGroupNotExists: {
    code: 10912,
    message: 'logo_group_not_exists',
    explanation: 'The referenced logo group does not exist in this account.',
  },
  bodyTooLarge: {
    code: 10913,
    message: 'request_body_too_large',
    explanation: 'The request body is larger than the platform accepts.',
  },
  bodyMalformed: {
    code: 10914,
    message: 'request_body_malformed',
    explanation: 'The request body is not valid JSON or form data.',
  },
  channelCategoryExists: {
    code: 10915,
    message: 'channel_category_already_exists',
    explanation: 'A channel category with this name already exists.',
  },
  storageUnavailable: {
    code: 10916,
    message: 'storage_unavailable',
    explanation:
      'The local platform could not save the change: its data folder is full, read-only or not writable. Nothing was changed; reads still work.',
  },
  requestReplayed: {
    code: 10917,
    message: 'request_replayed',
    explanation: 'This exact signed request was already received once: a repeated request is refused (replay guard).',
  },
  requestNotAllowed: {
    code: 10918,
    message: 'request_not_allowed',
    explanation:
      'The request came through a host name or from a web page the local platform does not accept (protection against web pages reaching it).',
  },
} as const satisfies Record<string, KnownCode>;

type CodeName = keyof typeof CODE_TABLE;

/** Named codes, so callers never write bare numbers (read from the one table above). */
export const Codes = Object.fromEntries(Object.entries(CODE_TABLE).map(([name, entry]) => [name, entry.code])) as {
  readonly [Name in CodeName]: (typeof CODE_TABLE)[Name]['code'];
};

/** The table as a list, in code order. */
export const KNOWN_CODES: readonly KnownCode[] = Object.values(CODE_TABLE);

const byCode = new Map<number, KnownCode>(KNOWN_CODES.map((entry) => [entry.code, entry]));

/** The table entry for a code, if the code is known. */
export function knownCode(code: number): KnownCode | undefined {
  return byCode.get(code);
}

/** A readable explanation for any code, known or not. */
export function explainCode(code: number): string {
  return byCode.get(code)?.explanation ?? `The platform answered with code ${code}, which is not documented.`;
}
