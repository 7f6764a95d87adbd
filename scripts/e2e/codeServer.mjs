// Starts code-server on 127.0.0.1 (a free port) with throwaway user-data and extensions folders, and the
// user settings that keep a fresh workbench quiet and offline (no tips, trust prompts, gallery or AI panels).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const BROWSER_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const QUIET_SETTINGS = {
  'security.workspace.trust.enabled': false,
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'chat.disableAIFeatures': true,
  'telemetry.telemetryLevel': 'off',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'update.mode': 'none',
  'git.enabled': false,
  'npm.autoDetect': 'off',
  'typescript.disableAutomaticTypeAcquisition': true,
};

export function writeUserSettings(userDataDir) {
  mkdirSync(join(userDataDir, 'User'), { recursive: true });
  writeFileSync(join(userDataDir, 'User', 'settings.json'), JSON.stringify(QUIET_SETTINGS, null, 2));
}

/** Environment of every code-server process of a run (server and --install-extension). */
export function codeServerEnv(dir) {
  return {
    ...process.env,
    // code-server keeps logs and a heartbeat under XDG folders: the throwaway folder, not ~/.local/share.
    XDG_DATA_HOME: join(dir, 'xdg-data'),
    XDG_CONFIG_HOME: join(dir, 'xdg-config'),
    XDG_CACHE_HOME: join(dir, 'xdg-cache'),
    // No extension gallery: this machine reaches no marketplace; a closed loopback port fails fast.
    EXTENSIONS_GALLERY: JSON.stringify({
      serviceUrl: 'http://127.0.0.1:9/gallery',
      itemUrl: 'http://127.0.0.1:9/item',
    }),
  };
}

/** Chromium launch options; its crash reports and caches go to the throwaway folder too. */
export function browserOptions(dir) {
  return {
    executablePath: '/usr/bin/chromium',
    args: BROWSER_ARGS,
    timeout: 60_000,
    env: { ...process.env, XDG_CONFIG_HOME: join(dir, 'xdg-config'), XDG_CACHE_HOME: join(dir, 'xdg-cache') },
  };
}

export function workbenchUrl(serverUrl, folder) {
  return `${serverUrl.replace(/\/$/, '')}/?folder=${encodeURIComponent(folder)}`;
}

/**
 * smokeTestDriver: lets the workbench take `payload` from its URL (extensionDevelopmentPath,
 * extensionTestsPath, extensionEnvironment); a built VS Code ignores it otherwise.
 */
export async function startCodeServer({ processes, tools, dir, logFile, smokeTestDriver = false }) {
  const args = [
    tools.codeServerEntry,
    '--config',
    join(dir, 'config.yaml'), // otherwise it writes one into ~/.config
    '--auth',
    'none',
    '--bind-addr',
    '127.0.0.1:0',
    '--user-data-dir',
    join(dir, 'user-data'),
    '--extensions-dir',
    join(dir, 'extensions'),
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-workspace-trust',
    '--disable-getting-started-override',
    '--ignore-last-opened',
  ];
  if (smokeTestDriver) args.push('--vscode-option', 'enable-smoke-test-driver');
  const entry = processes.start('code-server', tools.node, args, {
    logFile,
    env: codeServerEnv(dir),
  });
  const [, url] = await processes.waitForOutput(entry, /HTTP server listening on (http:\/\/127\.0\.0\.1:\d+)/, 60_000);
  return {
    url,
    stop: async () => {
      if (entry.exited) return;
      try {
        process.kill(-entry.child.pid, 'SIGTERM');
      } catch {
        /* gone */
      }
      await processes.waitForExit(entry, 10_000).catch(() => {
        try {
          process.kill(-entry.child.pid, 'SIGKILL');
        } catch {
          /* gone */
        }
      });
    },
  };
}
