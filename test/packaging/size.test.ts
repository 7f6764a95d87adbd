// Packaging budget: builds the production bundle and the VSIX exactly as `npm run package` does (or reuses
// a VSIX newer than every input), prints their sizes, and checks what the package holds and leaves out.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { listZipEntries, readZipEntry, type ZipEntry } from './zip';

const ROOT = resolve(__dirname, '..', '..');
const VSIX = join(ROOT, 'dist', 'video-platform-tools.vsix');

// Budgets a little above the measured sizes (see the printed figures), so growth is a decision, not a drift.
// Raised once for issue 14: the client loads undici through its package root (public API only), which brings
// fetch, WebSocket and the mock agents along (~220 KiB minified) where the sub-modules did not.
// Raised again for issues 9 and 10: the local platform the extension embeds now carries real media (its engine,
// jobs, file serving, busboy for the streamed upload, live ladders; ~100 KiB), Upload Video (the client's streamed
// upload, the command) and for issue 11: the stream inspector (with hls-parser)
// runs inside the extension (~60 KiB minified), and the VSIX ships hls.js's browser build (dist/hls.min.js,
// ~610 KiB, ~185 KiB compressed) for the browser player, which must not load it from a CDN. Splitting the local
// platform into a bundle of its own, loaded on first use, is issue 15's.
// Lowered for issue 15: activation loads dist/extension.js only (measured 246 KiB minified); the local platform
// (with node-media-server), undici, hls-parser and the six authoring validators are bundles of their own under
// dist/lazy/, loaded on first use (scripts/build.mjs), each with a budget of its own.
// 270 KB at the lazy split; 300 KB once the Resources view, account binding, the wizard, hovers and l10n joined.
// Lowered again for issue 15: Inspect Stream, Preview and Open Player in Browser with the stream inspector are a
// part of their own (dist/lazy/inspect.js); activation loads 266 KB (was 304 KB). The .m3u8 problems stay.
// Raised to 290 KB with issue 21/25's additions that activation holds (ffmpeg discovery in the usual places with its
// check for the status bar, Set Up ffmpeg, tooltip stills, simulated-live wording): 285 KB measured. Issue 29 cuts
// activation to what the first view needs.
// Raised to 320 KB for issue 27: configuration as code (src/app/configs/: pull, plan, apply, drift, its commands and
// plan view) is in the extension's bundle; a lazy part of its own, like the inspection's, would take it out of
// activation again (issue 29's goal is 150 KiB loaded before activate() returns).
// Lowered to 295 KB for issue 27: configuration as code is that lazy part now (dist/lazy/configs.js, 30.6 KB), loaded
// on its first command or when the workspace holds a pulled folder; activation loads 289,855 bytes (was 316,636).
// Raised to 316 KB when issue 26 and issue 28's channel health merged: the stream-fault commands and the health
// tooltip and panel are in the bundle (311,899 bytes measured). Both could ride in a lazy part as the Callbacks
// view's commands do (issue 29).
// Lowered to 122 KB for issue 29: activation loads what the first view needs (118,105 bytes measured, 115.3 KiB, was
// 311,884). The command handlers, the authoring features, the REST client, ffmpeg discovery, the Ui's questions, the
// reference lists' fetching and the drift's presentation are lazy parts (scripts/build.mjs SHARING_PARTS), each with
// a budget below; the sharing parts now hold what they reach outside the bundle (the authoring validation stack with
// jsonc-parser is copied into the inspection, configs, commands and authoring parts instead of riding in the bundle).
const BUNDLE_BUDGET_BYTES = 122_000; // dist/extension.js minified: the views, accounts, compose, the command table
const LAZY_BUDGETS: Readonly<Record<string, number>> = {
  // Raised from 280 KB for issues 21 and 22: the looped test pattern, pull-source and work limits (281 KB measured);
  // to 310 KB for issues 22 and 23: the relay's checking proxy and the operation contracts (297 KB measured).
  // To 460 KB for issue 26: the callbacks (signed deliveries, delivery log, admin route; about 14 KB) and stream
  // faults, which validate profiles with ajv at run time (ajv about 125 KB minified, the faults room about 18 KB;
  // 441 KB measured without the callbacks). Precompiled standalone validators, as src/authoring/generated/ does
  // for documents, would take ajv out again. To 470 KB for issue 28: live channel health (the ingest meter, the
  // health route; 462,186 bytes measured with all of issue 26). Lowered to 400 KB for issue 29: fault profiles are
  // checked with validators compiled at build time (src/localPlatform/faults/generated/, about 52 KB minified), not
  // with ajv (389,798 bytes measured). To 404 KB later in issue 29: the list reads' whole answers
  // (store/readAnswers.ts) and the records' shared texts (store/shared.ts), 401,179 bytes measured.
  'dist/lazy/localPlatform.js': 404_000, // the local platform, node-media-server
  'dist/lazy/undici.js': 560_000, // undici's package root
  'dist/lazy/hls-parser.js': 48_000, // the inspector's playlist parser
  // Raised from 76 KB for issue 24 (nine check families with about 70 finding codes, the model, the timeline; the
  // playlist text checks moved here out of dist/extension.js) and issue 28 (the ladder lab: Evaluate Template Group,
  // its panel and chart, the local platform's encode command): 138 KB measured. To 175 KB for issues 24, 26 and 28:
  // LL-HLS reading (blocking reload, delta update, parts), the Callbacks view's commands and the content family
  // (169,174 bytes measured).
  // To 236 KB for issue 29: the part holds its own copy of what the bundle no longer carries (document validation with
  // jsonc-parser, the pick helpers, Set Up ffmpeg): 230,321 bytes measured. To 250 KB with issue 28's ladder lab
  // through the local platform and content checks on every rendition and fMP4: 245,140 bytes measured.
  // Lowered to 194 KB for issue 29: document validation is a part of its own (dist/lazy/validation.js) that the
  // parts which validate are handed, and jsonc-parser a file of its own beside them: 188,865 bytes measured.
  'dist/lazy/inspect.js': 194_000, // the inspection commands, the stream inspector, the media reader, the ladder lab
  // Issue 27: configuration as code (pull, plan, apply, drift, the plan view's rows): 30.6 KB measured. To 96 KB for
  // issue 29, with its own copy of document validation, requests and write-back: 92,626 bytes measured. To 100 KB
  // with the drift line's values and --json's changes: 96,426 bytes measured. Lowered to 43 KB when validation and
  // jsonc-parser left for parts of their own: 40,975 bytes measured.
  'dist/lazy/configs.js': 43_000,
  // Issue 29, measured 2026-11-28: the command handlers (155,241 bytes), the authoring features (63,769), the REST
  // client (36,657), ffmpeg discovery (6,394), the reference lists' fetching (4,378), the Ui's questions (3,354), the
  // drift's presentation (2,533).
  // Merged with issue 28 and validation's cut (strict positions without a tree): the handlers 158,601, the authoring
  // features 67,124 bytes measured.
  // Lowered when validation (39,450 bytes, loaded with the parts that validate) and jsonc-parser (20,721 bytes, the
  // whole library, loaded from beside the parts that read documents) became files of their own: the handlers
  // 110,922 and the authoring features 11,590 bytes measured.
  'dist/lazy/commands.js': 114_000,
  'dist/lazy/authoring.js': 12_500,
  'dist/lazy/validation.js': 41_500,
  'dist/lazy/jsonc-parser.js': 21_500,
  'dist/lazy/client.js': 38_000,
  'dist/lazy/mediaTools.js': 7_000,
  'dist/lazy/referenceLists.js': 4_700,
  'dist/lazy/questions.js': 3_600,
  'dist/lazy/configsDrift.js': 2_800,
  // Issue 21: media is read in-process. The part of mediabunny the reader uses (its demuxers, not its muxers or
  // codecs), loaded on the first media read by the inspector or the local platform.
  'dist/lazy/mediabunny.js': 290_000,
  'dist/lazy/validators/templategroup.js': 44_000, // the largest of the six
};
// Raised for issue 15: the local platform's part carries node-media-server (~23 KiB compressed), so that the
// local platform inside VS Code runs live channels for real with ffmpeg; the parts repeat a little shared code.
// Raised again for issue 12: the schema copies VS Code's JSON check reads (schemas/editor/) and the Chinese
// translations (package.nls.zh-cn.json, l10n/) came to 637 KB.
// Raised for issue 21: the media reader's part of mediabunny (dist/lazy/mediabunny.js, ~70 KiB compressed) made
// the VSIX 735 KiB.
// Raised for issues 21 and 25: the walkthrough's pages, the looped pattern, security and tour code made it 755 KiB.
// Raised for issues 23, 24, 27 and 28: the contracts, the inspector's check families, configuration as code and the
// ladder lab with their Chinese translations made it about 803 KiB.
// Raised for issues 26 and 28: ajv in the local platform's part (stream fault profiles), the callbacks, channel
// health, LL-HLS reading and the content family made it 910,321 bytes.
// Raised for issue 29: the sharing parts' copies of document validation and the new parts' loaders made it 978,084
// bytes (a part of its own for the validation stack, shared by the others, would take most of it out again).
// Lowered for issue 29: validation is that part, and jsonc-parser one file beside the parts: 911,820 bytes measured.
const VSIX_BUDGET_BYTES = 925_000;

