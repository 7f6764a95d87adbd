// The extension inside a real VS Code extension host: lazy activation, the undici global dispatcher left
// alone, every contributed command registered, the views loading from a local platform started here on
// 127.0.0.1:0, and commands that change the platform. Run by `npm run test:vscode` (downloaded VS Code) and,
// offline, by `npm run test:e2e` (code-server's VS Code).
import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { Channel } from '../../src/api/types';
import { DEMO_NAMES } from '../../src/localPlatform/demo/demo';
import { startLocalPlatform, type LocalPlatform } from '../../src/localPlatform/server';
import { eventually } from '../helpers/eventually';
import { platformCall, type Credentials } from './platformCalls';

const EXTENSION_ID = 'video-platform-tools.video-platform-tools';
const DISPATCHER = Symbol.for('undici.globalDispatcher.1');
const dispatcher = (): unknown => (globalThis as Record<symbol, unknown>)[DISPATCHER];

function templateGroup(name: string): Record<string, unknown> {
  return {
    name,
    type: 0,
    trailor: false,
    trailorDuration: 0,
    logoGroupId: 0,
    transcodeTemplates: [
      {
        name: '720p',
        videoWidth: 1280,
        videoHeight: 720,
        videoBitrate: 2500,
        audioBitrate: 128000,
        format: 0,
        encryptType: 0,
        defaultVideo: 1,
      },
    ],
  };
}

