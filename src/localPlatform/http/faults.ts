import { Codes, knownCode } from '../../api/errorCodes';

/**
 * A refusal the platform answers with an error envelope (HTTP 200, `success: false`).
 * `detail` names the field and the rule; the envelope message is `<code message>: <detail>`.
 */
/** Marks a fault whichever copy of this module made it (a loader may load a module twice, e.g. tsx's tsImport). */
const FAULT_BRAND = Symbol.for('videoPlatform.localPlatform.PlatformFault');

export class PlatformFault extends Error {
  readonly [FAULT_BRAND] = true;

  /** A refusal thrown by another copy of this module is still a refusal, not an internal error. */
  static override [Symbol.hasInstance](value: unknown): boolean {
    if (Function.prototype[Symbol.hasInstance].call(this, value)) return true;
    return this === PlatformFault && typeof value === 'object' && value !== null && FAULT_BRAND in value;
  }

  constructor(
    readonly code: number,
    readonly detail?: string,
  ) {
    const base = knownCode(code)?.message ?? 'exception';
    super(detail ? `${base}: ${detail}` : base);
    this.name = 'PlatformFault';
  }
}

export function missing(field: string, code: number = Codes.parameterMissing): PlatformFault {
  return new PlatformFault(code, `${field} is required`);
}

export function invalid(field: string, rule: string, code: number = Codes.parameterInvalid): PlatformFault {
  return new PlatformFault(code, `${field} ${rule}`);
}

/**
 * Failures injected by tests, so the handling of rare system errors (a full disk) is tested on
 * every run. Never set outside tests.
 */
export const injectedFaults: {
  /** Called before each journal write of the account folder `dir`; an error returned makes it fail. */
  journalWrite?: (dir: string) => NodeJS.ErrnoException | undefined;
} = {};
