import { explainCode, KNOWN_CODES } from '../api/errorCodes';
import { l10n } from '../l10n/l10n';

/**
 * The explanation of a platform result code in the display language: the table's English sentences
 * (src/api/errorCodes.ts) are keys of l10n/bundle.l10n.<lang>.json like any other message. An explanation
 * that is not the table's (given by the caller) is shown as it is.
 */
export function translatedExplanation(refusal: { readonly code: number; readonly explanation: string }): string {
  const english = KNOWN_CODES.find((entry) => entry.code === refusal.code)?.explanation;
  if (english !== undefined) return english === refusal.explanation ? l10n.t(english) : refusal.explanation;
  return refusal.explanation === explainCode(refusal.code)
    ? l10n.t('The platform answered with code {0}, which is not documented.', refusal.code)
    : refusal.explanation;
}
