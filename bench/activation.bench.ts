/**
 * Activation cost of the extension bundle: time to load dist/extension.js and to run its activate(), for the
 * development bundle (as `npm run build` makes it) and a production bundle (minified, as shipped) side by side.
 * VS Code is not here, so `require('vscode')` is answered by a seam (an injected require): real ExtensionContext pieces (memento,
 * secrets, subscriptions) and EventEmitter, and a recording stand-in for every other API, which does nothing.
 * The figures are the extension's own work; VS Code's side of activation is not included.
 *
 * Issue 29's figures, both independent of the machine's speed: the bytes of JavaScript loaded before activate()
 * returns (the bundle and every lazy part it required by then, production build), and activate()'s own time
 * against the bundle's first load (compile and run of its top level), both as VS Code pays them: once, cold, in
 * a fresh process. They are measured in COLD_PROCESSES fresh processes (this file run with --cold), medians of
 * each: one cold sample moved the ratio from 0.23 to 0.31 between two quiet runs.
 */
import { execFileSync, fork } from 'node:child_process';
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import Module from 'node:module';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { compileFunction } from 'node:vm';
import { performance } from 'node:perf_hooks';
import { goalRow } from './goalTable';

const ROOT = resolve(__dirname, '..');
const ROUNDS = 15;
const COLD_PROCESSES = 9;

type AnyFunction = (...args: unknown[]) => unknown;

// A stand-in for any part of the vscode API: callable, constructible, every property another stand-in,
// never thenable (so awaiting it yields it), iterating it yields nothing, disposing it is a no-op.
// One handler for all of them, each stand-in's name and children kept beside it: the seam is the bench's, so it
// should cost activate() as little as it can (a handler and closures per stand-in were a fifth of a cold activate()).
interface StandInState {
  name: string;
  children: Map<PropertyKey, unknown>;
}
const standInStates = new WeakMap<object, StandInState>();
function noop(): void {
  /* stand-in */
}
function* nothing(): Generator<never> {
  /* empty */
}
const standInHandler: ProxyHandler<AnyFunction> = {
  get(target, prop) {
    if (prop === 'then') return undefined;
    if (prop === Symbol.iterator) return nothing;
    if (prop === 'dispose') return noop;
    const state = standInStates.get(target)!;
    if (prop === Symbol.toPrimitive) return () => state.name;
    let child = state.children.get(prop);
    if (child === undefined) {
      child = standIn(`${state.name}.${String(prop)}`);
      state.children.set(prop, child);
    }
    return child;
  },
  set(target, prop, value) {
    standInStates.get(target)!.children.set(prop, value);
    return true;
  },
  apply: (target) => standIn(`${standInStates.get(target)!.name}()`),
  construct: (target) => standIn(`new ${standInStates.get(target)!.name}`) as object,
};
function standIn(name: string): unknown {
  const target = noop.bind(undefined) as AnyFunction;
  standInStates.set(target, { name, children: new Map() });
  return new Proxy(target, standInHandler);
}

class EventEmitter<T> {
  private listeners = new Set<(value: T) => void>();
  readonly event = (listener: (value: T) => void): { dispose(): void } => {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  };
  fire(value: T): void {
    for (const listener of this.listeners) listener(value);
  }
  dispose(): void {
    this.listeners.clear();
  }
}

class Memento {
  private values = new Map<string, unknown>();
  get<T>(key: string, fallback?: T): T | undefined {
    return this.values.has(key) ? (this.values.get(key) as T) : fallback;
  }
  keys(): readonly string[] {
    return [...this.values.keys()];
  }
  async update(key: string, value: unknown): Promise<void> {
    if (value === undefined) this.values.delete(key);
    else this.values.set(key, value);
  }
  setKeysForSync(): void {
    /* nothing to sync */
  }
}

/** Every top-level name of the vscode API (namespaces, classes, enums, constants), read from @types/vscode. */
function vscodeApiNames(): string[] {
  const declarations = readFileSync(require.resolve('@types/vscode/index.d.ts'), 'utf8');
  return [...declarations.matchAll(/^\texport (?:namespace|class|enum|const|let) (\w+)/gm)].map((match) => match[1]!);
}

