// Loads the built dist/extension.js in a fresh Node process with a minimal `vscode` seam and
// reports, as one JSON line, what a user-visible check needs: whether undici's process-wide
// dispatcher changed, which commands were registered, what the views and status bar show.
// Usage: node bundleProbe.cjs <dist/extension.js> <storageDir> [preset] [activate] [inspect]
// `inspect` (with `activate`): runs Inspect Stream on an RTMP output of a channel, which the lazy part
// dist/lazy/inspect.js refuses with a message; the seam's translator marks its texts with «» to tell them apart.
// `run=<command id>` (with `activate`): runs that command without arguments, after the lists, and reports the error
// messages shown. `partsAtActivation` lists the files under the bundle's lazy/ folder loaded when activate() returned,
// `partsAfterList` those loaded once the channels view has listed its roots.
'use strict';
const Module = require('node:module');
const path = require('node:path');

const [bundle, storageDir, ...flags] = process.argv.slice(2);
const KEY = Symbol.for('undici.globalDispatcher.1');

class EventEmitter {
  constructor() {
    this.listeners = new Set();
    this.event = (listener) => {
      this.listeners.add(listener);
      return { dispose: () => this.listeners.delete(listener) };
    };
  }
  fire(value) {
    for (const listener of this.listeners) listener(value);
  }
  dispose() {
    this.listeners.clear();
  }
}
const disposable = () => ({ dispose() {} });
const commands = new Map();
const context = new Map();
const views = new Map();
const statusItems = [];
const logLines = [];
const diagnosticCollections = [];
const errorMessages = [];
const marked = flags.includes('inspect') || flags.some((flag) => flag.startsWith('run='));
const lazyLoaded = () =>
  Object.keys(require.cache)
    .filter((file) => file.startsWith(path.join(path.dirname(path.resolve(bundle)), 'lazy') + path.sep))
    .map((file) =>
      path
        .relative(path.dirname(path.resolve(bundle)), file)
        .split(path.sep)
        .join('/'),
    )
    .sort();

const vscode = {
  EventEmitter,
  TreeItem: class {
    constructor(label, collapsibleState) {
      this.label = label;
      this.collapsibleState = collapsibleState;
    }
  },
  TreeItemCollapsibleState: { None: 0, Collapsed: 1, Expanded: 2 },
  ThemeIcon: class {
    constructor(id, color) {
      this.id = id;
      this.color = color;
    }
  },
  ThemeColor: class {
    constructor(id) {
      this.id = id;
    }
  },
  MarkdownString: class {
    constructor(value) {
      this.value = value;
    }
  },
  StatusBarAlignment: { Left: 1, Right: 2 },
  QuickPickItemKind: { Separator: -1, Default: 0 },
  ProgressLocation: { Notification: 15 },
  // A class, as commands tell an Explorer resource from a tree node with `instanceof vscode.Uri`.
  Uri: class Uri {
    constructor(value) {
      this.value = value;
    }
    static parse(value) {
      return new Uri(value);
    }
    toString() {
      return this.value;
    }
  },
  // vscode.l10n.t without a bundle: the English text with its {0} / {name} placeholders filled in.
  l10n: {
    t: (message, ...args) => {
      const values = args.length === 1 && typeof args[0] === 'object' && args[0] !== null ? args[0] : args;
      const text = message.replace(/\{([^{}]+)\}/g, (whole, key) => (key in values ? String(values[key]) : whole));
      return marked ? `«${text}»` : text;
    },
  },
  window: {
    createOutputChannel: (name) => {
      const line = (level) => (message) => logLines.push(`${level} ${message}`);
      return {
        name,
        info: line('info'),
        warn: line('warn'),
        error: line('error'),
        debug: line('debug'),
        trace: line('trace'),
        show() {},
        dispose() {},
      };
    },
    createTreeView: (id, options) => {
      const view = {
        id,
        provider: options.treeDataProvider,
        visible: true,
        description: undefined,
        onDidChangeVisibility: () => disposable(),
        reveal: async () => undefined,
        dispose() {},
      };
      views.set(id, view);
      return view;
    },
    createStatusBarItem: () => {
      const item = {
        text: '',
        show() {
          item.shown = true;
        },
        hide() {},
        dispose() {},
      };
      statusItems.push(item);
      return item;
    },
    showInformationMessage: async () => undefined,
    showWarningMessage: async () => undefined,
    // The user dismisses every question (Escape).
    showQuickPick: async () => undefined,
    showInputBox: async () => undefined,
    showErrorMessage: async (message) => {
      errorMessages.push(message);
      return undefined;
    },
    visibleTextEditors: [],
    registerFileDecorationProvider: () => disposable(),
  },
  commands: {
    registerCommand: (id, handler) => {
      commands.set(id, handler);
      return { dispose: () => commands.delete(id) };
    },
    executeCommand: async (id, ...args) =>
      id === 'setContext' ? context.set(args[0], args[1]) : commands.get(id)?.(...args),
  },
  workspace: {
    getConfiguration: () => ({ get: (_key, fallback) => fallback }),
    onDidChangeConfiguration: () => disposable(),
    textDocuments: [],
    onDidOpenTextDocument: () => disposable(),
    onDidChangeTextDocument: () => disposable(),
    onDidCloseTextDocument: () => disposable(),
    findFiles: async () => [],
    createFileSystemWatcher: () => ({ onDidCreate: () => disposable(), dispose() {} }),
  },
  languages: {
    createDiagnosticCollection: (name) => {
      diagnosticCollections.push(name);
      return { name, set() {}, delete() {}, clear() {}, dispose() {} };
    },
    registerCodeActionsProvider: () => disposable(),
    registerCompletionItemProvider: () => disposable(),
    registerCodeLensProvider: () => disposable(),
    registerHoverProvider: () => disposable(),
  },
  CodeActionKind: { QuickFix: { value: 'quickfix' } },
  env: { clipboard: { writeText: async () => undefined }, openExternal: async () => true },
};

