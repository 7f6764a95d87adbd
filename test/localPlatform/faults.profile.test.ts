/**
 * Fault profiles refused clearly (the rule's index, the field and the rule broken), and nothing changed then; the
 * admin route `/_local/faults` signed like `/rest`; `--faults FILE` checked at start and read again when it changes.
 */
import * as assert from 'node:assert/strict';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from '../../src/localPlatform/cliArgs';
import { DEMO_NAMES } from '../../src/localPlatform/demo/demo';
import { startLocalPlatform } from '../../src/localPlatform/server';
import { eventually } from '../helpers/eventually';
import { faultsAdmin } from './faultsHelpers';
import { ACCOUNT, removeDir, tempDir, TestPlatform } from './harness';

const PATTERN = DEMO_NAMES.channels.pattern;

describe('local platform: stream fault profiles', function () {
  this.timeout(60_000);
  let p: TestPlatform;

  before(async () => {
    p = await TestPlatform.start({ demo: true });
  });
  after(async () => {
    await p?.close();
  });

  const add = (profile: unknown) =>
    faultsAdmin(p.platform.baseUrl, 'add', {
      profile: typeof profile === 'string' ? profile : JSON.stringify(profile),
    });
  const injected = async () =>
    ((await faultsAdmin(p.platform.baseUrl, 'list')).json.result as { injected: unknown[] }).injected;

  const refusals: [string, unknown, RegExp][] = [
    ['not JSON', '[{', /profile is not JSON/],
    ['not an array', { target: '*', fault: 'delay' }, /must be a JSON array of rules/],
    ['an unknown fault', [{ target: '*', fault: 'jitter' }], /rule 0: fault "jitter" is not a fault \(one of delay, /],
    [
      'an unknown option (the rule after a good one)',
      [
        { target: '*', fault: 'delay', ms: 100 },
        { target: '*', fault: 'delay', speed: 3 },
      ],
      /rule 1: "speed" is not an option of fault delay \(its options: files, ms/,
    ],
    ['no target', [{ fault: 'delay' }], /rule 0: target is required/],
    [
      'a target naming nothing of the account',
      [{ target: 'No such channel', fault: 'no-cors' }],
      /rule 0: target "No such channel" names no channel or video of the account/,
    ],
    ['an option out of its range', [{ target: '*', fault: 'status', code: 200 }], /rule 0: code must be >= 400/],
    [
      'a segment fault without its segments',
      [{ target: '*', fault: 'segment-drop' }],
      /rule 0: fault segment-drop needs segmentIndex or mediaSequence/,
    ],
    [
      'a range the wrong way round',
      [{ target: '*', fault: 'segment-drop', segmentIndex: [5, 2] }],
      /rule 0: segmentIndex \[from, to\] needs from <= to/,
    ],
  ];
  for (const [what, profile, message] of refusals) {
    it(`refuses ${what}, naming the rule and field, and changes nothing`, async () => {
      const answer = await add(profile);
      assert.equal(answer.json.success, false);
      assert.equal(answer.json.code, 10902);
      assert.match(answer.json.message, message);
      assert.deepEqual(await injected(), []);
    });
  }

  it('takes a target by name, by id and *', async () => {
    const [pattern] = (await p.client().liveGetChannelsByPage({ number: 50, searchType: 'name', keyword: PATTERN }))
      .channels;
    const answer = await add([
      { target: PATTERN, fault: 'playlist-stall' },
      { target: pattern.id, fault: 'delay', ms: 10, probability: 0.5, seed: 3 },
      { target: '*', fault: 'segment-drop', mediaSequence: { every: 5 } },
    ]);
    assert.equal(answer.json.success, true, answer.json.message);
    assert.equal((await injected()).length, 3);
    await faultsAdmin(p.platform.baseUrl, 'clear');
    assert.deepEqual(await injected(), []);
  });

  it('is signed like /rest: an unsigned or wrongly signed request is refused', async () => {
    const unsigned = await new Promise<number>((resolve, reject) => {
      fetch(`${p.platform.baseUrl}/_local/faults?action=list`)
        .then(async (res) => resolve(((await res.json()) as { code: number }).code))
        .catch(reject);
    });
    assert.equal(unsigned, 10901);
    const wrong = await faultsAdmin(p.platform.baseUrl, 'list', {}, { ...ACCOUNT, secretKey: 'not-the-secret' });
    assert.equal(wrong.json.code, 10903);
    const unknown = await faultsAdmin(p.platform.baseUrl, 'remove');
    assert.match(unknown.json.message, /action must be list, add or clear/);
  });

  it('--faults FILE: parsed, refused at start when bad, read again when it changes, off when removed', async () => {
    const options = parseArgs(['--data', '/tmp/x', '--account', 'k:s', '--faults', 'profile.json'], {});
    assert.equal(options.faultsFile, 'profile.json');
    assert.throws(
      () => parseArgs(['--data', '/tmp/x', '--account', 'k:s', '--faults', ''], {}),
      /--faults needs a file/,
    );
    const dir = await tempDir();
    const file = join(dir, 'faults.json');
    try {
      await writeFile(file, JSON.stringify([{ target: PATTERN, fault: 'no-such-fault' }]));
      const base = { dataDir: join(dir, 'data'), accounts: [ACCOUNT], demo: true, faultsFile: file };
      await assert.rejects(
        startLocalPlatform(base),
        /--faults .*faults\.json: rule 0: fault "no-such-fault" is not a fault/,
      );
      await writeFile(file, JSON.stringify([{ target: PATTERN, fault: 'playlist-stall' }]));
      const platform = await startLocalPlatform(base);
      try {
        const fileRules = async () =>
          ((await faultsAdmin(platform.baseUrl, 'list')).json.result as { file: { fault: string }[] }).file;
        assert.deepEqual(
          (await fileRules()).map((r) => r.fault),
          ['playlist-stall'],
        );
        await writeFile(
          file,
          JSON.stringify([
            { target: '*', fault: 'no-cors' },
            { target: '*', fault: 'delay' },
          ]),
        );
        await eventually('the changed file is read again', async () => (await fileRules()).length === 2, 10_000);
        // A bad edit keeps the rules in force (and says why on stderr).
        await writeFile(file, '[{"target": "*", "fault": "delay", "ms": -5}]');
        await new Promise((r) => setTimeout(r, 1_000));
        assert.equal((await fileRules()).length, 2);
        await rm(file);
        await eventually('a removed file turns its faults off', async () => (await fileRules()).length === 0, 10_000);
      } finally {
        await platform.close();
      }
    } finally {
      await removeDir(dir);
    }
  });
});
