/**
 * The report for CI and scripts: which findings fail a run (`--fail-on`), SARIF 2.1.0 (code scanning: one rule per
 * finding code, its help URI the clause) and JUnit XML (one test case per check family). Pure functions of the
 * report and the registry.
 */
import type { Finding, Severity } from './findings';
import { clauseUri, registeredFamilies } from './registry';
import type { Report } from './report';
import { resolveUri } from './source';

export type FailOn = 'error' | 'warning' | 'none';
export type OutputFormat = 'text' | 'json' | 'sarif' | 'junit';

const RANK: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

/** The findings that fail a run by the rule: errors, or errors and warnings; none never fails. */
export function failing(findings: readonly Finding[], failOn: FailOn): Finding[] {
  if (failOn === 'none') return [];
  return findings.filter((f) => RANK[f.severity] <= RANK[failOn]);
}

/** Where a finding points: its segment's address, else its variant's, else the input. */
export function findingAddress(report: Report, f: Finding): string {
  const variant = report.variants.find((v) => v.name === f.variant);
  const base = variant?.address ?? report.input;
  if (f.segment !== undefined && variant && !/^\d+$/.test(f.segment)) {
    try {
      return resolveUri(f.segment, base);
    } catch {
      return base;
    }
  }
  return base;
}

const LEVEL: Record<Severity, 'error' | 'warning' | 'note'> = { error: 'error', warning: 'warning', info: 'note' };

export function toSarif(report: Report): object {
  const rules = registeredFamilies().flatMap((family) =>
    Object.entries(family.codes).map(([id, info]) => ({
      id,
      shortDescription: { text: info.meaning },
      ...(clauseUri(info.clause) ? { helpUri: clauseUri(info.clause) } : {}),
      help: { text: info.clause },
      defaultConfiguration: { level: LEVEL[info.severity] },
      properties: { family: family.name, clause: info.clause },
    })),
  );
  const index = new Map(rules.map((r, i) => [r.id, i]));
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'video-platform-inspect',
            informationUri: 'https://www.rfc-editor.org/rfc/rfc8216',
            rules,
          },
        },
        results: report.findings.map((f) => ({
          ruleId: f.code,
          ...(index.has(f.code) ? { ruleIndex: index.get(f.code) } : {}),
          level: LEVEL[f.severity],
          message: { text: f.message },
          locations: [{ physicalLocation: { artifactLocation: { uri: findingAddress(report, f) } } }],
          properties: {
            family: f.family,
            clause: f.clause,
            ...(f.variant !== undefined ? { variant: f.variant } : {}),
            ...(f.segment !== undefined ? { segment: f.segment } : {}),
          },
        })),
        properties: { sampled: report.sampled },
      },
    ],
  };
}

function xml(text: unknown): string {
  return String(text).replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!,
  );
}

/** One test suite for the input, one test case per family; findings that fail the run are its failures. */
export function toJunit(report: Report, failOn: FailOn): string {
  const failed = new Set(failing(report.findings, failOn));
  const cases = registeredFamilies().map((family) => {
    const mine = report.findings.filter((f) => f.family === family.name);
    const failures = mine.filter((f) => failed.has(f));
    const line = (f: Finding): string =>
      `${f.severity.toUpperCase()} ${f.code}${f.variant ? ` [${f.variant}${f.segment ? `, segment ${f.segment}` : ''}]` : ''}: ${f.message} (${f.clause})`;
    const body = [
      ...failures.map((f) => `<failure type="${xml(f.code)}" message="${xml(f.message)}">${xml(line(f))}</failure>`),
      ...(mine.length > failures.length
        ? [
            `<system-out>${xml(
              mine
                .filter((f) => !failed.has(f))
                .map(line)
                .join('\n'),
            )}</system-out>`,
          ]
        : []),
    ];
    return { name: family.title, failures: failures.length, body };
  });
  const failures = cases.reduce((n, c) => n + (c.failures > 0 ? 1 : 0), 0);
  const seconds = (report.sampled.elapsedMs / 1000).toFixed(3);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="inspect" tests="${cases.length}" failures="${failures}" time="${seconds}">`,
    `<testsuite name="${xml(report.input)}" tests="${cases.length}" failures="${failures}" errors="0" time="${seconds}">`,
    ...cases.map((c) => `<testcase classname="inspect" name="${xml(c.name)}">${c.body.join('')}</testcase>`),
    `<system-out>${xml(`Sampled: ${report.sampled.rule}`)}${report.sampled.notChecked ? xml(`\nNot checked: ${report.sampled.notChecked.join('; ')}`) : ''}</system-out>`,
    '</testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
