/**
 * The entry of `npm run inspect` (dist/inspect.js): the stream inspector's command line (src/inspector/cli.ts) with
 * the content checks registered as one of its families (contentFamily.ts), which `--content` runs.
 */
import './contentFamily';
import '../../inspector/cli';