export function makeVscodeSeam(): Record<string, unknown> {
  // A plain object with real keys: the bundle copies the module's properties (esbuild's __toESM).
  const api: Record<string, unknown> = {};
  for (const name of vscodeApiNames()) api[name] = standIn(name);
  const overrides: Record<string, unknown> = {
    EventEmitter,
    Disposable: class {
      static from(...items: Array<{ dispose(): unknown }>) {
        return { dispose: () => items.forEach((i) => i.dispose()) };
      }
      constructor(private readonly fn: () => void) {}
      dispose() {
        this.fn();
      }
    },
    workspace: new Proxy(api.workspace as object, {
      get(target, prop) {
        if (prop === 'getConfiguration')
          return () => ({
            get: <T>(_key: string, fallback?: T) => fallback,
            has: () => false,
            inspect: () => undefined,
            update: async () => undefined,
          });
        if (prop === 'workspaceFolders') return undefined;
        if (prop === 'textDocuments') return [];
        if (prop === 'findFiles') return async () => [];
        return Reflect.get(target, prop);
      },
    }),
    // Awaited or chained with .then() by the extension: a settled promise, as VS Code answers.
    commands: new Proxy(api.commands as object, {
      get(target, prop) {
        if (prop === 'executeCommand') return async () => undefined;
        return Reflect.get(target, prop);
      },
    }),
    version: '1.95.0',
  };
  return { ...api, ...overrides };
}

export function makeContext(): Record<string, unknown> {
  const secrets = new Map<string, string>();
  const secretsChanged = new EventEmitter<{ key: string }>();
  return {
    subscriptions: [] as Array<{ dispose(): unknown }>,
    globalState: new Memento(),
    workspaceState: new Memento(),
    secrets: {
      get: async (key: string) => secrets.get(key),
      store: async (key: string, value: string) => {
        secrets.set(key, value);
      },
      delete: async (key: string) => {
        secrets.delete(key);
      },
      onDidChange: secretsChanged.event,
    },
    extensionPath: ROOT,
    extensionUri: { fsPath: ROOT, path: ROOT, scheme: 'file', toString: () => `file://${ROOT}` },
    globalStorageUri: {
      fsPath: join(tmpdir(), 'vpt-bench-global'),
      path: join(tmpdir(), 'vpt-bench-global'),
      scheme: 'file',
    },
    storageUri: undefined,
    logUri: { fsPath: join(tmpdir(), 'vpt-bench-log'), scheme: 'file' },
    extensionMode: 1,
    asAbsolutePath: (relative: string) => join(ROOT, relative),
    environmentVariableCollection: standIn('environmentVariableCollection'),
    extension: { id: 'video-platform-tools.video-platform-tools', packageJSON: {} },
  };
}

