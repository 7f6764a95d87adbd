import assert from 'node:assert/strict';
import { PlatformClient } from '../../src/api/client';
import { chooseDocumentAccount } from '../../src/app/accounts/documentAccountCommands';
import { DocumentAccounts, documentAccountLens } from '../../src/app/accounts/documentAccounts';
import { AccountStore } from '../../src/app/accounts/accountStore';
import { createOrUpdateCommand, openChannelAsFileCommand } from '../../src/app/authoring/commands';
import { createHarness, MemorySecrets, MemoryState, type Harness } from './helpers/harness';
import { ACCESS_KEY, SECRET_KEY, startTestPlatform, type TestPlatform } from './helpers/platform';
import { choose } from './helpers/scriptedUi';

function templateGroup(name: string): string {
  return `${JSON.stringify(
    {
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
    },
    null,
    2,
  )}\n`;
}

/** Two platforms, two accounts: a document stays with the account it came from, whichever is active. */
describe('Documents tied to an account', () => {
  let alpha: TestPlatform;
  let beta: TestPlatform;
  let alphaClient: PlatformClient;
  let betaClient: PlatformClient;
  let harness: Harness;
  let alphaId: string;
  let betaId: string;

  before(async () => {
    [alpha, beta] = await Promise.all([startTestPlatform(), startTestPlatform()]);
    alphaClient = new PlatformClient({ baseUrl: alpha.platform.baseUrl, accessKey: ACCESS_KEY, secretKey: SECRET_KEY });
    betaClient = new PlatformClient({ baseUrl: beta.platform.baseUrl, accessKey: ACCESS_KEY, secretKey: SECRET_KEY });
  });
  after(async () => {
    await Promise.all([alphaClient.close(), betaClient.close()]);
    await Promise.all([alpha.close(), beta.close()]);
  });
  beforeEach(async () => {
    harness = await createHarness({
      account: { baseUrl: alpha.platform.baseUrl, accessKey: ACCESS_KEY, secretKey: SECRET_KEY, name: 'Alpha' },
    });
    alphaId = harness.store.activeId()!;
    betaId = (
      await harness.store.add({ name: 'Beta', baseUrl: beta.platform.baseUrl, accessKey: ACCESS_KEY }, SECRET_KEY)
    ).id;
  });
  afterEach(() => harness.dispose());

  it('a channel opened as a file from Alpha is checked against and sent to Alpha while Beta is active', async () => {
    const [template] = await alphaClient.liveGetTemplates();
    const channel = await alphaClient.liveCreateChannel({
      name: `Alpha only ${Date.now()}`,
      signalType: '1',
      outputGroupList: [{ protocolType: 1, outputTemplateList: [{ templateId: template!.id, isDefault: '1' }] }],
    });
    await harness.run(openChannelAsFileCommand, { node: channel!.id });
    const document = harness.editor.documents[0]!;
    assert.equal(harness.ctx.documentAccounts.accountOf(document.uri)?.name, 'Alpha');

    await harness.connection.switchTo(betaId);
    const lens = documentAccountLens(harness.ctx.documentAccounts.accountOf(document.uri), harness.store.active());
    assert.equal(lens.title, '$(account) Account: Alpha (the active account is Beta)');

    const renamed = `Renamed on Alpha ${Date.now()}`;
    document.content = document.content.replace(JSON.stringify(channel!.name), JSON.stringify(renamed));
    await harness.run(createOrUpdateCommand, { uri: document.uri });
    assert.deepEqual(harness.ui.errors, [], "Alpha's template ids are known: checked against Alpha's lists");
    assert.deepEqual(harness.diagnostics.problems.get(document.uri), []);
    assert.equal((await alphaClient.liveGetChannelById(channel!.id)).name, renamed, 'updated on Alpha');
    assert.match(harness.ui.infos.at(-1)!, /^Updated channel ".+" \(.+\) on account "Alpha"\.$/);
    assert.equal(harness.store.activeId(), betaId, 'the active account stays Beta');
    const onBeta = await betaClient.liveGetChannelsByPage({ searchType: 'name', keyword: renamed });
    assert.deepEqual(onBeta.channels, [], 'nothing sent to Beta');
  });

  it('a document from no account asks once which account, then remembers it', async () => {
    const name = `Ladder ${Date.now()}`;
    const document = harness.editor.open('/work/ladder.templategroup.json', templateGroup(name));
    assert.equal(
      documentAccountLens(undefined, harness.store.active()).title,
      '$(account) No account yet: set when first sent (click to choose one now)',
    );
    await harness.connection.switchTo(betaId);
    harness.ui.script(choose('Alpha'));
    await harness.run(createOrUpdateCommand, { uri: document.uri });
    assert.equal(harness.ui.asked[0]!.kind, 'pick');
    assert.match(harness.ui.asked[0]!.title, /^The account of ladder\.templategroup\.json$/);
    assert.match(harness.ui.asked[0]!.items![0]!.label, /^Beta$/, 'the active account first');
    assert.ok(
      (await alphaClient.templateGroupList()).some((group) => group.name === name),
      'created on Alpha',
    );
    assert.ok(!(await betaClient.templateGroupList()).some((group) => group.name === name), 'not on Beta');

    // Sent again (now an update, its id written back): no question.
    const asked = harness.ui.asked.length;
    await harness.run(createOrUpdateCommand, { uri: document.uri });
    assert.equal(harness.ui.asked.length, asked, 'not asked again');
    assert.deepEqual(harness.ui.errors, []);
    assert.match(harness.ui.infos.at(-1)!, /^Updated template group .* on account "Alpha"\.$/);

    // Its id is Alpha's: the same text tied to Beta names an id Beta does not have.
    const copy = harness.editor.open('/work/copy.templategroup.json', document.text());
    assert.deepEqual((await harness.diagnostics.validateFully(document, 'templategroup')).problems, []);
    await harness.ctx.documentAccounts.bind(copy.uri, betaId);
    const { problems } = await harness.diagnostics.validateFully(copy, 'templategroup');
    assert.equal(problems.length, 1, JSON.stringify(problems));
    assert.match(problems[0]!.message, /template group/i);

    // Moved to Beta on purpose (the CodeLens's command): from then on it goes there.
    harness.ui.script(choose('Beta'));
    await harness.run(chooseDocumentAccount, { uri: document.uri });
    assert.equal(harness.ctx.documentAccounts.accountOf(document.uri)?.id, betaId);
    assert.match(harness.ui.asked.at(-1)!.items!.find((item) => item.label.includes('Alpha'))!.label, /^\$\(check\)/);
  });

  it('with one account there is nothing to ask: the document goes to it and stays with it', async () => {
    await harness.store.remove(betaId);
    const name = `Single ${Date.now()}`;
    const document = harness.editor.open('/work/single.templategroup.json', templateGroup(name));
    await harness.run(createOrUpdateCommand, { uri: document.uri });
    assert.deepEqual(harness.ui.asked, []);
    assert.equal(harness.ctx.documentAccounts.accountOf(document.uri)?.id, alphaId);
  });

  it('switching accounts checks every open document again; the same account starting over does not', async () => {
    const before = harness.diagnostics.revalidations;
    harness.connection.restart();
    assert.equal(harness.diagnostics.revalidations, before);
    await harness.connection.switchTo(betaId);
    assert.equal(harness.diagnostics.revalidations, before + 1);
  });

  it('an untitled document saved as a file keeps its account; a removed account leaves it unbound', async () => {
    const state = new MemoryState();
    const store = new AccountStore(new MemoryState(), new MemorySecrets());
    const account = await store.add({ name: 'Kept', baseUrl: 'https://api.example.com', accessKey: 'ak' }, 'sk');
    const documents = new DocumentAccounts(state, store);
    await documents.bind('untitled:/work/News.channel.json', account.id);
    assert.equal(documents.accountOf('file:///work/News.channel.json')?.name, 'Kept');
    assert.equal(documents.accountOf('file:///work/Other.channel.json'), undefined);
    await documents.settle('file:///work/News.channel.json');
    assert.equal(documents.accountOf('untitled:/work/News.channel.json'), undefined, 'the untitled name is free again');
    assert.equal(documents.accountOf('file:///work/News.channel.json')?.name, 'Kept');
    await store.remove(account.id);
    assert.equal(documents.accountOf('file:///work/News.channel.json'), undefined);
  });
});
