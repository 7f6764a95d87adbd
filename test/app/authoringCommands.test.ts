import assert from 'node:assert/strict';
import {
  createOrUpdateCommand,
  openChannelAsFileCommand,
  validateDocumentCommand,
} from '../../src/app/authoring/commands';
import { platformSuite } from './helpers/platformSuite';
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
  const suite = platformSuite();

  it('says which files it works on when no platform document is open', async () => {
    suite.harness.editor.open('notes.txt', 'hello');
    await suite.harness.run(validateDocumentCommand);
    assert.match(
      suite.harness.ui.errors[0]!,
      /^Open a Video Platform document first: this works on \*\.channel\.json, /,
    );
  });

  it('validates the document: valid, or the count of errors with Show Problems', async () => {
    suite.harness.editor.open('good.templategroup.json', templateGroup('Good ladder'));
    await suite.harness.run(validateDocumentCommand);
    assert.deepEqual(suite.harness.ui.infos, ['This template group document is valid.']);

    suite.harness.ui.messageChoice = 'Show Problems';
    suite.harness.editor.open('bad.templategroup.json', templateGroup('Bad ladder', 3));
    await suite.harness.run(validateDocumentCommand);
    assert.match(
      suite.harness.ui.errors[0]!,
      /^This template group document has 1 error and 0 warnings; see the Problems panel\.$/,
    );
    assert.equal(suite.harness.editor.problemsShown, 1);
  });

  it('sends nothing while the document has errors', async () => {
    const name = `Refused ladder ${Date.now()}`;
    suite.harness.editor.open('bad.templategroup.json', templateGroup(name, 3));
    await suite.harness.run(createOrUpdateCommand);
    assert.match(suite.harness.ui.errors[0]!, /^Nothing was sent: the template group document has 1 error \(first: /);
    assert.ok(!(await suite.client.templateGroupList()).some((group) => group.name === name));
  });

  it('creates a template group from the document (the editor title passes its URI) and writes the id back', async () => {
    const name = `Ladder ${Date.now()}`;
    const document = suite.harness.editor.open('ladder.templategroup.json', templateGroup(name));
    suite.harness.editor.open('other.txt', 'the active editor is another file');
    await suite.harness.run(createOrUpdateCommand, { uri: document.uri });
    assert.deepEqual(suite.harness.ui.errors, []);
    const created = (await suite.client.templateGroupList()).find((group) => group.name === name);
    assert.ok(created, 'the group is on the platform');
    assert.equal((JSON.parse(document.text()) as { id?: number }).id, created.id);
    assert.deepEqual(suite.harness.editor.saved, ['ladder.templategroup.json'], 'a saved document is saved again');
    assert.equal(suite.harness.ui.infos.length, 1);
  });

  it('opens a channel as a file: the clicked one, or one picked from the palette', async () => {
    const [channel] = (await suite.client.liveGetChannelsByPage({ number: 1 })).channels;
    await suite.harness.run(openChannelAsFileCommand, { node: channel!.id });
    assert.equal(suite.harness.editor.documents[0]!.fileName, `${channel!.name}.channel.json`);
    assert.equal((JSON.parse(suite.harness.editor.documents[0]!.text()) as { id: string }).id, channel!.id);

    suite.harness.ui.script(chooseWhere((value) => (value as { record?: { id: string } }).record?.id === channel!.id));
    await suite.harness.run(openChannelAsFileCommand);
    assert.equal(suite.harness.ui.asked[0]!.kind, 'pick', 'from the palette it asks with the searchable pick');
    assert.equal(suite.harness.editor.documents.length, 2);
  });
});