describe('Video Platform Tools in the extension host', function () {
  this.timeout(60_000);
  let platform: LocalPlatform;
  let dataDir: string;
  let credentials: Credentials;
  const requests: Array<{ action: string; code: number }> = [];
  let extension: vscode.Extension<unknown>;
  let dispatcherBefore: unknown;

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'vpt-host-suite-'));
    const account = { accessKey: 'host-suite-access', secretKey: randomBytes(16).toString('hex') };
    platform = await startLocalPlatform({
      dataDir,
      accounts: [account],
      demo: true,
      port: 0,
      clockSpeed: 50,
      onRequest: (entry) => requests.push({ action: entry.action, code: entry.code }),
    });
    credentials = { baseUrl: platform.baseUrl, ...account };
  });

  after(async () => {
    await platform?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  async function channelNamed(name: string): Promise<Channel> {
    const page = await platformCall<Channel[]>(credentials, 'liveGetChannelsByPage', 'GET', {
      start: '1',
      number: '100',
      name,
    });
    const channel = page.find((c) => c.name === name);
    assert.ok(channel, `demo channel "${name}" not found on the local platform`);
    return channel;
  }

  it('is installed and stays inactive until one of its views or commands is used', () => {
    const found = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(found, `${EXTENSION_ID} is not loaded`);
    extension = found;
    assert.equal(extension.isActive, false, 'the extension activated before anything asked for it');
    const events = (extension.packageJSON as { activationEvents?: string[] }).activationEvents ?? [];
    assert.ok(
      !events.includes('*') && !events.includes('onStartupFinished'),
      `eager activation events: ${events.join(', ')}`,
    );
  });

  it("activates with the account from VIDEO_PLATFORM_DEV_* and leaves undici's global dispatcher alone", async () => {
    // What `npm start` does: the extension reads these on activation and makes that account active.
    process.env.VIDEO_PLATFORM_DEV_BASE_URL = credentials.baseUrl;
    process.env.VIDEO_PLATFORM_DEV_ACCESS_KEY = credentials.accessKey;
    process.env.VIDEO_PLATFORM_DEV_SECRET_KEY = credentials.secretKey;
    dispatcherBefore = dispatcher();
    await extension.activate();
    assert.equal(extension.isActive, true);
    assert.equal(dispatcher(), dispatcherBefore, 'activation replaced (or created) the global undici dispatcher');
  });

  it('registers every command its manifest contributes', async () => {
    const contributed = (
      extension.packageJSON as { contributes: { commands: Array<{ command: string }> } }
    ).contributes.commands.map((c) => c.command);
    const registered = new Set(await vscode.commands.getCommands(true));
    const missing = contributed.filter((id) => !registered.has(id));
    assert.deepEqual(missing, [], `contributed but not registered: ${missing.join(', ')}`);
    for (const id of [
      'videoPlatform.addAccount',
      'videoPlatform.connectLocalPlatform',
      'videoPlatform.startChannel',
      'videoPlatform.stopChannel',
      'videoPlatform.transcodeVideos',
      'videoPlatform.refreshChannels',
      'videoPlatform.refreshVideos',
    ]) {
      assert.ok(contributed.includes(id), `${id} is not contributed`);
    }
  });

  it('shows the Video Platform views, which load channels and videos from the platform with signed requests', async () => {
    requests.length = 0;
    await vscode.commands.executeCommand('workbench.view.extension.videoPlatform');
    await vscode.commands.executeCommand('videoPlatform.refreshChannels');
    await vscode.commands.executeCommand('videoPlatform.refreshVideos');
    await eventually('a successful channel list request', async () =>
      requests.find((r) => r.action === 'liveGetChannelsByPage' && r.code === 0),
    );
    await eventually('a successful video list request', async () =>
      requests.find((r) => r.action === 'queryVideo' && r.code === 0),
    );
    const refused = requests.filter((r) => r.code !== 0);
    assert.deepEqual(refused, [], "the platform refused some of the extension's requests");
  });

  it('starts a stopped channel given by id, and the platform shows it live', async () => {
    const channel = await channelNamed(DEMO_NAMES.channels.stopped);
    assert.notEqual(channel.status, 2, 'the demo channel is already live');
    await vscode.commands.executeCommand('videoPlatform.startChannel', channel.id);
    const live = await eventually('the channel to be live', async () => {
      const now = await platformCall<Channel>(credentials, 'liveGetChannelById', 'GET', { id: channel.id });
      return now.status === 2 ? now : undefined;
    });
    assert.equal(live.name, DEMO_NAMES.channels.stopped);
  });

  it('does not stop a live channel when the confirmation cannot be given', async () => {
    // VS Code refuses to show modal dialogs to extension tests, so the confirmation is never given.
    const channel = await channelNamed(DEMO_NAMES.channels.stopped);
    assert.equal(channel.status, 2);
    // The command has finished when this resolves (it runs through the command wrapper, which awaits the handler).
    await Promise.resolve(vscode.commands.executeCommand('videoPlatform.stopChannel', channel.id)).catch(
      () => undefined,
    );
    const after = await platformCall<Channel>(credentials, 'liveGetChannelById', 'GET', { id: channel.id });
    assert.equal(after.status, 2, 'the channel was stopped without confirmation');
    assert.ok(!requests.some((r) => r.action === 'liveStopChannel'), 'a stop request reached the platform');
  });

  it('lists each problem once, with one severity, on open and after Validate', async () => {
    // Line 3: "type": 3 breaks the schema; the second template repeats the first one's name and format,
    // which only the extension's own rules see.
    const group = templateGroup('Mistake');
    const [first] = group.transcodeTemplates as Array<Record<string, unknown>>;
    group.type = 3;
    group.transcodeTemplates = [first, { ...first, videoBitrate: 1800, defaultVideo: 0 }];
    const file = join(dataDir, 'mistake.templategroup.json');
    writeFileSync(file, JSON.stringify(group, null, 2));
    const uri = vscode.Uri.file(file);
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
    const ours = (): vscode.Diagnostic[] =>
      vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'Video Platform');
    const onTypeLine = (): vscode.Diagnostic[] =>
      vscode.languages.getDiagnostics(uri).filter((d) => d.range.start.line === 2);
    const live = await eventually('Video Platform problems on the file', async () =>
      ours().some((d) => d.range.start.line === 2) ? ours() : undefined,
    );
    const repeated = live.find((d) => /repeats the name "720p"/.test(d.message));
    assert.ok(
      repeated,
      `no problem about the repeated template name; problems: ${live.map((d) => `${d.range.start.line + 1}: ${d.message}`).join(' | ')}`,
    );
    assert.match(repeated.message, /transcodeTemplates/);
    // The schema problem is the extension's, as an error; VS Code's JSON check reads the schema copy without
    // checks (schemas/editor/), so it does not list it a second time.
    const listed = (list: vscode.Diagnostic[]): string => list.map((d) => `${d.source}: ${d.message}`).join(' | ');
    assert.equal(onTypeLine().length, 1, listed(onTypeLine()));
    assert.equal(onTypeLine()[0]!.severity, vscode.DiagnosticSeverity.Error);
    assert.match(onTypeLine()[0]!.message, /Use 0 \(normal\) or 1 \(VR\)/);

    // Not awaited: the command resolves only when its notification is dismissed.
    void Promise.resolve(vscode.commands.executeCommand('videoPlatform.validateDocument', uri)).catch(() => undefined);
    // Validate publishes the same problems again: there is no change to wait for, so give it a moment first.
    await new Promise((resolve) => setTimeout(resolve, 500));
    await eventually('the same problems after Validate', async () =>
      ours().length === live.length ? true : undefined,
    );
    assert.equal(onTypeLine().length, 1, listed(onTypeLine()));
    assert.equal(onTypeLine()[0]!.severity, vscode.DiagnosticSeverity.Error);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('creates a template group on the platform from a valid file and writes its id back', async () => {
    const name = `Host suite ladder ${Date.now()}`;
    const file = join(dataDir, 'ladder.templategroup.json');
    writeFileSync(file, JSON.stringify(templateGroup(name), null, 2) + '\n');
    const uri = vscode.Uri.file(file);
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
    await vscode.commands.executeCommand('videoPlatform.createOrUpdateFromDocument', uri);
    const groups = await platformCall<Array<{ id: number; name: string }>>(credentials, 'templateGroupList', 'GET');
    const created = groups.find((g) => g.name === name);
    assert.ok(created, `no template group named "${name}" on the platform`);
    const written = await eventually('the id written back into the file', async () => {
      const value = JSON.parse(readFileSync(file, 'utf8')) as { id?: number | string };
      return value.id !== undefined ? value : undefined;
    });
    assert.equal(Number(written.id), created.id);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('compares a template group file with the platform in the diff editor, both sides read-only', async () => {
    const name = `Host suite compare ${Date.now()}`;
    const id = await platformCall<number>(credentials, 'templateGroup', 'POST', {
      name,
      type: '0',
      trailor: 'false',
      trailorDuration: '0',
      logoGroupId: '0',
      transcodeTemplates: JSON.stringify(templateGroup(name).transcodeTemplates),
    });
    const file = join(dataDir, 'compare.templategroup.json');
    writeFileSync(file, JSON.stringify({ ...templateGroup(`${name} (edited)`), id: Number(id) }, null, 2) + '\n');
    const uri = vscode.Uri.file(file);
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
    await vscode.commands.executeCommand('videoPlatform.compareWithPlatform', uri);
    const diff = await eventually('a diff editor', async () => {
      const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
      return input instanceof vscode.TabInputTextDiff ? input : undefined;
    });
    assert.equal(diff.original.scheme, 'videoplatform-compare');
    assert.equal(diff.modified.scheme, 'videoplatform-compare');
    const left = (await vscode.workspace.openTextDocument(diff.original)).getText();
    const right = (await vscode.workspace.openTextDocument(diff.modified)).getText();
    assert.match(left, new RegExp(`"name": "${name} \\(edited\\)"`));
    assert.match(right, new RegExp(`"name": "${name}"`));
    assert.ok(!/userId|defaultGroup/.test(right), 'read-only fields are left out');
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('creates a channel from a file, writes its id back, and does not then report that id as unknown', async () => {
    const templates = await platformCall<Array<{ id: string }>>(credentials, 'liveGetTemplates', 'GET');
    const name = `Host suite channel ${randomBytes(3).toString('hex')}`;
    const file = join(dataDir, 'hand.channel.json');
    const definition = {
      name,
      signalType: '1',
      liveType: 0,
      outputGroupList: [{ protocolType: 1, outputTemplateList: [{ templateId: templates[0].id, isDefault: '1' }] }],
    };
    writeFileSync(file, JSON.stringify(definition, null, 2) + '\n');
    const uri = vscode.Uri.file(file);
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
    const ours = (): string[] =>
      vscode.languages
        .getDiagnostics(uri)
        .filter((d) => d.source === 'Video Platform')
        .map((d) => d.message);
    // Checked once before it exists: the account's channel list is fetched for the reference checks then.
    await vscode.commands.executeCommand('videoPlatform.validateDocument', uri);
    assert.deepEqual(ours(), []);
    await vscode.commands.executeCommand('videoPlatform.createOrUpdateFromDocument', uri);
    const created = await channelNamed(name);
    const written = await eventually('the id written back into the file', async () => {
      const value = JSON.parse(readFileSync(file, 'utf8')) as { id?: string };
      return value.id !== undefined ? value : undefined;
    });
    assert.equal(written.id, created.id);
    // The checks now know the new channel: its own id is not "no channel with id ...".
    await vscode.commands.executeCommand('videoPlatform.validateDocument', uri);
    assert.deepEqual(ours(), []);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('opens a live channel as an editable *.channel.json document', async () => {
    const channel = await channelNamed(DEMO_NAMES.channels.live);
    await vscode.commands.executeCommand('videoPlatform.openChannelAsFile', { kind: 'channel', channel });
    const editor = await eventually('an editor with the channel document', async () => {
      const active = vscode.window.activeTextEditor;
      return active && active.document.fileName.endsWith('.channel.json') ? active : undefined;
    });
    const value = JSON.parse(editor.document.getText()) as { id?: string; name?: string };
    assert.equal(value.id, channel.id);
    assert.equal(value.name, channel.name);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  it('still has the same global dispatcher after its requests', () => {
    assert.equal(dispatcher(), dispatcherBefore, 'the extension replaced the global undici dispatcher while working');
  });
});
