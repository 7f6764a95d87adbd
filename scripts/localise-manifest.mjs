// Moves the manifest's user-facing strings (package.json) into package.nls.json as `%key%` references, so
// VS Code shows them in its display language (package.nls.<lang>.json). Idempotent: strings already `%key%`
// are left as they are, so it can run again after new commands or settings were added in plain English.
// Usage: node scripts/localise-manifest.mjs — then translate the new keys in package.nls.zh-cn.json
// (test/app/manifestLocalisation.test.ts says which are missing).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const read = (name) => JSON.parse(readFileSync(join(root, name), 'utf8'));
const write = (name, value) => writeFileSync(join(root, name), JSON.stringify(value, null, 2) + '\n');

const pkg = read('package.json');
const nls = read('package.nls.json');

/** Replaces `holder[field]` with a `%key%` reference (a key of the same English text is shared). */
function localise(holder, field, key) {
  const text = holder?.[field];
  if (typeof text !== 'string' || /^%[^%]+%$/.test(text)) return;
  const same = Object.entries(nls).find(([, english]) => english === text);
  const name = same ? same[0] : key;
  if (!same && nls[name] !== undefined) throw new Error(`${name} already holds another text`);
  nls[name] = text;
  holder[field] = `%${name}%`;
}

localise(pkg, 'displayName', 'displayName');
localise(pkg, 'description', 'description');
const contributes = pkg.contributes;
for (const command of contributes.commands ?? []) {
  const id = command.command.replace(/^videoPlatform\./, '');
  localise(command, 'title', `command.${id}`);
  localise(command, 'shortTitle', `command.${id}.short`);
  localise(command, 'category', 'category');
}
for (const submenu of contributes.submenus ?? [])
  localise(submenu, 'label', `submenu.${submenu.id.replace(/^videoPlatform\./, '')}`);
for (const container of Object.values(contributes.viewsContainers ?? {}).flat())
  localise(container, 'title', `viewsContainer.${container.id}`);
for (const view of Object.values(contributes.views ?? {}).flat()) {
  const id = view.id.replace(/^videoPlatform\./, '');
  localise(view, 'name', `view.${id}`);
  localise(view, 'contextualTitle', `view.${id}.contextualTitle`);
}
const welcomes = new Map();
for (const welcome of contributes.viewsWelcome ?? []) {
  const view = welcome.view.replace(/^videoPlatform\./, '');
  welcomes.set(view, (welcomes.get(view) ?? 0) + 1);
  localise(welcome, 'contents', `viewsWelcome.${view}.${welcomes.get(view)}`);
}
const configurations = [contributes.configuration ?? []].flat();
for (const configuration of configurations) {
  localise(configuration, 'title', 'configuration.title');
  for (const [name, property] of Object.entries(configuration.properties ?? {})) {
    const id = name.replace(/^videoPlatform\./, '');
    for (const field of ['description', 'markdownDescription', 'deprecationMessage', 'markdownDeprecationMessage'])
      localise(property, field, `configuration.${id}.${field}`);
    for (const field of ['enumDescriptions', 'markdownEnumDescriptions'])
      for (const index of (property[field] ?? []).keys())
        localise(property[field], index, `configuration.${id}.${field}.${index}`);
  }
}

write('package.json', pkg);
write('package.nls.json', nls);
