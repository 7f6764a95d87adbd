// Bundles the extension, the local platform's command line and the stream inspector's with esbuild.
// Usage: node scripts/build.mjs [--production] [--only extension|platform|inspect|qa|ladder|configs]
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
  // The media reader's library, loaded by src/media/read.ts on the first media read (by the inspector or the
  // local platform, both lazy parts themselves).
  mediabunny: { source: 'mediabunny', outfile: 'dist/lazy/mediabunny.js' },
  // Inspect Stream, Preview and Open Player in Browser with the stream inspector (~40 KiB minified), loaded by
  // src/app/commands/inspectCommands.ts on the first use of one of them.
  inspect: { source: 'src/app/inspect/commands.ts', outfile: 'dist/lazy/inspect.js' },
  // Configuration as code (pull, plan, apply, drift; issue 27), loaded by src/app/configs/lazy.ts on the first use of
  // one of its commands or when the workspace holds a pulled folder.
  configs: { source: 'src/app/configs/part.ts', outfile: 'dist/lazy/configs.js' },
};
// The folders whose code goes into the inspection part. What it imports from the rest of src/ is the extension
// bundle's own module, handed over when the part is loaded, never a copy: one translator (src/app/l10n.ts), one
// class per tree node (`instanceof` in src/app/inspect/streamTargets.ts) and per error (src/app/failures.ts).
const INSPECT_DIRS = [
  join(root, 'src', 'app', 'inspect'),
  join(root, 'src', 'inspector'),
  // The ladder lab (Evaluate Template Group) and the content checks it may show: loaded with the inspection part.
  join(root, 'src', 'app', 'ladder'),
  join(root, 'src', 'media', 'qa'),
];
// The in-process media reader (src/media/read*.ts, with mediabunny) goes into the inspection part too: activation
// never reads media.
// The ladder lab's stateless pieces of the local platform (its encode command, advancedArguments, the watchdog of
// ffmpeg processes) are copied in too rather than added to the activation bundle. So are the Callbacks view's
// commands (src/app/callbacks/callbackCommands.ts, with the admin route's client; the tree model stays in the
// bundle, shared).
const INSPECT_FILES =
  /[\\/]src[\\/](app[\\/]callbacks[\\/]callbackCommands|localPlatform[\\/]callbacks[\\/]adminClient|media[\\/]read\w*|localPlatform[\\/]media[\\/](commands|advanced)|localPlatform[\\/]live[\\/]watchdog)\.ts$/;
// The six authoring validators (src/authoring/generated/KIND.js, required by src/authoring/schemas.ts on
// the first document of each kind), one file each under dist/lazy/validators/.
const VALIDATOR_KINDS = ['channel', 'templategroup', 'logogroup', 'transcode', 'livetemplate', 'livelogo'];