const INPUTS = [
  'src',
  'schemas',
  'snippets',
  'media',
  'package.json',
  'package-lock.json',
  'README.md',
  'CHANGELOG.md',
  'LICENSE',
  '.vscodeignore',
  'scripts/build.mjs',
];

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const name of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, name)));
  return newest;
}

function vsixIsFresh(): boolean {
  if (process.env.CI || !existsSync(VSIX)) return false;
  const built = statSync(VSIX).mtimeMs;
  return INPUTS.every((input) => newestMtime(join(ROOT, input)) < built);
}

function kib(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KiB`;
}

describe('packaging: production bundle and VSIX', function () {
  this.timeout(240_000);
  let zip: Buffer;
  let entries: ZipEntry[];
  let names: string[];

  before(function () {
    if (!vsixIsFresh()) {
      const run = spawnSync('npm', ['run', '--silent', 'package'], { cwd: ROOT, encoding: 'utf8', timeout: 200_000 });
      assert.equal(run.status, 0, `npm run package failed:\n${run.stdout}\n${run.stderr}`);
    }
    zip = readFileSync(VSIX);
    entries = listZipEntries(zip);
    names = entries.map((e) => e.name);
  });

  function entry(name: string): ZipEntry {
    const found = entries.find((e) => e.name === name);
    assert.ok(found, `${name} is missing from the VSIX; it holds:\n${names.join('\n')}`);
    return found;
  }

  it(`keeps the production bundle under ${kib(BUNDLE_BUDGET_BYTES)} and the VSIX under ${kib(VSIX_BUDGET_BYTES)}`, () => {
    const bundle = entry('extension/dist/extension.js');
    const platform = entries.find((e) => e.name === 'extension/dist/localPlatform.js');
    console.log(`      bundle dist/extension.js: ${kib(bundle.size)} (budget ${kib(BUNDLE_BUDGET_BYTES)})`);
    if (platform) console.log(`      bundle dist/localPlatform.js: ${kib(platform.size)}`);
    console.log(`      VSIX: ${kib(zip.length)} (budget ${kib(VSIX_BUDGET_BYTES)}), ${entries.length} files`);
    assert.ok(bundle.size <= BUNDLE_BUDGET_BYTES, `bundle is ${bundle.size} bytes, over ${BUNDLE_BUDGET_BYTES}`);
    for (const [name, budget] of Object.entries(LAZY_BUDGETS)) {
      const part = entry(`extension/${name}`);
      console.log(`      lazy part ${name}: ${kib(part.size)} (budget ${kib(budget)})`);
      assert.ok(part.size <= budget, `${name} is ${part.size} bytes, over ${budget}`);
    }
    assert.ok(zip.length <= VSIX_BUDGET_BYTES, `VSIX is ${zip.length} bytes, over ${VSIX_BUDGET_BYTES}`);
  });

  it('is a minified bundle that carries its dependencies inside or in its lazy parts, never from node_modules', () => {
    const source = readZipEntry(zip, entry('extension/dist/extension.js')).toString('utf8');
    for (const dependency of ['undici', 'ajv', 'jsonc-parser', 'node-media-server', 'busboy', 'hls-parser']) {
      assert.ok(
        !new RegExp(`require\\(["']${dependency}["'/]`).test(source),
        `bundle requires ${dependency} at run time`,
      );
    }
    // What activation does not need is loaded from the lazy parts beside it, which the VSIX ships.
    for (const part of [
      './lazy/localPlatform.js',
      './lazy/undici.js',
      './lazy/inspect.js',
      './lazy/configs.js',
      './lazy/commands.js',
      './lazy/authoring.js',
      './lazy/client.js',
      './lazy/mediaTools.js',
      './lazy/validation.js',
    ]) {
      assert.ok(source.includes(`require("${part}")`), `bundle does not load ${part}`);
      entry(`extension/dist/${part.slice(2)}`);
    }
    // The authoring validators are loaded by the validation part, from beside it; the parts that validate hold no
    // copy of it (they are handed the bundle's loader of it), nor of jsonc-parser (loaded from beside them).
    const validationPart = readZipEntry(zip, entry('extension/dist/lazy/validation.js')).toString('utf8');
    assert.ok(
      validationPart.includes('require("./validators/channel.js")'),
      'the validation part does not load its validators',
    );
    entry('extension/dist/lazy/validators/channel.js');
    entry('extension/dist/lazy/jsonc-parser.js');
    for (const part of ['authoring', 'commands', 'configs', 'inspect', 'validation']) {
      const text = readZipEntry(zip, entry(`extension/dist/lazy/${part}.js`)).toString('utf8');
      // A message of the validation stack's own (src/authoring/validate.ts), in no other part.
      if (part !== 'validation')
        assert.ok(!text.includes('JSON syntax: {0}.'), `dist/lazy/${part}.js holds a copy of validation`);
      if (part !== 'inspect')
        assert.ok(
          text.includes('require("./jsonc-parser.js")'),
          `dist/lazy/${part}.js does not load ./jsonc-parser.js`,
        );
    }
    // The playlist parser is the inspection part's, loaded from beside it; the part brings no undici of its own.
    const inspectPart = readZipEntry(zip, entry('extension/dist/lazy/inspect.js')).toString('utf8');
    assert.ok(inspectPart.includes('require("./hls-parser.js")'), 'the inspection part does not load ./hls-parser.js');
    entry('extension/dist/lazy/hls-parser.js');
    assert.ok(!/require\(["']undici["'/]/.test(inspectPart), 'the inspection part requires undici at run time');
    // Configuration as code is its part's alone: its plan's words are not in the activation bundle.
    assert.ok(!source.includes('Plan for {0}: {1}.'), 'the configs part is in dist/extension.js');
    assert.ok(!source.includes('sourceMappingURL'), 'production bundle points at a source map');
    // Template literals keep their line breaks when minified (undici's SQL, multipart heads, the local platform's
    // texts), so lines are weighed against the size: minified code averages thousands of characters a line,
    // unminified code about forty (the bundle without its lazy parts: about 1,900 a line).
    const lines = source.split('\n').length;
    assert.ok(source.length / lines > 1000, `bundle does not look minified (${lines} lines)`);
  });

  it('holds the manifest, bundle, schemas, snippets, media, README, CHANGELOG and LICENSE', () => {
    for (const name of [
      'extension/package.json',
      'extension/dist/extension.js',
      'extension/dist/hls.min.js',
      'extension/readme.md',
      'extension/changelog.md',
      'extension/LICENSE.txt',
      'extension/media/icon.png',
      'extension/media/activitybar.svg',
      // The manifest's and the messages' translations (README "Language").
      'extension/package.nls.json',
      'extension/package.nls.zh-cn.json',
      'extension/l10n/bundle.l10n.zh-cn.json',
    ]) {
      entry(name);
    }
    // The English source bundle is for translators only: VS Code loads none for English (~15 KiB compressed).
    assert.ok(!names.includes('extension/l10n/bundle.l10n.json'), 'l10n/bundle.l10n.json is shipped');
    for (const folder of ['schemas', 'snippets']) {
      const local = readdirSync(join(ROOT, folder)).filter((f) => f.endsWith('.json'));
      assert.ok(local.length > 0, `${folder}/ has no .json files to ship`);
      for (const file of local) entry(`extension/${folder}/${file}`);
    }
    // Every icon the manifest points at must be inside the package.
    const manifest = JSON.parse(readZipEntry(zip, entry('extension/package.json')).toString('utf8')) as Manifest;
    for (const path of iconPaths(manifest)) entry(`extension/${path.replace(/^\.\//, '')}`);
    // The schemas VS Code reads (generated by the build into schemas/editor/) are inside too.
    const { jsonValidation = [] } = (manifest as { contributes?: { jsonValidation?: Array<{ url: string }> } })
      .contributes ?? { jsonValidation: [] };
    assert.ok(jsonValidation.length > 0);
    for (const { url } of jsonValidation) entry(`extension/${url.replace(/^\.\//, '')}`);
    // The walkthrough's pages (markdown beside the icons).
    const { walkthroughs = [] } = (
      manifest as { contributes?: { walkthroughs?: Array<{ steps: Array<{ media: { markdown?: string } }> }> } }
    ).contributes ?? { walkthroughs: [] };
    const pages = walkthroughs.flatMap((walkthrough) => walkthrough.steps.map((step) => step.media.markdown ?? ''));
    assert.ok(pages.length >= 5 && pages.every((page) => page !== ''), pages.join(', '));
    for (const page of pages) entry(`extension/${page}`);
  });

  it('leaves out sources, tests, scripts, node_modules, source maps and dev files', () => {
    const forbidden = [
      /^extension\/src\//,
      /^extension\/test\//,
      /^extension\/scripts\//,
      /^extension\/bench\//,
      /node_modules\//,
      /\.map$/,
      /\.ts$/,
      /^extension\/\.[^/]+/,
      /^extension\/tsconfig\.json$/,
      /^extension\/package-lock\.json$/,
      /^extension\/media\/make-icon\.mjs$/,
      /\.vsix$/,
      /^extension\/docs\//,
    ];
    const leaked = names.filter((name) => forbidden.some((pattern) => pattern.test(name)));
    assert.deepEqual(leaked, [], `files that must not ship: ${leaked.join(', ')}`);
  });

  it('has a manifest with publisher, repository, categories, keywords, engines.vscode and an icon', () => {
    const manifest = JSON.parse(readZipEntry(zip, entry('extension/package.json')).toString('utf8')) as Manifest;
    assert.match(manifest.publisher ?? '', /^[a-z0-9][a-z0-9-]*$/);
    assert.ok(manifest.repository?.url, 'no repository url');
    assert.ok((manifest.categories ?? []).length > 0, 'no categories');
    assert.ok((manifest.keywords ?? []).length > 0 && (manifest.keywords ?? []).length <= 30, 'keywords: 1 to 30');
    assert.match(manifest.engines?.vscode ?? '', /^\^1\.\d+\.\d+$/);
    assert.equal(manifest.icon, 'media/icon.png');
    assert.equal(manifest.main, './dist/extension.js');
    const png = readZipEntry(zip, entry('extension/media/icon.png'));
    assert.equal(png.toString('latin1', 1, 4), 'PNG');
    assert.deepEqual([png.readUInt32BE(16), png.readUInt32BE(20)], [128, 128], 'icon must be 128x128');
  });

  it('activates lazily: no "*" or onStartupFinished activation event', () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Manifest;
    const events = manifest.activationEvents ?? [];
    assert.ok(!events.includes('*'), 'activationEvents contains "*"');
    assert.ok(!events.includes('onStartupFinished'), 'activationEvents contains onStartupFinished');
  });
});

interface Manifest {
  publisher?: string;
  main?: string;
  icon?: string;
  repository?: { url?: string };
  categories?: string[];
  keywords?: string[];
  engines?: { vscode?: string };
  activationEvents?: string[];
  contributes?: {
    viewsContainers?: Record<string, Array<{ icon?: string }>>;
    views?: Record<string, Array<{ icon?: string }>>;
    commands?: Array<{ icon?: string | { light: string; dark: string } }>;
  };
}

// Icon paths the manifest refers to (view containers, views, commands); codicon references like $(play) skip.
function iconPaths(manifest: Manifest): string[] {
  const found: string[] = [];
  const add = (icon: unknown): void => {
    if (typeof icon === 'string' && !icon.startsWith('$(')) found.push(icon);
    else if (icon && typeof icon === 'object') for (const value of Object.values(icon)) add(value);
  };
  const contributes = manifest.contributes ?? {};
  for (const list of Object.values(contributes.viewsContainers ?? {})) for (const c of list) add(c.icon);
  for (const list of Object.values(contributes.views ?? {})) for (const v of list) add(v.icon);
  for (const command of contributes.commands ?? []) add(command.icon);
  return found;
}
