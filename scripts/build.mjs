// Bundles the extension, the local platform's command line and the stream inspector's with esbuild.
// Usage: node scripts/build.mjs [--production] [--only extension|platform|inspect|qa|ladder|configs]
import { createHash } from 'node:crypto';
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

const args = process.argv.slice(2);
const production = args.includes('--production');
const only = args.includes('--only') ? args[args.indexOf('--only') + 1] : undefined;
// --metafile: what each input adds to the extension's bundle, in dist/extension.meta.json (for `npx esbuild
// --analyze`-style reading: which modules the activation bundle carries).
const metafile = args.includes('--metafile');

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: !production,
  minify: production,
  logLevel: 'warning',
  legalComments: 'none',
  // jsonc-parser's UMD build requires its parts dynamically, which a bundle cannot follow; its ESM build bundles.
  mainFields: ['module', 'main'],
};

// ffmpeg from npm is an optional dependency found at run time (src/media/tools.ts), never bundled.
const FFMPEG_PACKAGES = ['@ffmpeg-installer/ffmpeg', '@ffprobe-installer/ffprobe'];
// Files a bundle names with require.resolve() to read at run time, not to bundle: hls.js's browser build, which
// src/inspector/html.ts resolves for the local platform to serve (from dist/hls.min.js when installed). Marked
// external, esbuild leaves the call as it is (it did so before, with a warning per bundle holding the module).
const RESOLVED_AT_RUN_TIME = ['hls.js/dist/hls.min.js'];

/** esbuild's build with the files resolved at run time added to the options' externals. */
function build(options) {
  return esbuild.build({ ...options, external: [...(options.external ?? []), ...RESOLVED_AT_RUN_TIME] });
}

// The extension's parts that activation does not need, each a bundle of its own under dist/lazy/, required
// the first time they are used (issue 15: activation loads only what the first view needs). In the sources they
// are ordinary imports (tests and benchmarks run the sources); only the extension's bundle sends them elsewhere.
const LAZY = {
  // The local platform with its RTMP server (node-media-server), so that it runs live media for real when
  // ffmpeg is found; started in the extension host when the local account is first used.
  localPlatform: { source: 'src/localPlatform/server.ts', outfile: 'dist/lazy/localPlatform.js' },
  // undici's package root (~520 KiB minified), loaded by src/api/undici.ts on the client's first request.
  undici: { source: 'undici', outfile: 'dist/lazy/undici.js' },
  // The playlist parser (~42 KiB minified), loaded by src/inspector/hls.ts on the first playlist read.
  hlsParser: { source: 'hls-parser', outfile: 'dist/lazy/hls-parser.js' },
  // The JSON-with-comments parser (~20 KiB minified, all of it), loaded by the parts that read documents (validation,
  // the authoring features, the command handlers, configuration as code) when they load: one copy, not one each.
  jsoncParser: { source: 'jsonc-parser', outfile: 'dist/lazy/jsonc-parser.js' },
  // The media reader's library, loaded by src/media/read.ts on the first media read (by the inspector or the
  // local platform, both lazy parts themselves).
  mediabunny: { source: 'mediabunny', outfile: 'dist/lazy/mediabunny.js' },
};

