/**
 * Ids in documents against the real local platform: hovers show the record an id names, and a transcode
 * job naming a video the account does not have is flagged on that id and not sent.
 */
import assert from 'node:assert/strict';
import { isBuiltInTemplateGroup } from '../../src/api/types';
import { createOrUpdateCommand, validateDocumentCommand } from '../../src/app/authoring/commands';
import { channelDocumentText } from '../../src/authoring/channelDocument';
import type { DocumentKind } from '../../src/authoring/documentKind';
import { hoverMarkdown, idAt } from '../../src/authoring/hover';
import { platformSuite } from './helpers/platformSuite';

const NO_SUCH_ID = 'f'.repeat(32);

function transcodeJob(videoIds: string[], transcodeTemplateGroupId = 1): string {
  const job = { videoIds, transcodeTemplateGroupId, replace: false };
  return JSON.stringify(job, null, 2) + '\n';
}

describe('Authoring references: hovers on ids, unknown video ids, refusals on their field', () => {
  const suite = platformSuite();

  /** The hover at the first occurrence of `value` in `text` (inside its quotes), as the editor would show it. */
  async function hoverAt(kind: DocumentKind, text: string, value: string): Promise<string | undefined> {
    const at = idAt(kind, text, text.indexOf(value) + 1);
    if (!at) return undefined;
    return hoverMarkdown(at, await suite.harness.ctx.authoring.references.find(at.site.ref, at.id, at.site.byName));
  }

  it('shows the name and main fields of the live template, logo, category and channel a channel document names', async () => {
    const [template] = await suite.client.liveGetTemplates({});
    const [logo] = await suite.client.liveLogoList({});
    const [category] = await suite.client.liveChannelTypeList({});
    const { channels } = await suite.client.liveGetChannelsByPage({ start: 1, number: 1 });
    const channel = channels[0]!;
    const text = JSON.stringify(
      {
        id: channel.id,
        name: 'x',
        signalType: '1',
        type: category!.id,
        outputGroupList: [
          { protocolType: 1, logoId: logo!.id, outputTemplateList: [{ templateId: template!.id, isDefault: '1' }] },
        ],
      },
      null,
      2,
    );
    const onTemplate = await hoverAt('channel', text, template!.id);
    assert.ok(onTemplate?.includes(`— live template \`${template!.id}\``), onTemplate);
    assert.ok(onTemplate!.includes(`- size: ${template!.videoWidth}x${template!.videoHeight}`), onTemplate);
    assert.ok(onTemplate!.includes(`- video bitrate: ${template!.videoBitrate} kbps`), onTemplate);

    const onLogo = await hoverAt('channel', text, logo!.id);
    assert.ok(
      onLogo?.includes(`— live logo \`${logo!.id}\``) && onLogo.includes(`- size: ${logo!.width}x${logo!.height}`),
    );

    const onCategory = await hoverAt('channel', text, category!.id);
    assert.ok(onCategory?.includes(`— channel category \`${category!.id}\``), onCategory);

    const onChannel = await hoverAt('channel', text, channel.id);
    assert.ok(onChannel?.includes(`— channel \`${channel.id}\``) && onChannel.includes('- status: '), onChannel);
    assert.equal(await hoverAt('channel', text, '"x"'), undefined, 'a name is no id');
  });

  it('shows template groups and logo groups by name, and says when the account has no such id', async () => {
    const groups = await suite.client.templateGroupList({});
    const group = groups.find((g) => !isBuiltInTemplateGroup(g)) ?? groups[0]!;
    const [logoGroup] = await suite.client.getLogoGroupList();
    const text = JSON.stringify({ videoIds: ['a'], transcodeTemplateGroupId: group.id, x: 0 }, null, 2);
    const onGroup = await hoverAt('transcode', text, `: ${group.id}`.slice(2));
    assert.ok(onGroup?.startsWith(`**`) && onGroup.includes(`— template group \`${group.id}\``), onGroup);
    assert.ok(onGroup!.includes(`- type: ${group.type === 1 ? 'VR' : 'normal'}`), onGroup);

    const tg = JSON.stringify({ name: 'n', logoGroupId: logoGroup!.id }, null, 2);
    const onLogoGroup = await hoverAt('templategroup', tg, String(logoGroup!.id));
    assert.ok(onLogoGroup?.includes(`— logo group \`${logoGroup!.id}\``) && onLogoGroup.includes('- logos: '));

    const unknown = JSON.stringify({ name: 'n', logoGroupId: 987654 }, null, 2);
    assert.equal(await hoverAt('templategroup', unknown, '987654'), 'This account has no logo group with id `987654`.');
  });

  it("shows a video of a transcode job, found by its id (the account's video list is never fetched whole)", async () => {
    const videos = await suite.client.queryVideo({ start: 1, number: 5, sort: 'uploadTime', order: 'asc' });
    const video = videos[0]!;
    const text = transcodeJob([video.id, NO_SUCH_ID]);
    const onVideo = await hoverAt('transcode', text, video.id);
    assert.ok(
      onVideo?.includes(`— video \`${video.id}\``) &&
        onVideo.includes(`- file: ${video.fileName.replace(/[_()[\]]/g, '\\$&')}`),
      onVideo,
    );
    assert.equal(await hoverAt('transcode', text, NO_SUCH_ID), `This account has no video with id \`${NO_SUCH_ID}\`.`);
  });

  it('flags a video id the account does not have, and Create refuses naming the field', async () => {
    const [video] = await suite.client.queryVideo({ start: 1, number: 1, sort: 'uploadTime', order: 'desc' });
    const [group] = await suite.client.templateGroupList({ type: 0 });
    const text = transcodeJob([video!.id, NO_SUCH_ID], group!.id);
    const document = suite.harness.editor.open('job.transcode.json', text);

    await suite.harness.run(validateDocumentCommand);
    const problems = suite.harness.diagnostics.problems.get(document.uri) ?? [];
    const unknown = problems.filter((p) => p.code === 'reference.videos');
    assert.equal(unknown.length, 1, JSON.stringify(problems));
    assert.equal(
      text.slice(unknown[0]!.range.offset, unknown[0]!.range.offset + unknown[0]!.range.length),
      `"${NO_SUCH_ID}"`,
    );
    assert.equal(unknown[0]!.severity, 'error');
    assert.match(unknown[0]!.message, /^videoIds\[1\]: this account has no video with id "f{32}"\./);

    suite.harness.ui.messageChoice = undefined;
    await suite.harness.run(createOrUpdateCommand);
    assert.match(
      suite.harness.ui.errors.at(-1)!,
      /^Nothing was sent: the transcode job document has 1 error \(first: videoIds\[1\]: this account has no video with id "f{32}"/,
    );
    // Only the known one: valid, and sent.
    document.content = transcodeJob([video!.id], group!.id);
    await suite.harness.run(validateDocumentCommand);
    assert.equal(
      (suite.harness.diagnostics.problems.get(document.uri) ?? []).filter((p) => p.severity === 'error').length,
      0,
    );
  });

  it('shows a platform refusal on the field it is about', async () => {
    const { channels } = await suite.client.liveGetChannelsByPage({ start: 1, number: 100 });
    const stopped = channels.find((c) => c.status !== 2 && c.outputGroupList.length > 0)!;
    const value = JSON.parse(channelDocumentText(stopped)) as { outputGroupList: Array<{ id?: string }> };
    // An output group id of no group of this channel: only the platform knows its channel's groups.
    value.outputGroupList[0]!.id = NO_SUCH_ID;
    const text = JSON.stringify(value, null, 2);
    const document = suite.harness.editor.open('kept.channel.json', text);

    await suite.harness.run(createOrUpdateCommand);
    assert.match(suite.harness.ui.errors.at(-1)!, /refused|failed/);
    const refusal = (suite.harness.diagnostics.problems.get(document.uri) ?? []).find((p) =>
      p.code?.startsWith('platform.'),
    );
    assert.ok(refusal, JSON.stringify(suite.harness.diagnostics.problems.get(document.uri)));
    assert.equal(text.slice(refusal.range.offset, refusal.range.offset + refusal.range.length), `"${NO_SUCH_ID}"`);
    assert.match(refusal.message, /outputGroupList\[0\]\.id/);
  });
});
