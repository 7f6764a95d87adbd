import { Codes } from '../../src/api/errorCodes';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import {
  addAccount,
  connectLocalPlatform,
  editAccount,
  removeAccount,
  switchAccount,
} from '../../src/app/accounts/accountCommands';
import { accountContextKeys, accountStatus } from '../../src/app/accounts/accountContext';
import { AccountStore } from '../../src/app/accounts/accountStore';
import { Connection, isLoopback, noAccountMessage } from '../../src/app/accounts/connection';
import { applyDevEnvironment, DEV_ACCOUNT_NAME } from '../../src/app/accounts/devAccount';
import { LOCAL_PORT_KEY } from '../../src/app/accounts/localPlatformHost';
import { ChannelNode } from '../../src/app/tree/nodes';
import { findMediaTools } from '../../src/media/tools';
import { CaptureServer, ok, sendJson } from '../api/captureServer';
import { eventually } from '../helpers/eventually';
import { startFaultyServer } from './helpers/faultyServer';
import { createHarness, MemoryLog, MemorySecrets, MemoryState, type Harness } from './helpers/harness';
import { ACCESS_KEY, SECRET_KEY, startTestPlatform, type TestPlatform } from './helpers/platform';
import { accept, choose, decline, dismissPick, type } from './helpers/scriptedUi';