// The parts that share the extension bundle's own modules (one translator, one class per tree node and per error,
// one connection): each is built as one function of the bundle's modules it imports (`module.exports = (shared) =>
// exports`), and the bundle's module that loads it calls it with them. What a part owns is what activation does not
// load: every module of src/ it reaches that the bundle does not hold (the eager set, found first by building the
// bundle with every part left out). A part's entry is loaded by a `require()` inside a function of an eager module
// (src/app/lazyPart.ts), never by a static import, so that nothing loads it before its first use.
const SHARING_PARTS = {
  // Inspect Stream, Check Content, Preview, Open Player in Browser, the ladder lab and the Callbacks view's commands
  // with the stream inspector, loaded by src/app/commands/inspectCommands.ts and callbackActions.ts on first use.
  inspect: { source: 'src/app/inspect/commands.ts', outfile: 'dist/lazy/inspect.js' },
  // Configuration as code (pull, plan, apply, drift; issue 27), loaded by src/app/configs/lazy.ts on the first use of
  // one of its commands or when the workspace holds a pulled folder.
  configs: { source: 'src/app/configs/part.ts', outfile: 'dist/lazy/configs.js' },
  // The command handlers (issue 29), loaded by src/app/commands/commandTable.ts when a command first runs: the table
  // keeps ids and titles in the bundle.
  commands: { source: 'src/app/commands/handlers.ts', outfile: 'dist/lazy/commands.js' },
  // The authoring features' implementation (the Problems, quick fixes, completion, hovers; issue 29), loaded by
  // src/vscode/authoring/languageFeatures.ts when a document of the six kinds is open or a provider is first asked.
  authoring: { source: 'src/vscode/authoring/features.ts', outfile: 'dist/lazy/authoring.js' },
  // Document validation (syntax, schema, rules, references; with jsonc-parser), loaded with the parts that validate:
  // the authoring features, the command handlers, configuration as code and the inspection's ladder lab hold none of
  // it, they are handed this part's module.
  validation: { source: 'src/authoring/validate.ts', outfile: 'dist/lazy/validation.js' },
  // Finding ffmpeg (src/media/tools.ts, with its test encode), loaded by src/app/inspect/mediaTools.ts when the status
  // bar first looks (a second after activation), and with the parts that run ffmpeg.
  mediaTools: { source: 'src/media/tools.ts', outfile: 'dist/lazy/mediaTools.js' },
  // The REST client (signing, transport, the operations), loaded by src/app/accounts/connection.ts when it makes the
  // first client: when a view first lists the active account's items (never without an account).
  client: { source: 'src/api/client.ts', outfile: 'dist/lazy/client.js' },
  // The drift's decorations and problems of configuration as code, loaded by src/vscode/configs.ts with its part.
  configsDrift: { source: 'src/vscode/configsDrift.ts', outfile: 'dist/lazy/configsDrift.js' },
  // The Ui's questions (quick picks, input boxes, the wizard's steps), loaded by src/vscode/vscodeUi.ts on the first.
  questions: { source: 'src/vscode/questions.ts', outfile: 'dist/lazy/questions.js' },
  // The account's lists of ids for checks, completion and hovers, loaded by src/app/authoring/referenceCache.ts on
  // their first fetch.
  referenceLists: { source: 'src/authoring/referenceLists.ts', outfile: 'dist/lazy/referenceLists.js' },
};
// Modules whose classes cross parts are one copy, in the bundle, even when activation does not import them: the
// wizard's WentBack is thrown by the questions part and caught by the wizard in the commands part.
const ONE_COPY = ['src/app/ui.ts'];
// Modules that several parts may each hold a copy of although they declare classes: the instances never leave the
// part that made them (the authoring stack's JSON tree, and the error toRequest throws and its own caller catches).
const COPIES_ALLOWED = ['src/authoring/jsonDocument.ts', 'src/authoring/toRequest.ts'];
const PART_SOURCES = new Map(Object.entries(SHARING_PARTS).map(([name, part]) => [join(root, part.source), name]));
// The six authoring validators (src/authoring/generated/KIND.js, required by src/authoring/schemas.ts on
// the first document of each kind), one file each under dist/lazy/validators/.
const VALIDATOR_KINDS = ['channel', 'templategroup', 'logogroup', 'transcode', 'livetemplate', 'livelogo'];

/**
 * Sends the imports of the lazy parts to their files: from the extension's bundle (`dir` './lazy/') or from a part
 * beside them (`dir` './'). Each is required only where the sources require it, on first use.
 */
function lazyLibraries(dir) {
  return {
    name: 'lazy-libraries',
    setup(build) {
      build.onResolve({ filter: /^undici$/ }, () => ({ path: `${dir}undici.js`, external: true }));
      build.onResolve({ filter: /^hls-parser$/ }, () => ({ path: `${dir}hls-parser.js`, external: true }));
      build.onResolve({ filter: /^jsonc-parser$/ }, () => ({ path: `${dir}jsonc-parser.js`, external: true }));
      build.onResolve({ filter: /^mediabunny$/ }, () => ({ path: `${dir}mediabunny.js`, external: true }));
      build.onResolve({ filter: /^\.\/generated\/\w+\.js$/ }, (args) => {
        const kind = args.path.slice('./generated/'.length, -'.js'.length);
        if (!VALIDATOR_KINDS.includes(kind)) return undefined;
        return { path: `${dir}validators/${kind}.js`, external: true };
      });
      build.onResolve({ filter: /\/localPlatform\/server$/ }, (args) =>
        args.importer.includes(join('src', 'vscode')) ? { path: `${dir}localPlatform.js`, external: true } : undefined,
      );
    },
  };
}

