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

export const KNOWN_CODES: readonly KnownCode[] = [
  { code: 0, message: 'success', explanation: 'The operation succeeded.' },
  {
    code: 10000,
    message: 'exception',
    explanation: 'The platform failed while handling the request (generic failure).',
  },
  {
    code: 10001,
    message: 'get_access_token_failed',
    explanation: 'The platform could not authenticate the account: check the access key and secret key.',
  },
  { code: 10003, message: 'account_not_exists', explanation: 'The account does not exist on the platform.' },
  { code: 10012, message: 'video_not_exists', explanation: 'The video does not exist in this account.' },
  { code: 10013, message: 'sort_type_is_incorrect', explanation: 'The sort key is not one the operation accepts.' },
  { code: 10017, message: 'video_not_exists', explanation: 'None of the given videos exists.' },
  {
    code: 10018,
    message: 'search_type_is_incorrect',
    explanation: 'The search type is not one the operation accepts.',
  },
  {
    code: 10024,
    message: 'no_user_transcode_template',
    explanation: 'The account has no transcoding template to use (no default template group).',
  },
  {
    code: 10025,
    message: 'create_transcode_task_failed',
    explanation: 'The platform could not create the transcoding task.',
  },
  { code: 10029, message: 'video_category_already_exists', explanation: 'A category with this name already exists.' },
  {
    code: 10030,
    message: 'no_cdn',
    explanation: 'No CDN is configured for the account, so there are no playback addresses.',
  },
  {
    code: 10033,
    message: 'transcode_running',
    explanation: 'The video is already being transcoded; wait for it to finish.',
  },
  { code: 10043, message: 'add_video_failed', explanation: 'The platform could not add the new video item (save as).' },
  {
    code: 10050,
    message: 'sub_can_not_modify_transcode_template',
    explanation: 'A sub-account cannot modify transcoding templates.',
  },
  {
    code: 10061,
    message: 'transcode_template_is_not_correct',
    explanation: 'The transcoding templates are not valid.',
  },
  {
    code: 10067,
    message: 'video_is_in_transcode_waitting_list',
    explanation: 'The video is already queued for transcoding.',
  },
  {
    code: 10081,
    message: 'transcode_template_group_not_exist',
    explanation: 'The transcoding template group does not exist.',
  },
  {
    code: 10082,
    message: 'can_not_modify_this_template_group',
    explanation: 'This template group cannot be modified (built-in group).',
  },
  { code: 10083, message: 'add_video_category_failed', explanation: 'The platform could not add the category.' },
  {
    code: 10095,
    message: 'can_not_modify_default_template_group_type',
    explanation: 'The type of the default template group cannot be changed.',
  },
  { code: 10201, message: 'api_not_exists', explanation: 'The platform has no such operation (unknown action).' },
  // Local platform codes for what the real service leaves undocumented.
  { code: 10901, message: 'parameter_missing', explanation: 'A required parameter is missing.' },
  {
    code: 10902,
    message: 'parameter_invalid',
    explanation: 'A parameter breaks a rule of the interface (type, enumeration or range).',
  },
  {
    code: 10903,
    message: 'signature_is_incorrect',
    explanation: 'The request signature does not match: check the secret key.',
  },
  {
    code: 10904,
    message: 'timestamp_expired',
    explanation: "The request timestamp is outside the allowed window: check the computer's clock.",
  },
  { code: 10905, message: 'version_not_supported', explanation: 'Only version 2.0 of the interface is accepted.' },
  { code: 10906, message: 'access_key_not_exists', explanation: 'The access key is not known to the platform.' },
  { code: 10907, message: 'channel_not_exists', explanation: 'The channel does not exist in this account.' },
  {
    code: 10908,
    message: 'channel_state_conflict',
    explanation: 'The channel is not in a state that allows this (already live, or already stopped).',
  },
  {
    code: 10909,
    message: 'live_template_not_exists',
    explanation: 'A referenced live template does not exist in this account.',
  },
  {
    code: 10910,
    message: 'live_logo_not_exists',
    explanation: 'A referenced live logo does not exist in this account.',
  },
  {
    code: 10911,
    message: 'channel_category_not_exists',
    explanation: 'The referenced channel category does not exist in this account.',
  },
  {
    code: 10912,
    message: 'logo_group_not_exists',
    explanation: 'The referenced logo group does not exist in this account.',
  },
  {
    code: 10913,
    message: 'request_body_too_large',
    explanation: 'The request body is larger than the platform accepts.',
  },
  { code: 10914, message: 'request_body_malformed', explanation: 'The request body is not valid JSON or form data.' },
  {
    code: 10915,
    message: 'channel_category_already_exists',
    explanation: 'A channel category with this name already exists.',
  },
  {
    code: 10916,
    message: 'storage_unavailable',
    explanation:
      'The local platform could not save the change: its data folder is full, read-only or not writable. Nothing was changed; reads still work.',
  },
  {
    code: 10917,
    message: 'request_replayed',
    explanation: 'This exact signed request was already received once: a repeated request is refused (replay guard).',
  },
  {
    code: 10918,
    message: 'request_not_allowed',
    explanation:
      'The request came through a host name or from a web page the local platform does not accept (protection against web pages reaching it).',
  },
];

const byCode = new Map<number, KnownCode>(KNOWN_CODES.map((entry) => [entry.code, entry]));

/** The table entry for a code, if the code is known. */
export function knownCode(code: number): KnownCode | undefined {
  return byCode.get(code);
}

/** A readable explanation for any code, known or not. */
export function explainCode(code: number): string {
  return byCode.get(code)?.explanation ?? `The platform answered with code ${code}, which is not documented.`;
}

/** Named codes, so callers never write bare numbers. */
export const Codes = {
  success: 0,
  exception: 10000,
  getAccessTokenFailed: 10001,
  accountNotExists: 10003,
  videoNotExists: 10012,
  sortTypeIncorrect: 10013,
  noVideoExists: 10017,
  searchTypeIncorrect: 10018,
  noUserTranscodeTemplate: 10024,
  createTranscodeTaskFailed: 10025,
  videoCategoryExists: 10029,
  noCdn: 10030,
  transcodeRunning: 10033,
  addVideoFailed: 10043,
  subCannotModifyTranscodeTemplate: 10050,
  transcodeTemplateNotCorrect: 10061,
  videoInWaitingList: 10067,
  templateGroupNotExist: 10081,
  cannotModifyTemplateGroup: 10082,
  addVideoCategoryFailed: 10083,
  cannotModifyDefaultGroupType: 10095,
  apiNotExists: 10201,
  parameterMissing: 10901,
  parameterInvalid: 10902,
  signatureIncorrect: 10903,
  timestampExpired: 10904,
  versionNotSupported: 10905,
  accessKeyNotExists: 10906,
  channelNotExists: 10907,
  channelStateConflict: 10908,
  liveTemplateNotExists: 10909,
  liveLogoNotExists: 10910,
  channelCategoryNotExists: 10911,
  logoGroupNotExists: 10912,
  bodyTooLarge: 10913,
  bodyMalformed: 10914,
  channelCategoryExists: 10915,
  storageUnavailable: 10916,
  requestReplayed: 10917,
  requestNotAllowed: 10918,
} as const;
