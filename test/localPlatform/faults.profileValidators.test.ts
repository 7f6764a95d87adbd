/**
 * Fault profiles are checked with validators compiled at build time (issue 29: the local platform carries no ajv):
 * for every fault, rules with an unknown option, bad selectors, bad options and several at once get the same first
 * error (field, rule, words) as the one schema per fault that ajv compiled at run time before.
 */
import * as assert from 'node:assert/strict';
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import { checkProfile, FAULT_NAMES, profileSchemas, ruleError } from '../../src/localPlatform/faults/profile';

type Schema = { properties: Record<string, unknown> };

/** The schema of a fault as it was compiled before: the selectors and its options, nothing else. */
function oneSchemaPerFault(): Map<string, ValidateFunction> {
  const schemas = profileSchemas() as Record<string, Schema>;
  const ajv = new Ajv({ allErrors: false, strict: true });
  const rule = ajv.compile(schemas.rule);
  const byFault = new Map<string, ValidateFunction>([['rule', rule]]);
  for (const fault of FAULT_NAMES) {
    const options = Object.entries(schemas).find(
      ([name]) => name.toLowerCase() === `options${fault.replace(/-/g, '')}`,
    )![1];
    byFault.set(
      fault,
      ajv.compile({
        type: 'object',
        properties: { ...schemas.selectors.properties, ...options.properties },
        additionalProperties: false,
      }),
    );
  }
  return byFault;
}

function before(validators: Map<string, ValidateFunction>, rule: Record<string, unknown>): ErrorObject | undefined {
  const base = validators.get('rule')!;
  if (!base(rule)) return base.errors![0];
  const valid = validators.get(rule.fault as string)!;
  return valid(rule) ? undefined : valid.errors![0];
}

/** What a refusal is made of (the schema path differs: the checks are split in three). */
function words(error: ErrorObject | undefined): unknown {
  return error && { at: error.instancePath, keyword: error.keyword, params: error.params, message: error.message };
}

const BAD_SELECTORS: Record<string, unknown[]> = {
  target: ['', 7, 'x'.repeat(201)],
  variant: ['', 3],
  bitrate: [-1, 2.5, [1], [1, 2, 3], [-1, 4], 'fast'],
  segmentIndex: [-1, [3], { every: 0 }, { every: 2, more: 1 }, {}, 'all'],
  mediaSequence: [1.5, { every: 2_000_000 }],
  probability: [-0.1, 1.5, '0.5'],
  seed: [-1, 2 ** 32, 0.5],
};
const BAD_OPTIONS: Record<string, unknown[]> = {
  ms: [-1, 1.5, 700_000, 'long'],
  code: [200, 600, '500'],
  bytesPerSecond: [1, 2_000_000_000],
  afterBytes: [-1],
  bytes: [-3, 'all'],
  value: ['', 'bad\ntype', 'x'.repeat(201)],
  by: [0, 2_000_000],
  factor: [0, 101, -1],
  seconds: [-4000, 4000],
  files: [[], ['segment', 'segment'], ['video'], 'segment'],
};

describe('local platform: fault profile validators compiled at build time', () => {
  it('refuse every bad rule with the first error one schema per fault gave, and take the good ones', () => {
    const validators = oneSchemaPerFault();
    const rules: Array<Record<string, unknown>> = [
      {},
      { target: '*' },
      { fault: 'delay' },
      { target: '*', fault: 'jitter' },
      { target: '', fault: 'jitter' },
    ];
    for (const fault of FAULT_NAMES) {
      const good = { target: '*', fault };
      rules.push(good, { ...good, speed: 3 }, { ...good, speed: 3, seed: -1 }, { ...good, files: ['master'] });
      for (const [field, values] of Object.entries({ ...BAD_SELECTORS, ...BAD_OPTIONS }))
        for (const value of values) {
          rules.push({ ...good, [field]: value });
          // Two mistakes: the one checked first is the one named.
          rules.push({ ...good, probability: 2, [field]: value }, { [field]: value, ...good, seed: -1 });
        }
    }
    let refused = 0;
    for (const rule of rules) {
      const error = ruleError(rule);
      assert.deepEqual(words(error), words(before(validators, rule)), JSON.stringify(rule));
      if (error) refused++;
    }
    assert.ok(refused > 500, `only ${refused} of ${rules.length} rules refused`);
  });

  it('name the rule, the field and the rule broken in the refusal', () => {
    assert.throws(
      () => checkProfile([{ target: '*', fault: 'throttle', bytesPerSecond: 10 }]),
      /^ProfileError: rule 0: bytesPerSecond must be >= 1000$/,
    );
    assert.throws(
      () => checkProfile([{ target: '*', fault: 'content-type', value: 'a', files: ['x'] }]),
      /^ProfileError: rule 0: files\.0 must be equal to one of the allowed values$/,
    );
  });
});