/** A relative import's file: the path itself, or with .ts, or its index.ts. */
function sourceFile(path) {
  for (const candidate of [path, `${path}.ts`, join(path, 'index.ts')]) {
    if (existsSync(candidate) && !candidate.endsWith(sep) && /\.[cm]?[jt]s$/.test(candidate)) return candidate;
  }
  return undefined;
}

const key = (file) => relative(root, file).split(sep).join('/');

// A shared module is named by a short hash of its path in the part and its loader (the paths made 2 KB of the
// activation bundle); the build's metafile (--metafile) keeps the paths.
const sharedNames = new Map();
function sharedName(path) {
  const name = createHash('sha256').update(path).digest('base64url').slice(0, 6);
  if ((sharedNames.get(name) ?? path) !== path) throw new Error(`${path} and ${sharedNames.get(name)} share a name`);
  sharedNames.set(name, path);
  return name;
}

/**
 * In the extension's bundle, a require of a part's entry becomes the module that loads the part: the part called
 * with the bundle's modules it imports (`shared`: filled by the part's build). Without `shared` (the first pass that
 * finds the eager set), an empty module.
 */
function partLoaders(shared) {
  return {
    name: 'part-loaders',
    setup(build) {
      build.onResolve({ filter: /^(\.\.?\/|\/)/ }, (args) => {
        const name = PART_SOURCES.get(sourceFile(resolve(args.resolveDir, args.path)) ?? '');
        return name ? { path: name, namespace: 'sharing-part' } : undefined;
      });
      build.onResolve({ filter: /^\.\/lazy\/\w+\.js$/, namespace: 'sharing-part' }, (args) => ({
        path: args.path,
        external: true,
      }));
      build.onLoad({ filter: /.*/, namespace: 'sharing-part' }, (args) => {
        if (!shared) return { contents: '', loader: 'js' };
        const modules = [...shared[args.path]]
          .sort()
          .map(
            (file) =>
              `${JSON.stringify(sharedName(file))}: require(${JSON.stringify(file === 'vscode' ? file : join(root, file))})`,
          );
        return {
          contents: `module.exports = require("./lazy/${args.path}.js")({ ${modules.join(', ')} });`,
          resolveDir: root,
          loader: 'js',
        };
      });
    },
  };
}

/**
 * A sharing part's build: its imports of the eager set (and of `vscode`) read the module the extension's bundle
 * hands over; the rest of src/ is bundled into it. Another part's entry is handed over as that part's loader in the
 * bundle, so there is one copy of it (its classes, its state): loaded with this part.
 */
function sharingPart(name, eager, shared) {
  return {
    name: `sharing-part-${name}`,
    setup(build) {
      const share = (path) => {
        shared.add(path);
        return { path, namespace: 'extension-shared' };
      };
      build.onResolve({ filter: /^vscode$/ }, () => share('vscode'));
      build.onResolve({ filter: /^(\.\.?\/|\/)/ }, (args) => {
        if (args.namespace !== 'file') return undefined;
        const file = sourceFile(resolve(args.resolveDir, args.path));
        if (file === undefined || !file.startsWith(join(root, 'src') + sep)) return undefined;
        const other = PART_SOURCES.get(file);
        const shareIt = eager.has(key(file)) || ONE_COPY.includes(key(file)) || (other && other !== name);
        return shareIt ? share(key(file)) : undefined;
      });
      build.onLoad({ filter: /.*/, namespace: 'extension-shared' }, (args) => ({
        contents: `module.exports = shared[${JSON.stringify(sharedName(args.path))}];`,
        loader: 'js',
      }));
    },
  };
}

const PART_WRAPPER = {
  banner: {
    js: "module.exports = (shared) => {\n'use strict';\nconst module = { exports: {} }, exports = module.exports;",
  },
  footer: { js: 'return module.exports;\n};' },
};

const MEDIABUNNY_VERSION = JSON.parse(
  readFileSync(join(root, 'node_modules', 'mediabunny', 'package.json'), 'utf8'),
).version;

