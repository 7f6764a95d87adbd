import assert from 'node:assert/strict';
import { PlatformClient } from '../../src/api/client';
import type { TemplateGroupSummary } from '../../src/api/types';
import { isBuiltInTemplateGroup } from '../../src/api/types';
import { createOrUpdateCommand, openChannelAsFileCommand } from '../../src/app/authoring/commands';
import { compareWithPlatform } from '../../src/app/commands/compareWithPlatform';
import { copyResourceId } from '../../src/app/commands/copyResourceId';
import { createResource } from '../../src/app/commands/createResource';
import { deleteResource } from '../../src/app/commands/deleteResource';
import { copyItemAddress, openItemAddress } from '../../src/app/commands/itemAddresses';
import { openResourceAsFile } from '../../src/app/commands/openResourceAsFile';
import { updateResourceFromFile } from '../../src/app/commands/updateResourceFromFile';
import {
  ChannelNode,
  LoadMoreNode,
  OutputGroupNode,
  OutputNode,
  RenditionNode,
  VideoNode,
} from '../../src/app/tree/nodes';
import type { TreeNode } from '../../src/app/tree/nodes';
import { ResourceNode, ResourceSectionNode, type ResourceKind } from '../../src/app/tree/resourceNodes';
import { validateDocument } from '../../src/authoring/validate';
import { platformSuite } from './helpers/platformSuite';
import { accept, choose, decline, type } from './helpers/scriptedUi';

const labels = (nodes: readonly TreeNode[]): string[] => nodes.map((node) => node.view().label);

/** A regular template group of the account, made for one test. */
function groupInput(name: string): Parameters<PlatformClient['templateGroup']>[0] {
  return {
    name,
    type: 0,
    trailor: false,
    trailorDuration: 0,
    logoGroupId: 0,
    transcodeTemplates: [
      {
        name: '540p',
        videoWidth: 960,
        videoHeight: 540,
        videoBitrate: 1200,
        audioBitrate: 96000,
        format: 0,
        encryptType: 0,
        defaultVideo: 1,
      },
    ],
  };
}

