/**
 * validateDocument: JSON syntax, the kind's schema (ajv, compiled once), the extra rules and, when
 * the account's lists are given, reference checks, as problems located in the text.
 */
import { getNodeValue, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { l10n } from '../l10n/l10n';
import type { DocumentKind } from './documentKind';
import { JsonDocument } from './jsonDocument';
import type { Problem, Severity } from './problems';
import { referenceProblems, type ReferenceLists } from './references';
import { channelRules } from './rules/channelRules';
import { liveLogoRules, liveTemplateRules } from './rules/liveRules';
import { logoGroupRules } from './rules/logoGroupRules';
import { ProblemSink } from './rules/ruleKit';
import { templateGroupRules } from './rules/templateGroupRules';
import { transcodeRules } from './rules/transcodeRules';
import { schemaProblems } from './schemaProblems';
import { schemaOf, validatorFor } from './schemas';
import { duplicateKeyProblems } from './duplicateKeys';

export interface ValidationResult {
  /** The parsed document, when the text is well-formed JSON (it may still break rules). */
  value?: unknown;
  problems: Problem[];
}

const RULES: Readonly<Record<DocumentKind, (sink: ProblemSink, value: unknown) => void>> = {
  channel: channelRules,
  templategroup: templateGroupRules,
  logogroup: logoGroupRules,
  transcode: transcodeRules,
  livetemplate: liveTemplateRules,
  livelogo: liveLogoRules,
};

export function validateDocument(kind: DocumentKind, text: string, references?: ReferenceLists): ValidationResult {
  const doc = new JsonDocument(text);
  if (!doc.strictValue && (doc.parseErrors.length > 0 || !doc.root)) {
    const syntax = syntaxProblems(doc);
    // A comma before a closing bracket leaves the document readable: its other problems are still
    // shown (as VS Code's own check does), but it is not taken as well-formed (no value to send).
    if (!doc.root || !syntax.every((p) => p.code === 'json.trailingComma')) return { problems: syntax };
    const { problems } = checkTree(kind, doc, references);
    return { problems: sortProblems([...syntax, ...problems]) };
  }
  return checkTree(kind, doc, references);
}

function checkTree(kind: DocumentKind, doc: JsonDocument, references: ReferenceLists | undefined): ValidationResult {
  if (!doc.strictValue && !doc.root) return { problems: [] };
  const value = valueOf(doc);

  const validate = validatorFor(kind);
  validate(value);
  const fromSchema = schemaProblems(validate.errors, doc, () => schemaOf(kind));

  const sink = new ProblemSink(doc);
  RULES[kind](sink, value);
  const fromRules = [...sink.problems, ...duplicateKeyProblems(doc)];
  const fromReferences = references ? referenceProblems(kind, doc, value, references) : [];

  // An id that is both malformed and unknown (a name typed where the id goes) is one problem: the
  // reference check's, which names the object and offers its id.
  return { value, problems: sortProblems(merge(fromSchema, [...fromRules, ...fromReferences])) };
}

/**
 * The document's value. Plain JSON (the usual case) is read by JSON.parse, many times faster than
 * rebuilding it from the tree; both keep the last of repeated keys and `__proto__` as an own data key.
 * Text only jsonc-parser accepts (comments, a trailing comma) is read from the tree.
 */
function valueOf(doc: JsonDocument): unknown {
  return doc.strictValue ? doc.strictValue.value : plain(getNodeValue(doc.root!));
}

/** jsonc-parser builds prototype-less objects; callers get ordinary ones (own `__proto__` keys stay data). */
function plain(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(plain);
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]));
  return value;
}

const RANK: Readonly<Record<Severity, number>> = { error: 3, warning: 2, info: 1 };

/** Schema problems about a value itself (not about what an object or list lacks or holds). */
const ABOUT_THE_VALUE = new Set(
  [
    'type',
    'enum',
    'const',
    'not',
    'pattern',
    'minimum',
    'maximum',
    'exclusiveMinimum',
    'exclusiveMaximum',
    'minLength',
    'maxLength',
  ].map((k) => `schema.${k}`),
);

/**
 * A rule problem on exactly the range of a schema problem about that value says the same thing
 * better (and usually brings a fix): keep the rule's words, with the more severe of the two
 * severities and the schema's fixes as well. Problems marked on an object's key or brace (a missing field, an unknown one, too few
 * items) share that short range with unrelated ones, and are always kept.
 */
