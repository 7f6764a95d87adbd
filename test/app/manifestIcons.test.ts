import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '..', '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { contributes: unknown };

/** Every `icon` of the contributions. */
function icons(value: unknown, out: unknown[] = []): unknown[] {
  if (Array.isArray(value)) for (const item of value) icons(item, out);
  else if (value && typeof value === 'object')
    for (const [key, item] of Object.entries(value)) {
      if (key === 'icon') out.push(item);
      else icons(item, out);
    }
  return out;
}

describe('icons readable in dark, light and high-contrast themes', () => {
  it('uses codicons (drawn in the theme colour) or SVGs in currentColor, and ships no unused icon', () => {
    const all = icons(pkg.contributes);
    assert.ok(all.length > 10);
    const files = all.filter((icon): icon is string => typeof icon === 'string' && !icon.startsWith('$('));
    for (const icon of all)
      if (!files.includes(icon as string)) assert.match(String(icon), /^\$\([a-z0-9-]+(~spin)?\)$/, String(icon));
    for (const file of files) {
      const svg = readFileSync(join(root, file), 'utf8');
      assert.match(svg, /currentColor/, file);
      assert.doesNotMatch(svg, /#[0-9a-f]{3,6}\b/i, `${file} has a fixed colour`);
    }
    const shipped = readdirSync(join(root, 'media'), { recursive: true, encoding: 'utf8' }).filter((name) =>
      name.endsWith('.svg'),
    );
    assert.deepEqual(
      shipped.filter((name) => !files.includes(`media/${name}`)),
      [],
      'SVGs in media/ nothing uses',
    );
  });
});