/** What src/media/read.ts takes from mediabunny (test/packaging checks that the part has them all). */
const MEDIABUNNY_NAMES = [
  'Input',
  'BufferSource',
  'FilePathSource',
  'EncodedPacketSink',
  'MP4',
  'QTFF',
  'MPEG_TS',
  'WEBM',
  'MATROSKA',
  'ADTS',
  'MP3',
  'OGG',
  'WAVE',
  'FLAC',
];

/** In a part under dist/lazy/: mediabunny is the lazy part beside it. */
const mediabunnyBeside = {
  name: 'mediabunny-beside',
  setup(build) {
    build.onResolve({ filter: /^mediabunny$/ }, () => ({ path: './mediabunny.js', external: true }));
  },
};

const entries = {
  // Built in stages with its sharing parts (buildExtension below).
  extension: {
    entryPoints: ['src/vscode/extension.ts'],
    outfile: 'dist/extension.js',
    external: ['vscode', ...FFMPEG_PACKAGES],
    // `await import()` of a lazy part becomes a require() of its file, which a CommonJS host resolves beside
    // the bundle (an ESM import() would not be answered by every host that loads the bundle).
    supported: { 'dynamic-import': false },
  },
  lazyLocalPlatform: {
    entryPoints: [LAZY.localPlatform.source],
    outfile: LAZY.localPlatform.outfile,
    external: FFMPEG_PACKAGES,
    plugins: [mediabunnyBeside],
  },
  // Only what src/media/read.ts uses (reading, not writing or converting): a third of the library.
  lazyMediabunny: {
    stdin: {
      contents: `export { ${MEDIABUNNY_NAMES.join(', ')} } from 'mediabunny';`,
      resolveDir: root,
      loader: 'js',
    },
    outfile: LAZY.mediabunny.outfile,
    // MPL-2.0 asks that the recipients of the executable form are told where its source is.
    banner: {
      js: `/*! mediabunny ${MEDIABUNNY_VERSION}, MPL-2.0 (https://mozilla.org/MPL/2.0/); its source: the npm package mediabunny@${MEDIABUNNY_VERSION}, folder src/ */`,
    },
  },
  lazyUndici: { entryPoints: [LAZY.undici.source], outfile: LAZY.undici.outfile },
  lazyHlsParser: { entryPoints: [LAZY.hlsParser.source], outfile: LAZY.hlsParser.outfile },
  lazyJsoncParser: { entryPoints: [LAZY.jsoncParser.source], outfile: LAZY.jsoncParser.outfile },
  lazyValidators: {
    entryPoints: VALIDATOR_KINDS.map((kind) => `src/authoring/generated/${kind}.js`),
    outdir: 'dist/lazy/validators',
  },
  platform: { entryPoints: ['src/localPlatform/cli.ts'], outfile: 'dist/localPlatform.js', external: FFMPEG_PACKAGES },
  inspect: { entryPoints: ['src/app/inspect/inspectCli.ts'], outfile: 'dist/inspect.js', external: FFMPEG_PACKAGES },
  qa: { entryPoints: ['src/media/qa/cli.ts'], outfile: 'dist/qa.js', external: FFMPEG_PACKAGES },
  ladder: { entryPoints: ['src/app/ladder/cli.ts'], outfile: 'dist/ladder.js', external: FFMPEG_PACKAGES },
  // `npm run configs` (issue 27); its --dry-run starts a local platform in-process.
  configs: { entryPoints: ['src/app/configs/cli.ts'], outfile: 'dist/configs.js', external: FFMPEG_PACKAGES },
};
/** The bundles that ship with the extension's: built together with it. */
const EXTENSION_PARTS = [
  'extension',
  'lazyLocalPlatform',
  'lazyUndici',
  'lazyHlsParser',
  'lazyJsoncParser',
  'lazyMediabunny',
  'lazyValidators',
];

// The authoring validators: compiled from schemas/*.schema.json into src/authoring/generated/ (a build
// output, git-ignored) before the extension bundle takes them in. The generator is TypeScript sharing
// the project's ajv settings, so it is bundled and run here first.
async function generateValidators() {
  // Under node_modules/.cache: a scratch file, out of git, lint and packaging.
  const generator = join(root, 'node_modules', '.cache', 'video-platform-tools', 'generateValidators.cjs');
  await esbuild.build({
    ...common,
    sourcemap: false,
    minify: false,
    entryPoints: ['scripts/generateValidators.ts'],
    outfile: generator,
  });
  const { generateValidators } = createRequire(import.meta.url)(generator);
  generateValidators(root);
}

