import * as assert from 'node:assert/strict';
import { Codes, KNOWN_CODES, explainCode, knownCode } from '../../src/api/errorCodes';

describe('known result codes', () => {
  // rest-interface.md section 7, then platform-facts.md section 3, as the documents spell them.
  const documented: Array<[number, string]> = [
    [0, 'success'],
    [10000, 'exception'],
    [10003, 'account_not_exists'],
    [10012, 'video_not_exists'],
    [10013, 'sort_type_is_incorrect'],
    [10017, 'video_not_exists'],
    [10018, 'search_type_is_incorrect'],
    [10024, 'no_user_transcode_template'],
    [10025, 'create_transcode_task_failed'],
    [10030, 'no_cdn'],
    [10033, 'transcode_running'],
    [10043, 'add_video_failed'],
    [10050, 'sub_can_not_modify_transcode_template'],
    [10061, 'transcode_template_is_not_correct'],
    [10067, 'video_is_in_transcode_waitting_list'],
    [10081, 'transcode_template_group_not_exist'],
    [10082, 'can_not_modify_this_template_group'],
    [10095, 'can_not_modify_default_template_group_type'],
    [10201, 'api_not_exists'],
    [10001, 'get_access_token_failed'],
    [10029, 'video_category_already_exists'],
    [10083, 'add_video_category_failed'],
  ];

  it('holds every documented code with its message and a plain-words explanation', () => {
    for (const [code, message] of documented) {
      const entry = knownCode(code);
      assert.ok(entry, `code ${code} is in the table`);
      assert.equal(entry.message, message, `message of ${code}`);
      assert.ok(
        entry.explanation.length > 10 && !entry.explanation.includes('not documented'),
        `explanation of ${code}`,
      );
      assert.equal(explainCode(code), entry.explanation);
    }
  });

  it('is one table: codes unique, and every entry has a name in Codes (and every name an entry)', () => {
    const codes = KNOWN_CODES.map((entry) => entry.code);
    assert.equal(new Set(codes).size, codes.length, 'no code twice');
    const named = new Set<number>(Object.values(Codes));
    assert.deepEqual(
      codes.filter((code) => !named.has(code)),
      [],
      'table codes without a name in Codes',
    );
    assert.deepEqual(
      [...named].filter((code) => !knownCode(code)),
      [],
      'names in Codes without a table entry',
    );
  });
});
