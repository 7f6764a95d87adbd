import assert from 'node:assert/strict';
import { formatCategory, formatDateTime, formatMilliseconds, formatSeconds } from '../../../src/app/util/format';

describe('formatting (one date, duration and category format)', () => {
  it('shows dates in local time as YYYY-MM-DD HH:mm:ss, from milliseconds, strings and Dates', () => {
    const local = new Date(2026, 10, 23, 9, 5, 7);
    assert.equal(formatDateTime(local), '2026-11-23 09:05:07');
    assert.equal(formatDateTime(local.getTime()), '2026-11-23 09:05:07');
    // A UTC instant is shown in the machine's local time, never as UTC.
    const instant = Date.UTC(2026, 0, 2, 3, 4, 5);
    const expected = new Date(instant);
    assert.equal(
      formatDateTime(new Date(instant).toISOString()),
      `${expected.getFullYear()}-${String(expected.getMonth() + 1).padStart(2, '0')}-${String(expected.getDate()).padStart(2, '0')} ` +
        `${String(expected.getHours()).padStart(2, '0')}:04:05`,
    );
    assert.equal(formatDateTime('not a date'), 'not a date');
  });

  it('shows durations in seconds, with one decimal at most (two under a second)', () => {
    assert.equal(formatSeconds(12), '12 s');
    assert.equal(formatSeconds(2.46), '2.5 s');
    assert.equal(formatMilliseconds(12_000), '12 s');
    assert.equal(formatMilliseconds(250), '0.25 s');
    assert.equal(formatMilliseconds(300), '0.3 s');
  });

  it('shows a category as its name with its id, and says when there is none', () => {
    assert.equal(formatCategory({ name: 'News', id: 3 }), 'News (3)');
    assert.equal(formatCategory({ name: 'News', id: '3' }), 'News (3)');
    assert.equal(formatCategory({ name: 'News' }), 'News');
    assert.equal(formatCategory({ id: 7 }), 'Category 7');
    assert.equal(formatCategory({ id: 0 }), 'No category');
    assert.equal(formatCategory(undefined), 'No category');
  });
});