/** Sends the lazy parts' imports in the extension's bundle to their files in dist/lazy/ (kept out of it). */
const lazyParts = {
  name: 'lazy-parts',
  setup(build) {
    build.onResolve({ filter: /^undici$/ }, () => ({ path: './lazy/undici.js', external: true }));
    build.onResolve({ filter: /^hls-parser$/ }, () => ({ path: './lazy/hls-parser.js', external: true }));
    build.onResolve({ filter: /^mediabunny$/ }, () => ({ path: './lazy/mediabunny.js', external: true }));
    build.onResolve({ filter: /^\.\/generated\/\w+\.js$/ }, (args) => {
      const kind = args.path.slice('./generated/'.length, -'.js'.length);
      if (!VALIDATOR_KINDS.includes(kind)) return undefined;
      return { path: `./lazy/validators/${kind}.js`, external: true };
    });
    build.onResolve({ filter: /\/localPlatform\/server$/ }, (args) =>
      args.importer.includes(join('src', 'vscode')) ? { path: './lazy/localPlatform.js', external: true } : undefined,
    );
    // The inspection part is a function of the extension's modules it shares (see inspectPart below): the require
    // in src/app/commands/inspectCommands.ts becomes a call of it with those modules, bundled here as usual.
    build.onResolve({ filter: /\/inspect\/commands$/ }, (args) =>
      args.importer.includes(join('src', 'app', 'commands'))
        ? { path: 'inspect', namespace: 'lazy-inspect' }
        : undefined,
    );
    build.onResolve({ filter: /^\.\/lazy\/inspect\.js$/, namespace: 'lazy-inspect' }, (args) => ({
      path: args.path,
      external: true,
    }));
    // The configs part likewise: the require of ./part in src/app/configs/lazy.ts.
    build.onResolve({ filter: /^\.\/part$/ }, (args) =>
      args.importer === join(root, 'src', 'app', 'configs', 'lazy.ts')
        ? { path: 'configs', namespace: 'lazy-configs' }
        : undefined,
    );
    build.onResolve({ filter: /^\.\/lazy\/configs\.js$/, namespace: 'lazy-configs' }, (args) => ({
      path: args.path,
      external: true,
    }));
    build.onLoad({ filter: /.*/, namespace: 'lazy-configs' }, () =>
      sharedPartLoader(configsShared, 'lazyConfigs', 'configs'),
    );
    build.onLoad({ filter: /.*/, namespace: 'lazy-inspect' }, () => {
      if (sharedWithInspect.size === 0) return { errors: [{ text: 'build the inspection part (lazyInspect) first' }] };
      const modules = [...sharedWithInspect]
        .sort()
        .map(
          (file) => `${JSON.stringify(relative(root, file).split(sep).join('/'))}: require(${JSON.stringify(file)})`,
        );
      return {
        contents: `module.exports = require("./lazy/inspect.js")({ ${modules.join(', ')} });`,
        resolveDir: root,
        loader: 'js',
      };
    });
  },
};

/** The extension bundle's module that loads a sharing part: the part called with the bundle's modules it imports. */
function sharedPartLoader(shared, buildName, part) {
  if (shared.size === 0) return { errors: [{ text: `build the ${part} part (${buildName}) first` }] };
  const modules = [...shared]
    .sort()
    .map((file) => `${JSON.stringify(relative(root, file).split(sep).join('/'))}: require(${JSON.stringify(file)})`);
  return {
    contents: `module.exports = require("./lazy/${part}.js")({ ${modules.join(', ')} });`,
    resolveDir: root,
    loader: 'js',
  };
}

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

/** The files of src/ outside INSPECT_DIRS that the inspection part imports; filled by its build, which runs first. */
const sharedWithInspect = new Set();

/** A relative import's file: the path itself, or with .ts, or its index.ts. */
function sourceFile(path) {
  for (const candidate of [path, `${path}.ts`, join(path, 'index.ts')]) {
    if (existsSync(candidate) && !candidate.endsWith(sep) && /\.[cm]?[jt]s$/.test(candidate)) return candidate;
  }
  return undefined;
}

/**
 * The inspection part's build: its imports of src/ outside INSPECT_DIRS read the module the extension's bundle
 * hands over, and the whole part is one function of those modules (`module.exports = (shared) => exports`).
 * hls-parser is the lazy part beside it.
 */
const inspectPart = {
  name: 'inspect-part',
  setup(build) {
    build.onResolve({ filter: /^hls-parser$/ }, () => ({ path: './hls-parser.js', external: true }));
    build.onResolve({ filter: /^mediabunny$/ }, () => ({ path: './mediabunny.js', external: true }));
    build.onResolve({ filter: /^\.\.?\// }, (args) => {
      if (args.namespace !== 'file') return undefined;
      const file = sourceFile(resolve(args.resolveDir, args.path));
      const inSrc = file !== undefined && file.startsWith(join(root, 'src') + sep);
      if (!inSrc || INSPECT_DIRS.some((dir) => file.startsWith(dir + sep)) || INSPECT_FILES.test(file))
        return undefined;
      sharedWithInspect.add(file);
      return { path: relative(root, file).split(sep).join('/'), namespace: 'extension-shared' };
    });
    build.onLoad({ filter: /.*/, namespace: 'extension-shared' }, (args) => ({
      contents: `module.exports = shared[${JSON.stringify(args.path)}];`,
      loader: 'js',
    }));
  },
};