/** The Resources view and its commands, against the real local platform (demo data) over loopback. */
describe('Resources view: template groups, logo groups, live templates and logos, categories', () => {
  const suite = platformSuite();

  async function section(kind: ResourceKind): Promise<ResourceSectionNode> {
    const sections = await suite.harness.ctx.models.resources.getChildren();
    const found = sections.find((node) => node instanceof ResourceSectionNode && node.resourceKind === kind);
    assert.ok(found instanceof ResourceSectionNode, kind);
    return found;
  }

  async function rowsOf(kind: ResourceKind): Promise<ResourceNode[]> {
    const children = await suite.harness.ctx.models.resources.getChildren(await section(kind));
    return children.filter((node): node is ResourceNode => node instanceof ResourceNode);
  }

  async function row(kind: ResourceKind, label: string): Promise<ResourceNode> {
    const found = (await rowsOf(kind)).find((node) => node.view().label === label);
    assert.ok(found, `${kind} "${label}" in ${labels(await rowsOf(kind)).join(', ')}`);
    return found;
  }

  it('lists each kind with its list operation, flagging the built-in and the default template groups', async () => {
    assert.deepEqual(labels(await suite.harness.ctx.models.resources.getChildren()), [
      'Template Groups',
      'Logo Groups',
      'Live Templates',
      'Live Logos',
      'Channel Categories',
    ]);
    const groups = await rowsOf('templateGroup');
    const listed = await suite.client.templateGroupList();
    assert.deepEqual(
      labels(groups),
      listed.map((group) => group.name),
    );
    const builtin = groups.find((node) => String(node.resource.record.userId) === '0')!;
    assert.match(builtin.view().contextValue, /^templateGroup\+builtin/);
    assert.match(builtin.view().description ?? '', /built-in/);
    const standard = await row('templateGroup', 'Standard HLS + MP4');
    assert.equal(standard.view().contextValue, 'templateGroup+default');
    assert.deepEqual(labels(await rowsOf('logoGroup')), ['Corner logo', 'Intro and outro']);
    // Counts in the singular for one ("1 logos" read wrong in the side bar).
    assert.equal((await row('logoGroup', 'Corner logo')).view().description, '1 logo');
    assert.equal((await row('logoGroup', 'Intro and outro')).view().description, '2 logos');
    assert.deepEqual(labels(await rowsOf('liveLogo')).sort(), ['Station bug', 'Watermark']);
    assert.deepEqual(labels(await rowsOf('channelCategory')).sort(), ['Events', 'News', 'Sports']);
    // The section says how many once read.
    assert.equal((await section('channelCategory')).view().description, '3');
  });

  it('says "1 template" for a group of one template, not "1 templates"', async () => {
    const name = `One rendition ${Date.now()}`;
    await suite.client.templateGroup({
      name,
      type: 0,
      trailor: false,
      trailorDuration: 0,
      logoGroupId: 0,
      transcodeTemplates: [
        {
          name: 'only',
          videoWidth: 640,
          videoHeight: 360,
          videoBitrate: 800,
          audioBitrate: 64000,
          format: 1,
          encryptType: 0,
          defaultVideo: 1,
        },
      ],
    });
    suite.harness.ctx.models.resources.refresh('templateGroup');
    assert.equal((await row('templateGroup', name)).view().description, '1 template');
    assert.match((await row('templateGroup', 'Standard HLS + MP4')).view().description ?? '', / · \d+ templates$/);
  });

  it('shows a page at a time with Load more, and reads the list again on Refresh', async () => {
    await suite.renewHarness({ pageSize: 2 });
    const node = await section('channelCategory');
    const first = await suite.harness.ctx.models.resources.getChildren(node);
    assert.equal(first.length, 3);
    const more = first[2];
    assert.ok(more instanceof LoadMoreNode);
    assert.equal(more.view().label, 'Load more (2 of 3)');
    await more.load();
    const all = await suite.harness.ctx.models.resources.getChildren(node);
    assert.equal(all.filter((child) => child instanceof ResourceNode).length, 3);
    const name = `Refreshed ${Date.now()}`;
    await suite.client.liveChannelTypeCreate(name);
    suite.harness.ctx.models.resources.refresh('channelCategory');
    const again = await suite.harness.ctx.models.resources.getChildren(node);
    assert.ok(again[2] instanceof LoadMoreNode, 'the first page again');
    assert.equal(again[2].view().label, 'Load more (2 of 4)');
  });

  it('opens a template group as a document of its kind that passes its schema, with the group as it is', async () => {
    const node = await row('templateGroup', 'Standard HLS + MP4');
    const text = await suite.harness.run(openResourceAsFile, { node });
    const document = suite.harness.editor.documents[0]!;
    assert.equal(document.fileName, 'Standard HLS + MP4.templategroup.json');
    assert.equal(document.text(), text);
    const { problems, value } = validateDocument('templategroup', document.text());
    assert.deepEqual(
      problems.filter((problem) => problem.severity === 'error'),
      [],
    );
    const record = (await suite.client.templateGroupList()).find((group) => group.name === 'Standard HLS + MP4')!;
    const doc = value as { id: number; logoGroupId: number; transcodeTemplates: unknown[]; userId?: unknown };
    assert.equal(doc.id, record.id);
    assert.equal(doc.logoGroupId, record.logoGroupId);
    assert.equal(doc.transcodeTemplates.length, record.transcodeTemplates!.length);
    assert.equal(doc.userId, undefined, 'read-only fields are left out');
    assert.deepEqual(suite.harness.ui.errors, []);
  });

  it('opens live templates, logos and logo groups as valid documents too; categories have no document', async () => {
    for (const [kind, suffix] of [
      ['liveTemplate', 'livetemplate'],
      ['liveLogo', 'livelogo'],
      ['logoGroup', 'logogroup'],
    ] as const) {
      const [node] = await rowsOf(kind);
      await suite.harness.run(openResourceAsFile, { node });
      const document = suite.harness.editor.documents[0]!;
      assert.ok(document.fileName.endsWith(`.${suffix}.json`), document.fileName);
      const errors = validateDocument(suffix, document.text()).problems.filter((p) => p.severity === 'error');
      assert.deepEqual(errors, [], kind);
    }
    assert.deepEqual(suite.harness.ui.errors, []);
  });

  it('updates a template group from its open file (round trip) and shows the new name', async () => {
    const name = `Round trip ${Date.now()}`;
    await suite.client.templateGroup(groupInput(name));
    suite.harness.ctx.models.resources.refresh();
    const node = await row('templateGroup', name);
    await suite.harness.run(openResourceAsFile, { node });
    const document = suite.harness.editor.documents[0]!;
    document.content = document.content.replace(`"name": "${name}"`, `"name": "${name} v2"`);
    suite.harness.editor.open('notes.txt', 'the active editor is another file');
    assert.equal(await suite.harness.run(updateResourceFromFile, { node }), true);
    assert.deepEqual(suite.harness.ui.errors, []);
    const after = (await suite.client.templateGroupList()).find((group) => group.id === node.resource.record.id);
    assert.equal(after?.name, `${name} v2`);
    assert.ok(labels(await rowsOf('templateGroup')).includes(`${name} v2`), 'the view was read again');
  });

  it('says there is no open file to update from, and opens one when asked', async () => {
    const node = await row('liveTemplate', (await rowsOf('liveTemplate'))[0]!.view().label);
    suite.harness.ui.messageChoice = 'Open as File';
    assert.equal(await suite.harness.run(updateResourceFromFile, { node }), false);
    assert.match(suite.harness.ui.warnings[0]!, /^No open file holds live template ".+" \(id [0-9a-f]{32}\)/);
    assert.ok(suite.harness.editor.documents[0]?.fileName.endsWith('.livetemplate.json'));
  });

  it('creates from a section: a new document of the kind, which Create or Update sends; a category at once', async () => {
    await suite.harness.run(createResource, { node: await section('logoGroup') });
    const document = suite.harness.editor.documents[0]!;
    assert.equal(document.fileName, 'new.logogroup.json');
    const name = `Created ${Date.now()}`;
    document.content = document.content.replace('New logo group', name);
    await suite.harness.run(createOrUpdateCommand, { uri: document.uri });
    assert.deepEqual(suite.harness.ui.errors, []);
    assert.ok((await suite.client.getLogoGroupList()).some((group) => group.name === name));
    assert.ok(labels(await rowsOf('logoGroup')).includes(name), 'shown in the view');

    // From the palette: the kind is asked first.
    const category = `Category ${Date.now()}`;
    suite.harness.ui.script(choose('Channel Categories'), type(category));
    await suite.harness.run(createResource);
    assert.ok((await suite.client.liveChannelTypeList()).some((entry) => entry.name === category));
    assert.ok(labels(await rowsOf('channelCategory')).includes(category));
  });

  it('deletes a template group after confirmation, and nothing when declined', async () => {
    const name = `To delete ${Date.now()}`;
    const id = await suite.client.templateGroup(groupInput(name));
    suite.harness.ctx.models.resources.refresh();
    const node = await row('templateGroup', name);
    suite.harness.ui.script(decline());
    assert.equal(await suite.harness.run(deleteResource, { node }), undefined);
    assert.ok(
      (await suite.client.templateGroupList()).some((group) => group.id === id),
      'declined: kept',
    );
    suite.harness.ui.script(accept());
    await suite.harness.run(deleteResource, { node });
    assert.match(suite.harness.ui.asked.at(-1)!.title, new RegExp(`^Delete template group "${name}" \\(${id}\\)\\?$`));
    assert.match(suite.harness.ui.asked.at(-1)!.message!, /\nAccount ".+"\. This cannot be undone\.$/);
    assert.ok(!(await suite.client.templateGroupList()).some((group) => group.id === id), 'deleted on the platform');
    assert.ok(!labels(await rowsOf('templateGroup')).includes(name), 'gone from the view');
  });

  it('refuses to delete a built-in template group and changes nothing; the palette does not offer them', async () => {
    const before = await suite.client.templateGroupList();
    const builtin = (await rowsOf('templateGroup')).find((node) => String(node.resource.record.userId) === '0')!;
    assert.equal(await suite.harness.run(deleteResource, { node: builtin }), undefined);
    assert.match(
      suite.harness.ui.errors[0]!,
      /is one of the platform's built-in template groups, which cannot be deleted/,
    );
    assert.equal(suite.harness.ui.asked.length, 0, 'no confirmation asked');
    assert.deepEqual(await suite.client.templateGroupList(), before);

    suite.harness.ui.script(choose('Template Groups'), { kind: 'pick', answer: () => undefined });
    await suite.harness.run(deleteResource);
    const offered = suite.harness.ui.asked[1]!.items!.map(
      (item) => (item.value as { record: TemplateGroupSummary }).record,
    );
    assert.ok(offered.length > 0 && offered.every((group) => !isBuiltInTemplateGroup(group)));
  });

  it('shows the platform refusal to delete a logo group a template group uses, and keeps it', async () => {
    const node = await row('logoGroup', 'Corner logo');
    suite.harness.ui.script(accept());
    await suite.harness.run(deleteResource, { node });
    assert.match(suite.harness.ui.errors[0]!, /^Delete failed: .*used by template group/);
    assert.ok((await suite.client.getLogoGroupList()).some((group) => group.name === 'Corner logo'));
  });

  it('copies a record id', async () => {
    const [node] = await rowsOf('channelCategory');
    const id = await suite.harness.run(copyResourceId, { node });
    assert.match(id!, /^[0-9a-f]{32}$/);
    assert.deepEqual(suite.harness.ui.copied, [id]);
  });

  it('compares a channel file with the platform: the same normal form on both sides, the changes shown', async () => {
    const [channel] = (await suite.client.liveGetChannelsByPage({ start: 1, number: 1 })).channels;
    await suite.harness.run(openChannelAsFileCommand, { node: channel!.id });
    const document = suite.harness.editor.documents[0]!;
    const same = await suite.harness.run(compareWithPlatform, { uri: document.uri });
    assert.equal(same?.same, true);
    assert.match(suite.harness.ui.infos.at(-1)!, /^The file matches channel [0-9a-f]{32} on the platform\.$/);

    // Keys in another order, a $schema, another name: only the name differs.
    const value = JSON.parse(document.text()) as Record<string, unknown>;
    const reordered = { $schema: '../schemas/channel.schema.json', ...value, name: 'Renamed in the file' };
    const shuffled = Object.fromEntries(Object.entries(reordered).reverse());
    document.content = JSON.stringify(shuffled);
    const changed = await suite.harness.run(compareWithPlatform, { uri: document.uri });
    assert.equal(changed?.same, false);
    const diff = suite.harness.editor.diffs.at(-1)!;
    assert.equal(diff.left.text, changed!.file);
    assert.equal(diff.right.text, changed!.platform);
    const fileLines = diff.left.text.split('\n');
    const platformLines = diff.right.text.split('\n');
    const differing = fileLines.filter((line, index) => line !== platformLines[index]);
    assert.deepEqual(differing, ['  "name": "Renamed in the file",']);
    assert.ok(!diff.left.text.includes('$schema'));
    assert.match(diff.title, /↔ platform/);
  });

  it('compares a template group file, leaving the read-only fields out', async () => {
    const node = await row('templateGroup', 'Mobile HLS');
    await suite.harness.run(openResourceAsFile, { node });
    const document = suite.harness.editor.documents[0]!;
    const value = JSON.parse(document.text()) as { trailorDuration: number };
    const duration = value.trailorDuration;
    document.content = JSON.stringify({ ...value, trailorDuration: duration + 30 }, null, 4);
    const comparison = await suite.harness.run(compareWithPlatform, { uri: document.uri });
    assert.equal(comparison?.same, false);
    assert.match(comparison!.file, new RegExp(`\n  "trailorDuration": ${duration + 30},\n`));
    assert.match(comparison!.platform, new RegExp(`\n  "trailorDuration": ${duration},\n`));
    assert.ok(!/userId|defaultGroup|createTime/.test(comparison!.platform));
  });

  it('says what is missing when the document has no id or names none the platform has', async () => {
    suite.harness.editor.open('draft.logogroup.json', '{ "name": "Draft", "logos": [] }');
    assert.equal(await suite.harness.run(compareWithPlatform), undefined);
    assert.match(suite.harness.ui.errors[0]!, /has no "id", so it is not on the platform yet/);
    suite.harness.editor.open('gone.logogroup.json', '{ "id": 999999, "name": "Gone", "logos": [] }');
    await suite.harness.run(compareWithPlatform);
    assert.match(suite.harness.ui.errors[1]!, /the platform has no logo group with id 999999/);
    assert.equal(suite.harness.editor.diffs.length, 0);
  });

  it('copies and opens the addresses of outputs, output groups and renditions', async () => {
    const { channels } = await suite.client.liveGetChannelsByPage({ start: 1, number: 50 });
    const channel = channels.find((candidate) => candidate.outputGroupList.some((group) => group.protocolType === 1))!;
    const channelNode = new ChannelNode(undefined, channel);
    const hls = channel.outputGroupList.find((group) => group.protocolType === 1)!;
    const groupNode = new OutputGroupNode(channelNode, hls);
    const output = hls.liveOutputs[0]!;
    const outputNode = new OutputNode(groupNode, output);
    assert.equal(await suite.harness.run(copyItemAddress, { node: outputNode }), output.publicOutputUrl);
    assert.deepEqual(suite.harness.ui.copied, [output.publicOutputUrl]);

    // The group: its master playlist (as liveGetChannelsPlayUrl lists it), then each output.
    const [entry] = (await suite.client.liveGetChannelsPlayUrl([channel.id])).filter(
      (e) => e.channelGroupId === hls.id,
    );
    suite.harness.ui.script({ kind: 'pick', answer: (items) => items[0]!.value });
    assert.equal(await suite.harness.run(openItemAddress, { node: groupNode }), entry!.playUrl);
    assert.deepEqual(suite.harness.ui.opened, [entry!.playUrl]);
    assert.equal(suite.harness.ui.asked[0]!.items!.length, 1 + hls.liveOutputs.length);

    const videos = await suite.client.queryVideo({ start: 1, number: 50, sort: 'uploadTime', order: 'desc' });
    const video = videos.find((candidate) => candidate.transcodedVideoList.some((stream) => stream.mp4Url))!;
    const stream = video.transcodedVideoList.find((candidate) => candidate.mp4Url)!;
    const rendition = new RenditionNode(new VideoNode(video), stream);
    suite.harness.ui.script({
      kind: 'pick',
      answer: (items) => items.find((item) => item.label.startsWith('MP4'))!.value,
    });
    assert.equal(await suite.harness.run(copyItemAddress, { node: rendition }), stream.mp4Url);
    assert.deepEqual(suite.harness.ui.errors, []);
  });
});