interface ExtensionModule {
  activate(context: unknown): unknown;
  deactivate?(): unknown;
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/**
 * Loads a CommonJS bundle the way Node does (read, compile with the module wrapper, run), without tsx's
 * transform hooks that `npm run bench` has installed for .js files, and with `vscode` answered by the seam.
 */
export function loadBundle(bundle: string, seam: unknown): ExtensionModule {
  const source = readFileSync(bundle, 'utf8');
  const wrapper = compileFunction(source, ['exports', 'require', 'module', '__filename', '__dirname'], {
    filename: bundle,
  });
  const realRequire = createRequire(bundle);
  const module = { exports: {} as ExtensionModule };
  const requireWithSeam = (request: string): unknown => (request === 'vscode' ? seam : realRequire(request));
  wrapper.call(module.exports, module.exports, requireWithSeam, module, bundle, dirname(bundle));
  return module.exports;
}

/**
 * The files under the bundle's folder (its lazy parts) that are in Node's module cache: whatever path required
 * them (the bundle's own require, or a lazy part requiring the one beside it), a loaded part is cached there.
 */
function partsLoaded(bundle: string): string[] {
  const dir = dirname(bundle);
  const cache = (Module as unknown as { _cache: Record<string, unknown> })._cache;
  return Object.keys(cache).filter((file) => file.startsWith(dir + '/'));
}

/** Bytes of JavaScript loaded by the time activate() has returned: the bundle and the lazy parts it loaded. */
async function bytesAtActivation(bundle: string, seam: unknown): Promise<{ bytes: number; parts: string[] }> {
  const cache = (Module as unknown as { _cache: Record<string, unknown> })._cache;
  for (const file of partsLoaded(bundle)) delete cache[file];
  const extension = loadBundle(bundle, seam);
  const context = makeContext();
  await extension.activate(context);
  const parts = partsLoaded(bundle);
  await extension.deactivate?.();
  for (const item of context.subscriptions as Array<{ dispose(): unknown }>) {
    try {
      item.dispose();
    } catch {
      /* stand-ins */
    }
  }
  const bytes = statSync(bundle).size + parts.reduce((sum, file) => sum + statSync(file).size, 0);
  return { bytes, parts: parts.map((file) => file.slice(dirname(bundle).length + 1)) };
}

async function measure(
  bundle: string,
  seam: unknown,
): Promise<{ coldLoadMs: number; loadMs: number; activateMs: number }> {
  const loads: number[] = [];
  const activations: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    let started = performance.now();
    const extension = loadBundle(bundle, seam);
    loads.push(performance.now() - started);
    const context = makeContext();
    started = performance.now();
    await extension.activate(context);
    activations.push(performance.now() - started);
    await extension.deactivate?.();
    for (const item of context.subscriptions as Array<{ dispose(): unknown }>) {
      try {
        item.dispose();
      } catch {
        /* stand-ins */
      }
    }
  }
  // The first load compiles the bundle from scratch; later ones in this process are helped by V8's caches.
  return { coldLoadMs: loads[0]!, loadMs: median(loads.slice(1)), activateMs: median(activations) };
}

/**
 * Runs each kind of the seam's own code once (stand-in traps, EventEmitter, Memento, Disposable), so that
 * compiling the bench's stand-ins on first call is not charged to the extension's cold activate(); and Node's
 * timers once, as they are in an extension host long before any extension activates.
 */
function warmSeam(seam: Record<string, unknown>): void {
  clearTimeout(setTimeout(noop, 1000));
  clearInterval(setInterval(noop, 1000));
  const any = seam.window as Record<string, Record<string, (...args: unknown[]) => unknown>> & {
    new (): unknown;
  };
  any.warm!.call!(1);
  void new any();
  void `${String(any.warm)}`;
  for (const item of any.warm as unknown as Iterable<unknown>) void item;
  (any.warm as unknown as { dispose(): void }).dispose();
  (any as unknown as Record<string, unknown>).set = 1;
  const emitter = new (seam.EventEmitter as typeof EventEmitter<number>)();
  emitter.event(() => undefined).dispose();
  emitter.fire(1);
  emitter.dispose();
  const context = makeContext();
  const memento = context.globalState as Memento;
  void memento.update('warm', 1);
  memento.get('warm');
  memento.keys();
  (seam.Disposable as { from(...items: Array<{ dispose(): void }>): { dispose(): void } }).from().dispose();
}

/** One cold load and one cold activate() of the bundle, in this process (run with --cold): what VS Code pays. */
async function coldOnce(bundle: string): Promise<{ loadMs: number; activateMs: number }> {
  const seam = makeVscodeSeam();
  warmSeam(seam);
  let started = performance.now();
  const extension = loadBundle(bundle, seam);
  const loadMs = performance.now() - started;
  const context = makeContext();
  started = performance.now();
  await extension.activate(context);
  return { loadMs, activateMs: performance.now() - started };
}

