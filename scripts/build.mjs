// Bundles the extension, the local platform's command line and the stream inspector's with esbuild.
// Usage: node scripts/build.mjs [--production] [--only extension|platform|inspect]
import { copyFile, mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

const args = process.argv.slice(2);
const production = args.includes('--production');
const only = args.includes('--only') ? args[args.indexOf('--only') + 1] : undefined;

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

const entries = {
  extension: {
    entryPoints: ['src/vscode/extension.ts'],
    outfile: 'dist/extension.js',
    // The extension starts its local platform without real live media, so the RTMP server (loaded by
    // src/localPlatform/server.ts only when `live` is asked for) stays out of its bundle.
    external: ['vscode', ...FFMPEG_PACKAGES, 'node-media-server'],
  },
  platform: { entryPoints: ['src/localPlatform/cli.ts'], outfile: 'dist/localPlatform.js', external: FFMPEG_PACKAGES },
  inspect: { entryPoints: ['src/inspector/cli.ts'], outfile: 'dist/inspect.js', external: FFMPEG_PACKAGES },
};

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

if (!only || only === 'extension') await generateValidators();

const selected = only ? { [only]: entries[only] } : entries;
if (only && !entries[only]) {
  console.error(`unknown bundle "${only}"; expected one of ${Object.keys(entries).join(', ')}`);
  process.exit(2);
}
await Promise.all(Object.values(selected).map((options) => esbuild.build({ ...common, ...options })));
// The browser player's hls.js (src/localPlatform/player.ts serves it at /player/hls.js) beside the extension's
// bundle: the VSIX ships the installed package's browser build, never a CDN.
if (selected.extension) {
  await mkdir('dist', { recursive: true });
  await copyFile(createRequire(import.meta.url).resolve('hls.js/dist/hls.min.js'), 'dist/hls.min.js');
}