describe('Accounts and connection', () => {
  let platform: TestPlatform;
  let harness: Harness;

  before(async () => {
    platform = await startTestPlatform();
  });
  after(async () => platform.close());
  afterEach(async () => harness?.dispose());

  describe('AccountStore', () => {
    it('keeps the secret only in secret storage', async () => {
      const state = new MemoryState();
      const secrets = new MemorySecrets();
      const store = new AccountStore(state, secrets);
      const profile = await store.add(
        { name: 'Prod', baseUrl: 'https://api.example.com', accessKey: 'ak' },
        'very-secret',
      );
      assert.ok(!JSON.stringify([...state.values]).includes('very-secret'));
      assert.equal(await store.secretKey(profile.id), 'very-secret');
      await store.remove(profile.id);
      assert.equal(secrets.values.size, 0);
      assert.deepEqual(store.list(), []);
    });

    it('refuses bad fields with the field and the rule, changing nothing', async () => {
      const state = new MemoryState();
      const store = new AccountStore(state, new MemorySecrets());
      await assert.rejects(
        store.add({ name: 'X', baseUrl: 'ftp://host', accessKey: 'ak' }, 's'),
        /Base URL must start with http:\/\/ or https:\/\//,
      );
      await assert.rejects(
        store.add({ name: 'X', baseUrl: 'https://h?x=1', accessKey: 'ak' }, 's'),
        /Base URL must not contain a query string/,
      );
      await assert.rejects(
        store.add({ name: ' ', baseUrl: 'https://h', accessKey: 'ak' }, 's'),
        /Account name must not be empty/,
      );
      await assert.rejects(
        store.add({ name: 'X', baseUrl: 'https://h', accessKey: 'a k' }, 's'),
        /Access key must not contain spaces/,
      );
      assert.equal(state.values.size, 0);
      const first = await store.add({ name: 'X', baseUrl: 'https://h', accessKey: 'ak' }, 's');
      await assert.rejects(
        store.add({ name: 'x', baseUrl: 'https://h', accessKey: 'ak' }, 's'),
        /An account named "x" already exists/,
      );
      await assert.rejects(store.update(first.id, { baseUrl: 'nope' }), /Base URL must be an absolute address/);
      assert.equal(store.get(first.id)?.baseUrl, 'https://h');
    });
  });

  describe('Connection', () => {
    it('reaches a platform on this machine directly even when VS Code has a proxy set', async () => {
      // A proxy address where nothing listens: a request sent through it would fail to connect.
      const deadProxyPort = await new Promise<number>((resolve) => {
        const server = createServer().listen(0, '127.0.0.1', () => {
          const { port } = server.address() as { port: number };
          server.close(() => resolve(port));
        });
      });
      const store = new AccountStore(new MemoryState(), new MemorySecrets());
      const connection = new Connection({
        store,
        log: new MemoryLog(),
        clientOptions: () => ({ retry: { attempts: 1 }, proxy: `http://127.0.0.1:${deadProxyPort}` }),
      });
      try {
        const local = await store.add(
          { name: 'Local', baseUrl: platform.platform.baseUrl, accessKey: ACCESS_KEY },
          SECRET_KEY,
        );
        await connection.switchTo(local.id);
        const categories = await (await connection.activeClient()).liveChannelTypeList();
        assert.ok(Array.isArray(categories));
      } finally {
        await connection.dispose();
      }
      assert.equal(isLoopback('http://127.0.0.1:8790'), true);
      assert.equal(isLoopback('http://localhost:8790/'), true);
      assert.equal(isLoopback('http://[::1]:8790'), true);
      assert.equal(isLoopback('https://api.example.com'), false);
      assert.equal(isLoopback('http://127.example.com'), false);
    });

    it('says how to set an account up when none is active', async () => {
      harness = await createHarness();
      await assert.rejects(harness.connection.activeClient(), (error: Error) => error.message === noAccountMessage());
      assert.match(noAccountMessage(), /^No Video Platform account is set: /);
    });

    it('logs every request (action, parameters, duration, code) and never the secret', async () => {
      harness = await createHarness({
        account: { baseUrl: platform.platform.baseUrl, accessKey: ACCESS_KEY, secretKey: SECRET_KEY },
      });
      await harness.channels.getChildren();
      const line = harness.log.lines.find((entry) => entry.includes('liveGetChannelsByPage'));
      assert.ok(line, harness.log.text());
      assert.match(line, /^info GET liveGetChannelsByPage code 0 in \d+ ms \[.*start=1.*number=50/);
      assert.ok(!harness.log.text().includes(SECRET_KEY));
    });

    it("keeps a client for a non-active account (a document's), made again once that account is edited", async () => {
      harness = await createHarness({
        account: { baseUrl: platform.platform.baseUrl, accessKey: ACCESS_KEY, secretKey: SECRET_KEY, name: 'One' },
      });
      const one = harness.store.activeId();
      const two = await harness.store.add(
        { name: 'Two', baseUrl: platform.platform.baseUrl, accessKey: ACCESS_KEY },
        'not-the-secret',
      );
      const before = await harness.connection.clientFor(two.id);
      assert.equal(await harness.connection.clientFor(two.id), before, 'one client per account');
      await assert.rejects(before.liveChannelTypeList(), /signature/);

      harness.ui.script(choose('Two'), choose('Secret key'), type(SECRET_KEY));
      await harness.run(editAccount);
      await assert.rejects(before.liveChannelTypeList(), /closed/i, 'the client with the old secret is closed');
      const after = await harness.connection.clientFor(two.id);
      assert.notEqual(after, before);
      assert.ok(Array.isArray(await after.liveChannelTypeList()), 'the new secret is used');
      assert.equal(harness.store.activeId(), one, 'the active account stays');
    });

    it('sends uploads to the upload base URL set by Edit Account, and back to the base URL once it is cleared', async () => {
      harness = await createHarness({
        account: { baseUrl: platform.platform.baseUrl, accessKey: ACCESS_KEY, secretKey: SECRET_KEY, name: 'Real' },
      });
      // The upload host of the real service is another server: here a loopback stand-in that records what it gets.
      const uploads = await CaptureServer.start((_request, res) =>
        sendJson(res, ok([{ videoId: 'f'.repeat(32), fileName: 'clip.mp4', thumbnail: '', status: 0 }])),
      );
      const dir = await mkdtemp(join(tmpdir(), 'vp-upload-'));
      try {
        const file = join(dir, 'clip.mp4');
        await writeFile(file, Buffer.alloc(2048, 1));
        harness.ui.script(choose('Real'), choose('Upload base URL'), type('ftp://uploads.example.com'));
        // Refused with the field and the rule named, and nothing saved.
        assert.equal(await harness.run(editAccount), undefined);
        assert.match(harness.ui.errors.join('\n'), /Upload base URL: Base URL must start with http/);
        assert.equal(harness.store.list()[0]!.uploadBaseUrl, undefined);
        harness.ui.script(choose('Real'), choose('Upload base URL'), type(` ${uploads.baseUrl} `));
        const edited = await harness.run(editAccount);
        assert.equal(edited?.uploadBaseUrl, uploads.baseUrl);

        const client = await harness.connection.activeClient();
        await client.uploadVideo({ file });
        assert.deepEqual(
          uploads.requests.map((request) => `${request.method} ${request.path}`),
          ['POST /multipart/upload'],
        );
        assert.match(uploads.requests[0]!.body, /name="token"/, 'the token from getToken on the base URL');

        harness.ui.script(choose('Real'), choose('Upload base URL'), type(''));
        const cleared = await harness.run(editAccount);
        assert.equal(cleared?.uploadBaseUrl, undefined);
        const answer = await (
          await harness.connection.activeClient()
        )
          .uploadVideo({ file })
          .catch((error: Error) => error);
        // Back on the local platform (which simulates media here): refused there, and nothing more at the stand-in.
        assert.ok(answer instanceof Error, 'the local platform answered the upload');
        assert.equal(uploads.requests.length, 1);
      } finally {
        await uploads.close();
        await rm(dir, { recursive: true, force: true });
      }
    });

    it('switching accounts bumps the epoch, closes the old client and clears the views', async () => {
      harness = await createHarness({
        account: { baseUrl: platform.platform.baseUrl, accessKey: ACCESS_KEY, secretKey: SECRET_KEY },
      });
      const before = await harness.connection.activeClient();
      const loaded = await harness.channels.getChildren();
      assert.ok(loaded.some((node) => node instanceof ChannelNode));
      const epoch = harness.connection.epoch;
      await harness.connection.switchTo(undefined);
      assert.equal(harness.connection.epoch, epoch + 1);
      assert.deepEqual(await harness.channels.getChildren(), [], 'no stale items once no account is active');
      await assert.rejects(before.liveChannelTypeList(), /closed/i);
    });
  });

  describe('account commands', () => {
    it('adds an account, checks it against the platform and makes it active', async () => {
      harness = await createHarness();
      harness.ui.script(type('Local test'), type(platform.platform.baseUrl), type(ACCESS_KEY), type(SECRET_KEY));
      const profile = await harness.run(addAccount);
      assert.ok(profile);
      assert.equal(harness.store.activeId(), profile.id);
      assert.equal(harness.ui.asked[3]!.input?.password, true, 'the secret key is asked for masked');
      assert.deepEqual(harness.ui.errors, []);
      assert.match(harness.ui.infos[0]!, /Connected to "Local test"/);
      assert.ok(!harness.ui.everythingShown().includes(SECRET_KEY));
    });

    it('does not save an account whose check fails: the secret key is fixed right there, then it is saved', async () => {
      harness = await createHarness();
      harness.ui.script(
        type('Wrong'),
        type(platform.platform.baseUrl),
        type(ACCESS_KEY),
        type('not-the-secret'),
        choose('Enter the secret key again'),
        type(SECRET_KEY),
      );
      const profile = await harness.run(addAccount);
      assert.ok(profile);
      const fix = harness.ui.asked[4]!;
      assert.equal(fix.kind, 'pick');
      assert.match(
        fix.title,
        new RegExp(
          `^Checking account "Wrong" failed: The request signature does not match: check the secret key\\. \\(liveChannelTypeList: code ${Codes.signatureIncorrect}`,
        ),
      );
      assert.equal(harness.ui.asked[5]!.input?.password, true, 'the new secret key is asked for masked');
      assert.equal(harness.store.activeId(), profile.id);
      assert.equal(await harness.store.secretKey(profile.id), SECRET_KEY, 'the fixed secret is the one saved');
      assert.match(harness.ui.infos.at(-1)!, /Connected to "Wrong"/);
      assert.deepEqual(harness.ui.errors, []);
      assert.ok(!harness.ui.everythingShown().includes('not-the-secret'));
      assert.ok(!harness.ui.everythingShown().includes(SECRET_KEY));
      assert.ok(!harness.log.text().includes(SECRET_KEY));
    });

    it('an unreachable platform: the base URL is fixed right there, or Cancel saves nothing', async () => {
      const closedPort = await new Promise<number>((resolve) => {
        const server = createServer().listen(0, '127.0.0.1', () => {
          const { port } = server.address() as { port: number };
          server.close(() => resolve(port));
        });
      });
      const unreachable = `http://127.0.0.1:${closedPort}`;
      harness = await createHarness({
        account: { baseUrl: platform.platform.baseUrl, accessKey: ACCESS_KEY, secretKey: SECRET_KEY, name: 'First' },
      });
      const first = harness.store.activeId();

      harness.ui.script(
        type('Nowhere'),
        type(unreachable),
        type(ACCESS_KEY),
        type(SECRET_KEY),
        choose('Check again'),
        choose('Cancel'),
      );
      assert.equal(await harness.run(addAccount), undefined);
      assert.match(harness.ui.asked[4]!.title, /^Checking account "Nowhere" failed: /);
      assert.equal(harness.ui.asked[5]!.kind, 'pick', 'Check again checks again and, failing, asks again');
      assert.deepEqual(
        harness.store.list().map((account) => account.name),
        ['First'],
        'nothing saved',
      );
      assert.equal(harness.store.activeId(), first, 'the active account stays');
      assert.equal(harness.secrets.values.size, 1, 'no secret stored for the cancelled account');

      // Dismissing the question is a cancel too.
      harness.ui.script(type('Nowhere'), type(unreachable), type(ACCESS_KEY), type(SECRET_KEY), dismissPick());
      assert.equal(await harness.run(addAccount), undefined);
      assert.equal(harness.store.list().length, 1);

      // Fixed right there: the base URL asked again, prefilled with the wrong one.
      harness.ui.script(
        type('Reachable'),
        type(unreachable),
        type(ACCESS_KEY),
        type(SECRET_KEY),
        choose('Change the base URL'),
        type(platform.platform.baseUrl),
      );
      const fixed = await harness.run(addAccount);
      assert.equal(harness.ui.asked.at(-1)!.input?.value, unreachable);
      assert.equal(fixed?.baseUrl, platform.platform.baseUrl);
      assert.equal(harness.store.activeId(), fixed?.id);
    });

    it('a check that hangs: its timeout is the reason offered for fixing; cancelling the check saves nothing, quietly', async () => {
      const faulty = await startFaultyServer(platform.platform.baseUrl);
      try {
        faulty.hang.add('liveChannelTypeList');
        harness = await createHarness({ timeoutMs: 300 });
        harness.ui.script(type('Slow'), type(faulty.baseUrl), type(ACCESS_KEY), type(SECRET_KEY), choose('Cancel'));
        assert.equal(await harness.run(addAccount), undefined);
        assert.match(
          harness.ui.asked[4]!.title,
          /^Checking account "Slow" failed: liveChannelTypeList: http:\/\/127\.0\.0\.1:\d+\/rest did not answer within 0\.3 s/,
        );
        await harness.dispose();

        harness = await createHarness({ timeoutMs: 10_000 });
        harness.ui.cancelAfterMs = 50;
        harness.ui.script(type('Slow'), type(faulty.baseUrl), type(ACCESS_KEY), type(SECRET_KEY));
        assert.equal(await harness.run(addAccount), undefined);
        assert.deepEqual(harness.store.list(), [], 'nothing saved');
        assert.deepEqual([harness.ui.errors, harness.ui.warnings], [[], []], 'nothing alarming');
        assert.match(harness.log.text(), /not saved: its check was cancelled/);
      } finally {
        await faulty.close();
      }
    });

    it('editing an account checks the new base URL before saving; Cancel keeps the old one', async () => {
      harness = await createHarness({
        account: { baseUrl: platform.platform.baseUrl, accessKey: ACCESS_KEY, secretKey: SECRET_KEY, name: 'One' },
      });
      const id = harness.store.activeId()!;
      const epoch = harness.connection.epoch;
      harness.ui.script(choose('One'), choose('Base URL'), type('http://127.0.0.1:9'), choose('Cancel'));
      assert.equal(await harness.run(editAccount), undefined);
      assert.equal(harness.store.get(id)!.baseUrl, platform.platform.baseUrl, 'unchanged');
      assert.equal(harness.connection.epoch, epoch, 'the connection is not started over');

      // Saved unchecked on purpose: said so.
      harness.ui.script(choose('One'), choose('Base URL'), type('http://127.0.0.1:9'), choose('Save it unchecked'));
      await harness.run(editAccount);
      assert.equal(harness.store.get(id)!.baseUrl, 'http://127.0.0.1:9');
      assert.match(harness.ui.warnings.at(-1)!, /saved without a working check/);
    });

    it('refuses a bad base URL, naming the rule, and adds nothing', async () => {
      harness = await createHarness();
      harness.ui.script(type('Bad'), type('localhost:8790'));
      assert.equal(await harness.run(addAccount), undefined);
      assert.match(harness.ui.errors[0]!, /Base URL must/);
      assert.deepEqual(harness.store.list(), []);
      // The input box shows the same rule while typing.
      assert.match(harness.ui.asked[1]!.input!.validate!('localhost:8790') ?? '', /Base URL/);
    });

    it('switches, edits and removes accounts', async () => {
      harness = await createHarness({
        account: { baseUrl: platform.platform.baseUrl, accessKey: ACCESS_KEY, secretKey: SECRET_KEY, name: 'One' },
      });
      const two = await harness.store.add(
        { name: 'Two', baseUrl: platform.platform.baseUrl, accessKey: ACCESS_KEY },
        SECRET_KEY,
      );
      harness.ui.script(choose('Two'));
      await harness.run(switchAccount);
      assert.equal(harness.store.activeId(), two.id);

      const epoch = harness.connection.epoch;
      harness.ui.script(choose('Two'), choose('Secret key'), type('new-secret'), choose('Save it unchecked'));
      await harness.run(editAccount);
      assert.equal(await harness.store.secretKey(two.id), 'new-secret');
      assert.equal(harness.connection.epoch, epoch + 1, 'editing the active account starts it over');
      await assert.rejects(harness.channels.refreshChannel('0'.repeat(32)), /signature/);

      harness.ui.script(choose('Two'), decline());
      await harness.run(removeAccount);
      assert.ok(harness.store.get(two.id));
      harness.ui.script(choose('Two'), accept());
      await harness.run(removeAccount);
      assert.equal(harness.store.get(two.id), undefined);
      assert.equal(harness.store.activeId(), undefined);
      assert.match(harness.ui.asked.at(-1)!.title, /Remove the account "Two"\?/);
    });

    it('keeps "has any account" current apart from "has an active account", so Switch, Edit and Remove stay offered without an active one', async () => {
      harness = await createHarness({
        account: { baseUrl: platform.platform.baseUrl, accessKey: ACCESS_KEY, secretKey: SECRET_KEY, name: 'One' },
      });
      const seen: Array<Record<string, boolean>> = [];
      harness.store.onDidChange(() => seen.push(accountContextKeys(harness.store)));
      const keys = (): Record<string, boolean> => accountContextKeys(harness.store);
      assert.deepEqual(keys(), {
        'videoPlatform.hasAccount': true,
        'videoPlatform.hasAnyAccount': true,
        'videoPlatform.localAccountActive': false,
      });

      const two = await harness.store.add(
        { name: 'Two', baseUrl: platform.platform.baseUrl, accessKey: ACCESS_KEY },
        SECRET_KEY,
      );
      assert.equal(seen.length, 1, 'adding a profile that does not become active is a change too');
      // Removing the active account leaves "Two" without any active account.
      harness.ui.script(choose('One'), accept());
      await harness.run(removeAccount);
      assert.deepEqual(seen.at(-1), {
        'videoPlatform.hasAccount': false,
        'videoPlatform.hasAnyAccount': true,
        'videoPlatform.localAccountActive': false,
      });
      assert.equal(
        accountStatus(harness.store).command,
        'videoPlatform.switchAccount',
        'the status bar offers to choose one',
      );
      assert.match(accountStatus(harness.store).text, /no active account/);

      // Edit works on the inactive account, and Switch makes it active.
      harness.ui.script(choose('Two'), choose('Name'), type('Second'));
      assert.equal((await harness.run(editAccount))?.name, 'Second');
      assert.equal(accountStatus(harness.store).command, 'videoPlatform.switchAccount');
      harness.ui.script(choose('Second'));
      await harness.run(switchAccount);
      assert.deepEqual(seen.at(-1), {
        'videoPlatform.hasAccount': true,
        'videoPlatform.hasAnyAccount': true,
        'videoPlatform.localAccountActive': false,
      });
      assert.match(accountStatus(harness.store).text, /Second/);

      harness.ui.script(choose('Second'), accept());
      await harness.run(removeAccount);
      assert.equal(harness.store.get(two.id), undefined);
      assert.deepEqual(seen.at(-1), {
        'videoPlatform.hasAccount': false,
        'videoPlatform.hasAnyAccount': false,
        'videoPlatform.localAccountActive': false,
      });
      assert.equal(accountStatus(harness.store).command, 'videoPlatform.addAccount');
    });

    it('Switch, Edit and Remove with no account at all say so and offer to add one', async () => {
      harness = await createHarness();
      for (const command of [switchAccount, editAccount, removeAccount]) {
        assert.equal(await harness.run(command), undefined);
        assert.match(harness.ui.infos.at(-1)!, /there is no Video Platform account yet/);
        assert.deepEqual(harness.ui.infoActions.at(-1), ['Add Account', 'Connect to Local Platform']);
      }
      assert.deepEqual(harness.ui.asked, [], 'no empty pick');
      harness.ui.messageChoice = 'Add Account';
      harness.ui.script(type('Added'), type(platform.platform.baseUrl), type(ACCESS_KEY), type(SECRET_KEY));
      await harness.run(switchAccount);
      assert.equal(harness.store.active()?.name, 'Added');
    });

    it('npm start: adds, then updates, the account from the environment', async () => {
      const store = new AccountStore(new MemoryState(), new MemorySecrets());
      const log = new MemoryLog();
      const env = {
        VIDEO_PLATFORM_DEV_BASE_URL: 'http://127.0.0.1:1111',
        VIDEO_PLATFORM_DEV_ACCESS_KEY: 'dev-ak',
        VIDEO_PLATFORM_DEV_SECRET_KEY: 'dev-sk',
      };
      const id = await applyDevEnvironment(env, store, log);
      assert.ok(id);
      assert.equal(store.get(id)?.name, DEV_ACCOUNT_NAME);
      const again = await applyDevEnvironment(
        { ...env, VIDEO_PLATFORM_DEV_BASE_URL: 'http://127.0.0.1:2222', VIDEO_PLATFORM_DEV_SECRET_KEY: 'dev-sk2' },
        store,
        log,
      );
      assert.equal(again, id);
      assert.equal(store.list().length, 1);
      assert.equal(store.get(id)?.baseUrl, 'http://127.0.0.1:2222');
      assert.equal(await store.secretKey(id), 'dev-sk2');
      assert.equal(await applyDevEnvironment({ VIDEO_PLATFORM_DEV_BASE_URL: 'http://x' }, store, log), undefined);
      assert.match(log.text(), /VIDEO_PLATFORM_DEV_ACCESS_KEY, VIDEO_PLATFORM_DEV_SECRET_KEY not set/);
      assert.ok(!log.text().includes('dev-sk'));
    });
  });

  describe('Connect to Local Platform', () => {
    let storageDir: string;
    beforeEach(async () => {
      storageDir = await mkdtemp(join(tmpdir(), 'vp-storage-'));
    });
    afterEach(async () => {
      await harness?.dispose();
      await rm(storageDir, { recursive: true, force: true });
    });

    it('says plainly that live media is simulated without ffmpeg, and offers nothing to play on its channels', async () => {
      // The harness points videoPlatform.ffmpegPath at a folder without ffmpeg.
      harness = await createHarness({ storageDir });
      await harness.run(connectLocalPlatform);
      const pattern = (await harness.channels.getChildren()).find(
        (node): node is ChannelNode => node instanceof ChannelNode && node.channel.name === 'Test pattern',
      )!;
      const view = pattern.view();
      assert.match(view.description ?? '', /simulated live: needs ffmpeg/);
      assert.match(String(view.tooltip), /Simulated live: this local platform found no ffmpeg/);
      assert.doesNotMatch(view.contextValue, /\+hls/);
      const groups = await harness.channels.getChildren(pattern);
      assert.ok(groups.every((group) => group.view().contextValue.startsWith('outputGroup+simhls')));
      assert.match(accountStatus(harness.store, harness.host.mediaDescription).text, /simulated live: needs ffmpeg/);
    });

    it('starts the bundled platform with demo data under global storage, and closes it on dispose', async () => {
      harness = await createHarness({ storageDir });
      const accountId = await harness.run(connectLocalPlatform);
      assert.ok(accountId);
      const profile = harness.store.get(accountId)!;
      assert.equal(profile.name, 'Local platform');
      assert.match(profile.baseUrl, /^http:\/\/127\.0\.0\.1:\d+$/);
      assert.ok((await harness.store.secretKey(accountId))!.length >= 32, 'a random secret in secret storage');
      assert.ok(!JSON.stringify([...harness.state.values]).includes((await harness.store.secretKey(accountId))!));
      const names = (await harness.channels.getChildren()).map((node) => node.view().label);
      assert.ok(names.includes('Newsroom 24/7'), 'demo data on first run');
      const client = await harness.connection.activeClient();
      await harness.host.dispose();
      await assert.rejects(client.liveChannelTypeList(), /could not|refused|network|reset|closed/i);
    });

    it('keeps its port from one session to the next, and takes a free one when that port is taken', async () => {
      const state = new MemoryState();
      harness = await createHarness({ storageDir, state });
      const first = harness.store.get((await harness.run(connectLocalPlatform))!)!.baseUrl;
      const port = Number(new URL(first).port);
      assert.equal(state.get(LOCAL_PORT_KEY), port);
      await harness.dispose();

      // The next session (VS Code started again): the same address.
      harness = await createHarness({ storageDir, state });
      const again = harness.store.get((await harness.run(connectLocalPlatform))!)!.baseUrl;
      assert.equal(again, first);
      await harness.dispose();

      // Someone else took the port meanwhile: a free one, said in the log, and remembered.
      const squatter = createServer();
      await new Promise<void>((resolve) => squatter.listen(port, '127.0.0.1', resolve));
      try {
        harness = await createHarness({ storageDir, state });
        const moved = harness.store.get((await harness.run(connectLocalPlatform))!)!.baseUrl;
        assert.notEqual(moved, first);
        assert.deepEqual(harness.ui.errors, []);
        assert.match(harness.log.text(), new RegExp(`port ${port} is taken now; using a free one`));
        assert.equal(state.get(LOCAL_PORT_KEY), Number(new URL(moved).port));
        const names = (await harness.channels.getChildren()).map((node) => node.view().label);
        assert.ok(names.includes('Newsroom 24/7'), 'the same data on the new port');
      } finally {
        await new Promise((resolve) => squatter.close(resolve));
      }
    });

    it('says which media mode runs; simulated: why, how to get ffmpeg, and a button opening the setting', async () => {
      harness = await createHarness({ storageDir, ffmpegPath: join(storageDir, 'no-ffmpeg-here') });
      harness.ui.messageChoice = 'Set ffmpeg Path';
      await harness.run(connectLocalPlatform);
      const message = harness.ui.infos.at(-1) ?? '';
      assert.match(message, /Media: simulated media \(no ffmpeg in .*no-ffmpeg-here; install ffmpeg/);
      assert.match(message, /videoPlatform\.ffmpegPath/);
      assert.deepEqual(harness.ui.infoActions.at(-1), ['Set ffmpeg Path']);
      await eventually('the setting to open', () => harness.ui.settingsOpened.length > 0);
      assert.deepEqual(harness.ui.settingsOpened, ['videoPlatform.ffmpegPath']);
      assert.match(harness.log.text(), /Local platform listening at http:\/\/127\.0\.0\.1:\d+; media: simulated media/);
      // The status bar's tooltip says it too, for the local account only.
      assert.match(accountStatus(harness.store, harness.host.mediaDescription).tooltip, /Media: simulated media/);
    });

    it('runs real media with ffmpeg from the setting (or the PATH), and says so', async function () {
      const tools = await findMediaTools({});
      if (tools.kind !== 'real') this.skip();
      harness = await createHarness({ storageDir, ffmpegPath: dirname(tools.tools.ffmpeg) });
      await harness.run(connectLocalPlatform);
      assert.match(harness.ui.infos.at(-1) ?? '', /Media: real media \(ffmpeg \S+/);
      assert.deepEqual(harness.ui.infoActions.at(-1), []);
      assert.equal((await harness.host.mediaMode())?.mode.kind, 'real');
    });

    it('restarts the local platform on demand for its account (after VS Code restarted)', async () => {
      harness = await createHarness({ storageDir });
      const accountId = (await harness.run(connectLocalPlatform))!;
      await harness.host.dispose();
      harness.connection.restart();
      // Next use of the account starts it again (new port), with the same data.
      const channels = await harness.channels.getChildren();
      assert.ok(channels.some((node) => node.view().label === 'Newsroom 24/7'));
      assert.ok(harness.host.isRunning);
      assert.equal(harness.store.list().filter((account) => account.origin === 'local').length, 1);
      assert.equal(harness.store.activeId(), accountId);
    });
  });
});