/** coldOnce in COLD_PROCESSES fresh processes, one after the other; medians of each figure. */
async function coldInFreshProcesses(bundle: string): Promise<{ loadMs: number; activateMs: number }> {
  const loads: number[] = [];
  const activations: number[] = [];
  for (let i = 0; i < COLD_PROCESSES; i++) {
    const child = fork(__filename, ['--cold', bundle], {
      execArgv: ['--require', 'tsx/cjs'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const told = await new Promise<{ loadMs: number; activateMs: number }>((resolve, reject) => {
      child.once('message', resolve);
      child.once('exit', (code) => reject(new Error(`a cold activation process exited (${code})`)));
    });
    child.kill();
    loads.push(told.loadMs);
    activations.push(told.activateMs);
  }
  return { loadMs: median(loads), activateMs: median(activations) };
}

export async function run(): Promise<void> {
  const seam = makeVscodeSeam();
  const dir = mkdtempSync(join(tmpdir(), 'vpt-activation-'));
  try {
    // Each bundle in a folder of its own with its lazy parts (dist/lazy/) beside it, as in dist/.
    const development = join(dir, 'development', 'extension.js');
    const production = join(dir, 'production', 'extension.js');
    const keep = (target: string): void => {
      mkdirSync(dirname(target), { recursive: true });
      copyFileSync(join(ROOT, 'dist', 'extension.js'), target);
      cpSync(join(ROOT, 'dist', 'lazy'), join(dirname(target), 'lazy'), { recursive: true });
    };
    // The project's own build, so the bundles are exactly what `npm run build` / `npm run package` make.
    const build = (...flags: string[]): void => {
      execFileSync(process.execPath, ['scripts/build.mjs', '--only', 'extension', ...flags], {
        cwd: ROOT,
        stdio: 'inherit',
      });
    };
    build('--production');
    keep(production);
    build(); // leaves the development bundle in dist/, as `npm run bench` found it
    keep(development);
    const dev = await measure(development, seam);
    const prod = await measure(production, seam);
    const kib = (file: string): string => `${(statSync(file).size / 1024).toFixed(0)} KiB`;
    console.log(`${ROUNDS} rounds, fresh module and context each round; medians except the first load`);
    console.log(
      `development bundle (${kib(development)}): first load ${dev.coldLoadMs.toFixed(2)} ms, later loads ${dev.loadMs.toFixed(2)} ms, activate() ${dev.activateMs.toFixed(2)} ms`,
    );
    console.log(
      `production bundle  (${kib(production)}): first load ${prod.coldLoadMs.toFixed(2)} ms, later loads ${prod.loadMs.toFixed(2)} ms, activate() ${prod.activateMs.toFixed(2)} ms`,
    );
    console.log(
      `production / development: first load x${(prod.coldLoadMs / dev.coldLoadMs).toFixed(2)}, later loads x${(prod.loadMs / dev.loadMs).toFixed(2)}, activate() x${(prod.activateMs / dev.activateMs).toFixed(2)}`,
    );
    const loaded = await bytesAtActivation(production, seam);
    const kibLoaded = loaded.bytes / 1024;
    console.log(
      `loaded before activate() returns (production): ${kibLoaded.toFixed(1)} KiB (the bundle${loaded.parts.length ? ` and ${loaded.parts.join(', ')}` : ' alone'})`,
    );
    goalRow({
      figure: 'activation: bytes of JavaScript loaded before activate() returns (production)',
      goal: 'at most 150 KiB',
      measured: `${kibLoaded.toFixed(1)} KiB`,
      met: kibLoaded <= 150,
    });
    const cold = await coldInFreshProcesses(production);
    console.log(
      `production bundle, cold in ${COLD_PROCESSES} fresh processes (medians): first load ${cold.loadMs.toFixed(2)} ms, first activate() ${cold.activateMs.toFixed(2)} ms`,
    );
    const own = cold.activateMs / cold.loadMs;
    goalRow({
      figure: "activation: activate()'s own time vs the bundle's first load (production, cold, fresh processes)",
      goal: 'at most 0.25',
      measured: `${own.toFixed(2)} (${cold.activateMs.toFixed(1)} / ${cold.loadMs.toFixed(1)} ms, medians of ${COLD_PROCESSES})`,
      met: own <= 0.25,
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (require.main === module && process.argv[2] === '--cold') {
  // Ends with the bench (its IPC channel closes when the parent ends, kill -9 included).
  process.on('disconnect', () => process.exit(0));
  coldOnce(process.argv[3]!).then(
    (figures) => process.send!(figures),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
