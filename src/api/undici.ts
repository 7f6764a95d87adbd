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
 * Node's own fetch must be initialised first: undici's root reads `globalThis.Headers`, which loads
 * Node's internal undici; had that happened while the placeholder held the slot, Node's fetch would
 * have found a dispatcher, installed none, and failed on every later call once the slot was emptied.
 * So Node's fetch is initialised here first, as its own first use would (the slot then holds Node's
 * own dispatcher, never ours). In VS Code's extension host the slot is set long before.
 */
import type * as Undici from 'undici';

export type { Dispatcher } from 'undici';

const SLOT = Symbol.for('undici.globalDispatcher.1');

function requireUndici(): typeof Undici {
  void (globalThis as { Headers?: unknown }).Headers;
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
    return require('undici') as typeof Undici;
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