function merge(fromSchema: Problem[], fromRules: Problem[]): Problem[] {
  const kept: Problem[] = [];
  const rules = fromRules.map((p) => ({ ...p }));
  for (const problem of fromSchema) {
    const same =
      problem.code !== undefined && ABOUT_THE_VALUE.has(problem.code)
        ? rules.find((r) => r.range.offset === problem.range.offset && r.range.length === problem.range.length)
        : undefined;
    if (!same) {
      kept.push(problem);
      continue;
    }
    if (RANK[problem.severity] > RANK[same.severity]) same.severity = problem.severity;
    // The schema's fixes stay on offer (each allowed value, a conversion) where the rule has none of its own.
    same.fix ??= problem.fix;
    same.alternatives ??= problem.alternatives;
  }
  return [...kept, ...rules];
}

function sortProblems(problems: Problem[]): Problem[] {
  return problems.sort((a, b) => a.range.offset - b.range.offset || RANK[b.severity] - RANK[a.severity]);
}

/** A parse error of jsonc-parser in plain words, in the user's language. */
function syntaxWords(code: string): string {
  switch (code) {
    case 'InvalidSymbol':
      return l10n.t('unexpected character');
    case 'InvalidNumberFormat':
      return l10n.t('this number is malformed');
    case 'PropertyNameExpected':
      return l10n.t('a field name in double quotes is expected here');
    case 'ValueExpected':
      return l10n.t('a value is expected here');
    case 'ColonExpected':
      return l10n.t('a colon (:) is expected after the field name');
    case 'CommaExpected':
      return l10n.t('a comma is expected between the items');
    case 'CloseBraceExpected':
      return l10n.t('a closing brace (}) is expected');
    case 'CloseBracketExpected':
      return l10n.t('a closing bracket (]) is expected');
    case 'EndOfFileExpected':
      return l10n.t('nothing may follow the end of the JSON value');
    case 'InvalidCommentToken':
      return l10n.t('malformed comment');
    case 'UnexpectedEndOfComment':
      return l10n.t('the comment is not closed');
    case 'UnexpectedEndOfString':
      return l10n.t('the text is not closed with a double quote');
    case 'UnexpectedEndOfNumber':
      return l10n.t('the number is cut short');
    case 'InvalidUnicode':
      return l10n.t('malformed \\u escape');
    case 'InvalidEscapeCharacter':
      return l10n.t('unknown escape after a backslash');
    case 'InvalidCharacter':
      return l10n.t('control characters must be escaped inside text');
    default:
      return code;
  }
}

function syntaxProblems(doc: JsonDocument): Problem[] {
  if (doc.text.trim() === '') {
    return [
      {
        severity: 'error',
        code: 'json.empty',
        range: { offset: 0, length: 0 },
        message: l10n.t('The file is empty; it should hold one JSON object { ... }.'),
      },
    ];
  }
  const problems: Problem[] = [];
  const seen = new Set<number>();
  for (const error of doc.parseErrors) {
    if (seen.has(error.offset)) continue;
    seen.add(error.offset);
    problems.push(
      trailingComma(doc, error) ?? {
        severity: 'error',
        code: 'json.syntax',
        range: { offset: error.offset, length: Math.max(error.length, 1) },
        message: l10n.t('JSON syntax: {0}.', syntaxWords(printParseErrorCode(error.error))),
      },
    );
  }
  return problems;
}

/** `[1, 2,]` / `{"a": 1,}`: JSON allows no comma before a closing bracket; offer to remove it. */
function trailingComma(doc: JsonDocument, error: ParseError): Problem | undefined {
  const code = printParseErrorCode(error.error);
  if (code !== 'PropertyNameExpected' && code !== 'ValueExpected') return undefined;
  const closer = doc.text[error.offset];
  if (closer !== '}' && closer !== ']') return undefined;
  const before = doc.text.slice(0, error.offset).replace(/(\s|\/\/[^\n]*|\/\*[\s\S]*?\*\/)*$/, '');
  if (!before.endsWith(',')) return undefined;
  const comma = before.length - 1;
  return {
    severity: 'error',
    code: 'json.trailingComma',
    range: { offset: comma, length: 1 },
    message:
      closer === '}'
        ? l10n.t('JSON syntax: no comma is allowed before the closing brace.')
        : l10n.t('JSON syntax: no comma is allowed before the closing bracket.'),
    fix: { title: l10n.t('Remove the trailing comma'), edits: [{ offset: comma, length: 1, newText: '' }] },
  };
}
