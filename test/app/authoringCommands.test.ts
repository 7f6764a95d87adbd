import assert from 'node:assert/strict';
import { PlatformClient } from '../../src/api/client';
import {
  createOrUpdateCommand,
  openChannelAsFileCommand,
  validateDocumentCommand,
} from '../../src/app/authoring/commands';
import { createHarness, type Harness } from './helpers/harness';
import { ACCESS_KEY, SECRET_KEY, startTestPlatform, type TestPlatform } from './helpers/platform';
import { chooseWhere } from './helpers/scriptedUi';

function templateGroup(name: string, type = 0): string {
  const group = {
    name,
    type,
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
  return JSON.stringify(group, null, 2) + '\n';
}

/** The authoring commands through the command table's wrapper, with the in-memory editor and a scripted Ui. */
describe('Authoring commands: validate, create from a document, open a channel as a file', () => {
  let platform: TestPlatform;
  let client: PlatformClient;
  let harness: Harness;

  before(async () => {
    platform = await startTestPlatform();
    client = new PlatformClient({ baseUrl: platform.platform.baseUrl, accessKey: ACCESS_KEY, secretKey: SECRET_KEY });
  });
  after(async () => {
    await client.close();
    await platform.close();
  });
  beforeEach(async () => {
    harness = await createHarness({
      account: { baseUrl: platform.platform.baseUrl, accessKey: ACCESS_KEY, secretKey: SECRET_KEY },
    });
  });
  afterEach(() => harness.dispose());

  it('says which files it works on when no platform document is open', async () => {
    harness.editor.open('notes.txt', 'hello');
    await harness.run(validateDocumentCommand);
    assert.match(harness.ui.errors[0]!, /^Open a Video Platform document first: this works on \*\.channel\.json, /);
  });

  it('validates the document: valid, or the count of errors with Show Problems', async () => {
    harness.editor.open('good.templategroup.json', templateGroup('Good ladder'));
    await harness.run(validateDocumentCommand);
    assert.deepEqual(harness.ui.infos, ['This template group document is valid.']);

    harness.ui.messageChoice = 'Show Problems';
    harness.editor.open('bad.templategroup.json', templateGroup('Bad ladder', 3));
    await harness.run(validateDocumentCommand);
    assert.match(
      harness.ui.errors[0]!,
      /^This template group document has 1 error and 0 warnings; see the Problems panel\.$/,
    );
    assert.equal(harness.editor.problemsShown, 1);
  });

  it('sends nothing while the document has errors', async () => {
    const name = `Refused ladder ${Date.now()}`;
    harness.editor.open('bad.templategroup.json', templateGroup(name, 3));
    await harness.run(createOrUpdateCommand);
    assert.match(harness.ui.errors[0]!, /^Nothing was sent: the template group document has 1 error \(first: /);
    assert.ok(!(await client.templateGroupList()).some((group) => group.name === name));
  });

  it('creates a template group from the document (the editor title passes its URI) and writes the id back', async () => {
    const name = `Ladder ${Date.now()}`;
    const document = harness.editor.open('ladder.templategroup.json', templateGroup(name));
    harness.editor.open('other.txt', 'the active editor is another file');
    await harness.run(createOrUpdateCommand, { uri: document.uri });
    assert.deepEqual(harness.ui.errors, []);
    const created = (await client.templateGroupList()).find((group) => group.name === name);
    assert.ok(created, 'the group is on the platform');
    assert.equal((JSON.parse(document.text()) as { id?: number }).id, created.id);
    assert.deepEqual(harness.editor.saved, ['ladder.templategroup.json'], 'a saved document is saved again');
    assert.equal(harness.ui.infos.length, 1);
  });

  it('opens a channel as a file: the clicked one, or one picked from the palette', async () => {
    const [channel] = (await client.liveGetChannelsByPage({ number: 1 })).channels;
    await harness.run(openChannelAsFileCommand, { node: channel!.id });
    assert.equal(harness.editor.documents[0]!.fileName, `${channel!.name}.channel.json`);
    assert.equal((JSON.parse(harness.editor.documents[0]!.text()) as { id: string }).id, channel!.id);

    harness.ui.script(chooseWhere((value) => (value as { record?: { id: string } }).record?.id === channel!.id));
    await harness.run(openChannelAsFileCommand);
    assert.equal(harness.ui.asked[0]!.kind, 'pick', 'from the palette it asks with the searchable pick');
    assert.equal(harness.editor.documents.length, 2);
  });
});
