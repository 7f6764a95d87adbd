/**
 * undici, through its package root (its public API), loaded so that it leaves the process-wide
 * dispatcher alone.
 *
 * Why: when `Symbol.for('undici.globalDispatcher.1')` is unset, undici's root module sets it to a
 * fresh Agent (lib/global.js, non-configurable). Inside VS Code's extension host that slot belongs
 * to the host's own fetch, and a client must not change it. So for the moment of the require only,
 * a placeholder holds the slot (undici sees a dispatcher and installs none); then the slot is put
 * back exactly as it was: removed, or its old property descriptor. When the slot is already set,
 * undici leaves it alone by itself. test/api/globalDispatcher.test.ts checks this, bundled too.
 *
 * Node's own fetch must keep working afterwards. Its web globals (`Headers`, `fetch`...) are lazy: the
 * first read loads Node's built-in undici, which installs its dispatcher only if the slot is empty.
 * undici's package root reads `globalThis.Headers`; read while the placeholder held the slot, Node's
 * fetch would be left with no dispatcher at all. So during the require those globals are hidden too,
 * and put back exactly as they were.
 */
import type * as Undici from 'undici';

export type { Dispatcher } from 'undici';

const SLOT = Symbol.for('undici.globalDispatcher.1');

/** Node's lazy web globals whose first read loads Node's built-in undici. */
const NODE_WEB_GLOBALS = [
  'fetch',
  'Headers',
  'Request',
  'Response',
  'FormData',
  'WebSocket',
  'MessageEvent',
  'CloseEvent',
  'EventSource',
] as const;

/** Runs `work` with Node's web globals hidden (reads give undefined), then restores their descriptors. */
function withNodeWebGlobalsHidden<T>(work: () => T): T {
  const saved: Array<[string, PropertyDescriptor]> = [];
  for (const name of NODE_WEB_GLOBALS) {
    const descriptor = Object.getOwnPropertyDescriptor(globalThis, name);
    if (!descriptor?.configurable) continue;
    saved.push([name, descriptor]);
    Object.defineProperty(globalThis, name, { value: undefined, configurable: true, writable: true });
  }
  try {
    return work();
  } finally {
    for (const [name, descriptor] of saved) Object.defineProperty(globalThis, name, descriptor);
  }
}

function requireUndici(): typeof Undici {
  const global = globalThis as unknown as Record<symbol, unknown>;
  const before = Object.getOwnPropertyDescriptor(globalThis, SLOT);
  if (global[SLOT] !== undefined || (before !== undefined && !before.configurable && !before.writable)) {
    return require('undici') as typeof Undici;
  }
  const placeholder = {
    dispatch(): never {
      throw new Error('placeholder dispatcher: never used');
    },
  };
  if (before === undefined || before.configurable) {
    Object.defineProperty(globalThis, SLOT, { value: placeholder, configurable: true, writable: true });
  } else {
    global[SLOT] = placeholder; // non-configurable but writable, holding undefined
  }
  try {
    return withNodeWebGlobalsHidden(() => require('undici') as typeof Undici);
  } finally {
    if (before === undefined) delete global[SLOT];
    else if (before.configurable) Object.defineProperty(globalThis, SLOT, before);
    else global[SLOT] = before.value;
  }
}

let loaded: typeof Undici | undefined;

/**
 * undici, loaded on first use: its package root (fetch, WebSocket, caches and all) takes tens of
 * milliseconds to load, which need not be spent while the extension activates without a client.
 */
export function loadUndici(): typeof Undici {
  return (loaded ??= requireUndici());
}
