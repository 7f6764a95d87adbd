/**
 * A refusal from the platform as a problem on the document: when the platform's message starts
 * with a field path (`outputGroupList[0].logoId ...`, as the local platform words them), the
 * problem points at that value; otherwise at the start of the document.
 */
import { JsonDocument, type JsonPath } from './jsonDocument';
import type { Problem } from './problems';

export interface PlatformRefusal {
  action: string;
  code: number;
  platformMessage: string;
  explanation: string;
}

const LEADING_PATH = /^([A-Za-z_$][\w$]*(?:\[\d+\])*(?:\.[A-Za-z_$][\w$]*(?:\[\d+\])*)*)\b/;

/** `outputGroupList[0].logoId` as path segments. */
export function parseFieldPath(text: string): JsonPath {
  const path: Array<string | number> = [];
  for (const part of text.split('.')) {
    const name = /^[^[]+/.exec(part)?.[0];
    if (name) path.push(name);
    for (const index of part.matchAll(/\[(\d+)\]/g)) path.push(Number(index[1]));
  }
  return path;
}

export function platformProblem(text: string, refusal: PlatformRefusal): Problem {
  const doc = new JsonDocument(text);
  const leading = LEADING_PATH.exec(refusal.platformMessage.trim())?.[1];
  const path = leading ? parseFieldPath(leading) : undefined;
  const range =
    path && path.length > 0 && doc.node(path)
      ? doc.valueRange(path)
      : { offset: doc.root?.offset ?? 0, length: doc.root ? 1 : 0 };
  return {
    severity: 'error',
    code: `platform.${refusal.code}`,
    range,
    message: `The platform refused ${refusal.action} (code ${refusal.code}): ${refusal.platformMessage || 'no message'}. ${refusal.explanation}`,
  };
}