/** The files of src/ outside src/app/configs/ that the configs part imports; filled by its build, which runs first. */
const configsShared = new Set();
const CONFIGS_DIR = join(root, 'src', 'app', 'configs');

/**
 * The configs part's build, as the inspection part's: its imports of src/ outside src/app/configs/ read the modules
 * the extension's bundle hands over (one translator, one class per error), never copies.
 */
const configsPart = {
  name: 'configs-part',
  setup(build) {
    build.onResolve({ filter: /^\.\.?\// }, (args) => {
      if (args.namespace !== 'file') return undefined;
      const file = sourceFile(resolve(args.resolveDir, args.path));
      if (file === undefined || !file.startsWith(join(root, 'src') + sep) || file.startsWith(CONFIGS_DIR + sep))
        return undefined;
      configsShared.add(file);
      return { path: relative(root, file).split(sep).join('/'), namespace: 'configs-shared' };
    });
    build.onLoad({ filter: /.*/, namespace: 'configs-shared' }, (args) => ({
      contents: `module.exports = shared[${JSON.stringify(args.path)}];`,
      loader: 'js',
    }));
  },
};

const entries = {
  extension: {
    entryPoints: ['src/vscode/extension.ts'],
    outfile: 'dist/extension.js',
    external: ['vscode', ...FFMPEG_PACKAGES],
    plugins: [lazyParts],
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
  lazyInspect: {
    entryPoints: [LAZY.inspect.source],
    outfile: LAZY.inspect.outfile,
    external: FFMPEG_PACKAGES,
    plugins: [inspectPart],
    banner: {
      js: "module.exports = (shared) => {\n'use strict';\nconst module = { exports: {} }, exports = module.exports;",
    },
    footer: { js: 'return module.exports;\n};' },
  },
  lazyConfigs: {
    entryPoints: [LAZY.configs.source],
    outfile: LAZY.configs.outfile,
    plugins: [configsPart],
    banner: {
      js: "module.exports = (shared) => {\n'use strict';\nconst module = { exports: {} }, exports = module.exports;",
    },
    footer: { js: 'return module.exports;\n};' },
  },
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
  'lazyMediabunny',
  'lazyInspect',
  'lazyConfigs',
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
async function buildExtension(options) {
  const result = await esbuild.build({ ...common, ...options, metafile });
  if (metafile) await writeFile(join(root, 'dist', 'extension.meta.json'), JSON.stringify(result.metafile));
}

// The inspection and configs parts first: the extension's bundle hands them the modules their builds found they import.
const { lazyInspect, lazyConfigs, ...others } = selected;
const sharingParts = [lazyInspect, lazyConfigs].filter(Boolean).map((part) => esbuild.build({ ...common, ...part }));
const extensionBuild = Promise.all(sharingParts).then(() => others.extension && buildExtension(others.extension));
await Promise.all([
  extensionBuild,
  ...Object.entries(others)
    .filter(([name]) => name !== 'extension')
    .map(([, options]) => esbuild.build({ ...common, ...options })),
]);
// The browser player's hls.js (src/localPlatform/http/player.ts serves it at /player/hls.js) beside the extension's
// bundle: the VSIX ships the installed package's browser build, never a CDN.
if (selected.extension) {
  await mkdir('dist', { recursive: true });
  await copyFile(createRequire(import.meta.url).resolve('hls.js/dist/hls.min.js'), 'dist/hls.min.js');
}