// The ladder's and the configs' command lines read documents with the authoring validators too.
// The local platform's command line checks fault profiles with the validators generated there as well.
if (!only || ['extension', 'ladder', 'configs', 'platform'].includes(only)) await generateValidators();

const selected = only
  ? Object.fromEntries(
      Object.entries(entries).filter(
        ([name]) => name === only || (only === 'extension' && EXTENSION_PARTS.includes(name)),
      ),
    )
  : entries;
if (only && !entries[only]) {
  console.error(`unknown bundle "${only}"; expected one of ${Object.keys(entries).join(', ')}`);
  process.exit(2);
}
/**
 * A module held by several parts is a copy in each: harmless for functions, wrong for a class whose instances go
 * from one part to another (`instanceof` fails). Such a module must be in ONE_COPY (or the bundle, or a part's entry).
 */
function checkCopies(metafiles) {
  const holders = new Map();
  for (const meta of metafiles)
    for (const input of Object.keys(meta.inputs).filter((input) => input.startsWith('src/')))
      holders.set(input, (holders.get(input) ?? 0) + 1);
  const classes = [...holders]
    .filter(([input, count]) => count > 1 && !COPIES_ALLOWED.includes(input))
    .map(([input]) => input)
    .filter((input) => /^export (abstract )?class /m.test(readFileSync(join(root, input), 'utf8')));
  if (classes.length)
    throw new Error(`classes copied into several lazy parts (scripts/build.mjs ONE_COPY): ${classes.join(', ')}`);
}

/**
 * The extension's bundle and its sharing parts: first the bundle without them (write: false) gives the eager set,
 * the modules activation loads; then each part is built around it (sharingPart); then the bundle with the modules
 * that load the parts, which hand them the eager modules they import.
 */
async function buildExtension(options) {
  const plugins = (shared) => [lazyLibraries('./lazy/'), partLoaders(shared)];
  const first = await build({
    ...common,
    ...options,
    plugins: plugins(undefined),
    write: false,
    metafile: true,
  });
  const eager = new Set(Object.keys(first.metafile.inputs).filter((input) => input.startsWith('src/')));
  const shared = {};
  const parts = await Promise.all(
    Object.entries(SHARING_PARTS).map(([name, part]) => {
      shared[name] = new Set();
      return build({
        ...common,
        ...PART_WRAPPER,
        entryPoints: [part.source],
        outfile: part.outfile,
        external: FFMPEG_PACKAGES,
        plugins: [lazyLibraries('./'), sharingPart(name, eager, shared[name])],
        metafile: true,
      });
    }),
  );
  const result = await build({ ...common, ...options, plugins: plugins(shared), metafile: true });
  const grown = Object.keys(result.metafile.inputs).filter(
    (input) => input.startsWith('src/') && !eager.has(input) && !ONE_COPY.includes(input),
  );
  if (grown.length) throw new Error(`the parts' loaders added modules to the bundle: ${grown.join(', ')}`);
  checkCopies(parts.map((part) => part.metafile));
  if (metafile) {
    await writeFile(join(root, 'dist', 'extension.meta.json'), JSON.stringify(result.metafile));
    const names = Object.keys(SHARING_PARTS);
    await writeFile(
      join(root, 'dist', 'lazy.meta.json'),
      JSON.stringify(Object.fromEntries(parts.map((part, index) => [names[index], part.metafile]))),
    );
  }
}

await Promise.all(
  Object.entries(selected).map(([name, options]) =>
    name === 'extension' ? buildExtension(options) : build({ ...common, ...options }),
  ),
);
// The browser player's hls.js (src/localPlatform/http/player.ts serves it at /player/hls.js) beside the extension's
// bundle: the VSIX ships the installed package's browser build, never a CDN.
if (selected.extension) {
  await mkdir('dist', { recursive: true });
  await copyFile(createRequire(import.meta.url).resolve('hls.js/dist/hls.min.js'), 'dist/hls.min.js');
}
