/**
 * Activation cost of the extension bundle: time to load dist/extension.js and to run its activate(), for the
 * development bundle (as `npm run build` makes it) and a production bundle (minified, as shipped) side by side.
 * VS Code is not here, so `require('vscode')` is answered by a seam: real ExtensionContext pieces (memento,
 * secrets, subscriptions) and EventEmitter, and a recording stand-in for every other API, which does nothing.
 * The figures are the extension's own work; VS Code's side of activation is not included.
 */
import * as esbuild from 'esbuild';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import Module from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';

const ROOT = resolve(__dirname, '..');
const ROUNDS = 15;

type AnyFunction = (...args: unknown[]) => unknown;

// A stand-in for any part of the vscode API: callable, constructible, every property another stand-in,
// never thenable (so awaiting it yields it), iterating it yields nothing, disposing it is a no-op.
function standIn(name: string): unknown {
  const children = new Map<PropertyKey, unknown>();
  const target = function () { /* stand-in */ } as unknown as AnyFunction;
  return new Proxy(target, {
    get(_t, prop) {
      if (prop === 'then') return undefined;
      if (prop === Symbol.iterator) return function* () { /* empty */ };
      if (prop === Symbol.toPrimitive) return () => name;
      if (prop === 'dispose') return () => undefined;
      if (!children.has(prop)) children.set(prop, standIn(`${name}.${String(prop)}`));
      return children.get(prop);
    },
    apply: () => standIn(`${name}()`),
    construct: () => standIn(`new ${name}`) as object,
  });
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
  setKeysForSync(): void { /* nothing to sync */ }
}

function makeVscodeSeam(): Record<string, unknown> {
  const api = standIn('vscode') as Record<string, unknown>;
  const overrides: Record<string, unknown> = {
    EventEmitter,
    Disposable: class { static from(...items: Array<{ dispose(): unknown }>) { return { dispose: () => items.forEach((i) => i.dispose()) }; } constructor(private readonly fn: () => void) {} dispose() { this.fn(); } },
    workspace: new Proxy(api.workspace as object, {
      get(target, prop) {
        if (prop === 'getConfiguration') return () => ({ get: <T>(_key: string, fallback?: T) => fallback, has: () => false, inspect: () => undefined, update: async () => undefined });
        if (prop === 'workspaceFolders') return undefined;
        if (prop === 'textDocuments') return [];
        return Reflect.get(target, prop);
      },
    }),
    version: '1.95.0',
  };
  return new Proxy(api, { get: (target, prop) => (prop in overrides ? overrides[prop as string] : Reflect.get(target, prop)) });
}

function makeContext(): Record<string, unknown> {
  const secrets = new Map<string, string>();
  const secretsChanged = new EventEmitter<{ key: string }>();
  return {
    subscriptions: [] as Array<{ dispose(): unknown }>,
    globalState: new Memento(),
    workspaceState: new Memento(),
    secrets: {
      get: async (key: string) => secrets.get(key),
      store: async (key: string, value: string) => { secrets.set(key, value); },
      delete: async (key: string) => { secrets.delete(key); },
      onDidChange: secretsChanged.event,
    },
    extensionPath: ROOT,
    extensionUri: { fsPath: ROOT, path: ROOT, scheme: 'file', toString: () => `file://${ROOT}` },
    globalStorageUri: { fsPath: join(tmpdir(), 'vpt-bench-global'), path: join(tmpdir(), 'vpt-bench-global'), scheme: 'file' },
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

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function measure(bundle: string): Promise<{ coldLoadMs: number; loadMs: number; activateMs: number }> {
  const loads: number[] = [];
  const activations: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    delete require.cache[bundle];
    let started = performance.now();
    const extension = require(bundle) as ExtensionModule; // eslint-disable-line @typescript-eslint/no-require-imports
    loads.push(performance.now() - started);
    const context = makeContext();
    started = performance.now();
    await extension.activate(context);
    activations.push(performance.now() - started);
    await extension.deactivate?.();
    for (const item of context.subscriptions as Array<{ dispose(): unknown }>) {
      try { item.dispose(); } catch { /* stand-ins */ }
    }
  }
  // The first load compiles the bundle from scratch; later ones in this process are helped by V8's caches.
  return { coldLoadMs: loads[0], loadMs: median(loads.slice(1)), activateMs: median(activations) };
}

export async function run(): Promise<void> {
  const seam = makeVscodeSeam();
  const moduleInternals = Module as unknown as { _load: (request: string, parent: unknown, isMain: boolean) => unknown };
  const originalLoad = moduleInternals._load;
  moduleInternals._load = function (request: string, parent: unknown, isMain: boolean) {
    if (request === 'vscode') return seam;
    return originalLoad.call(this, request, parent, isMain);
  };
  const dir = mkdtempSync(join(tmpdir(), 'vpt-activation-'));
  try {
    const development = join(dir, 'extension.dev.js');
    const production = join(dir, 'extension.prod.js');
    const common = { entryPoints: [join(ROOT, 'src/extension/extension.ts')], bundle: true, platform: 'node' as const, target: 'node20', format: 'cjs' as const, external: ['vscode'], logLevel: 'warning' as const, legalComments: 'none' as const };
    await esbuild.build({ ...common, outfile: development, sourcemap: true });
    await esbuild.build({ ...common, outfile: production, minify: true });
    const dev = await measure(development);
    const prod = await measure(production);
    const kib = (file: string): string => `${(statSync(file).size / 1024).toFixed(0)} KiB`;
    console.log(`${ROUNDS} rounds, fresh module and context each round; medians except the first load`);
    console.log(`development bundle (${kib(development)}): first load ${dev.coldLoadMs.toFixed(2)} ms, later loads ${dev.loadMs.toFixed(2)} ms, activate() ${dev.activateMs.toFixed(2)} ms`);
    console.log(`production bundle  (${kib(production)}): first load ${prod.coldLoadMs.toFixed(2)} ms, later loads ${prod.loadMs.toFixed(2)} ms, activate() ${prod.activateMs.toFixed(2)} ms`);
    console.log(`production / development: first load x${(prod.coldLoadMs / dev.coldLoadMs).toFixed(2)}, later loads x${(prod.loadMs / dev.loadMs).toFixed(2)}, activate() x${(prod.activateMs / dev.activateMs).toFixed(2)}`);
  } finally {
    moduleInternals._load = originalLoad;
    rmSync(dir, { recursive: true, force: true });
  }
}
