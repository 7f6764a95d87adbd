import { strict as assert } from 'node:assert';
import { fillPlaceholders, l10n, setTranslator } from '../../src/l10n/l10n';

describe('l10n (core translation port)', () => {
  it('fills numbered and named placeholders in English when no translator is installed', () => {
    assert.equal(l10n.t('Stopped {0} of {1} channels', 2, 3), 'Stopped 2 of 3 channels');
    assert.equal(l10n.t('Account {name} is active', { name: 'Staging' }), 'Account Staging is active');
    assert.equal(fillPlaceholders('Keeps {unknown} as written', []), 'Keeps {unknown} as written');
  });

  it('uses the installed translator and puts the previous one back', () => {
    const restore = setTranslator((message, args) => `[${fillPlaceholders(message, args)}]`);
    try {
      assert.equal(l10n.t('Deleted {0}', 'Newsroom'), '[Deleted Newsroom]');
    } finally {
      restore();
    }
    assert.equal(l10n.t('Deleted {0}', 'Newsroom'), 'Deleted Newsroom');
  });
});