const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  return request === 'vscode' ? 'vscode' : resolve.call(this, request, ...rest);
};
require.cache.vscode = { id: 'vscode', filename: 'vscode', loaded: true, exports: vscode };

class Memento {
  constructor() {
    this.values = new Map();
  }
  get(key, fallback) {
    return this.values.has(key) ? this.values.get(key) : fallback;
  }
  async update(key, value) {
    this.values.set(key, value);
  }
  keys() {
    return [...this.values.keys()];
  }
}
class Secrets {
  constructor() {
    this.values = new Map();
    this.onDidChange = () => disposable();
  }
  async get(key) {
    return this.values.get(key);
  }
  async store(key, value) {
    this.values.set(key, value);
  }
  async delete(key) {
    this.values.delete(key);
  }
}

(async () => {
  if (flags.includes('preset')) await fetch('data:text/plain,x'); // Node's own fetch installs its dispatcher, as in VS Code.
  const before = globalThis[KEY];
  const extension = require(path.resolve(bundle));
  const result = {
    exports: Object.keys(extension).sort(),
    dispatcherSameAfterLoad: globalThis[KEY] === before,
    hadDispatcher: before !== undefined,
  };
  if (flags.includes('activate')) {
    const ctx = {
      subscriptions: [],
      globalState: new Memento(),
      workspaceState: new Memento(),
      secrets: new Secrets(),
      globalStorageUri: { fsPath: storageDir },
      extensionUri: { fsPath: path.dirname(bundle) },
    };
    await extension.activate(ctx);
    result.partsAtActivation = lazyLoaded();
    const channels = views.get('videoPlatform.channels');
    const roots = await channels.provider.getChildren();
    result.partsAfterList = lazyLoaded();
    result.channels = roots.map((node) => channels.provider.getTreeItem(node).label);
    if (roots.length > 0) {
      const first = channels.provider.getTreeItem(roots[0]);
      result.firstItem = {
        contextValue: first.contextValue,
        hasId: typeof first.id === 'string' && first.id !== '',
        icon: first.iconPath && first.iconPath.id,
      };
    }
    result.commands = [...commands.keys()].sort();
    result.diagnosticCollections = diagnosticCollections;
    result.status = statusItems.map((item) => item.text);
    result.hasAccount = context.get('videoPlatform.hasAccount');
    result.secretInLog = logLines.some((line) => line.includes(process.env.VIDEO_PLATFORM_DEV_SECRET_KEY || '\u0000'));
    result.requestLogged = logLines.some((line) => /^info GET liveGetChannelsByPage code 0/.test(line));
    if (flags.includes('inspect')) {
      // Channel > output group > output: the first output whose address is not http(s).
      const provider = views.get('videoPlatform.channels').provider;
      let output;
      for (const channel of roots) {
        for (const group of await provider.getChildren(channel)) {
          for (const node of await provider.getChildren(group)) {
            if (node.kind === 'output' && !/^https?:/.test(node.output.publicOutputUrl)) output = output ?? node;
          }
        }
      }
      result.rtmpOutput = output ? output.output.publicOutputUrl : undefined;
      if (output) await commands.get('videoPlatform.inspectStream')(output);
      result.errorMessages = errorMessages;
    }
    const run = flags.find((flag) => flag.startsWith('run='));
    if (run) {
      await commands.get(run.slice('run='.length))();
      result.errorMessages = errorMessages;
      result.partsAfterRun = lazyLoaded();
    }
    await extension.deactivate();
    for (const subscription of ctx.subscriptions) subscription.dispose();
    result.dispatcherSameAfterActivate = globalThis[KEY] === before;
  }
  process.stdout.write(`${JSON.stringify(result)}\n`);
})().catch((error) => {
  process.stdout.write(`${JSON.stringify({ error: String((error && error.stack) || error) })}\n`);
  process.exitCode = 1;
});
