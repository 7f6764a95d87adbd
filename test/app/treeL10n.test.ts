import assert from 'node:assert/strict';
import { PlatformClient } from '../../src/api/client';
import type { Channel, Video } from '../../src/api/types';
import { fillPlaceholders, setTranslator } from '../../src/l10n/l10n';
import { channelView, outputGroupView, outputView } from '../../src/app/tree/channelPresentation';
import { describeChannelFilter, describeVideoFilter } from '../../src/app/tree/filters';
import { LoadMoreNode } from '../../src/app/tree/nodes';
import { md } from '../../src/app/tree/nodeView';
import { renditionView, videoView } from '../../src/app/tree/videoPresentation';
import { formatDateTime } from '../../src/app/util/format';
import { ACCESS_KEY, SECRET_KEY, startTestPlatform, type TestPlatform } from './helpers/platform';

/** Every string of a record (names, addresses, ids...): what the platform says is shown as it is. */
function recordTexts(value: unknown, into: string[] = []): string[] {
  if (typeof value === 'string' || typeof value === 'number') into.push(String(value));
  else if (Array.isArray(value)) for (const item of value) recordTexts(item, into);
  else if (value && typeof value === 'object') for (const item of Object.values(value)) recordTexts(item, into);
  return into;
}

/**
 * What is left of a shown text once the translated parts («...»), the record's own texts, a still picture
 * and the words that stay as they are in every language (protocols, formats, units) are taken out.
 */
function untranslated(text: string, record: unknown): string[] {
  let rest = text.replace(/!\[still\]\([^)]*\)/g, '');
  for (let before = ''; before !== rest;) {
    before = rest;
    rest = rest.replace(/«[^«»]*»/g, ' ');
  }
  for (const data of recordTexts(record).sort((a, b) => b.length - a.length)) {
    // As given, and as written in a Markdown tooltip.
    if (data.length > 1) rest = rest.split(md(data)).join(' ').split(data).join(' ');
  }
  return (rest.match(/[A-Za-z][A-Za-z0-9]+/g) ?? []).filter(
    (word) => !/^(HLS|RTMP|VR|MP4|FLV|TS|kbps|KB|MB|GB)$/.test(word),
  );
}

describe('Tree texts in another language: every word goes through the translator', () => {
  let platform: TestPlatform;
  let client: PlatformClient;
  let restore: () => void;

  before(async () => {
    platform = await startTestPlatform();
    client = new PlatformClient({ baseUrl: platform.platform.baseUrl, accessKey: ACCESS_KEY, secretKey: SECRET_KEY });
    // A pseudo-language: each translated text in «», so that English left outside them is visible.
    restore = setTranslator((message, args) => `«${fillPlaceholders(message, args)}»`);
  });
  after(async () => {
    restore();
    await client.close();
    await platform.close();
  });

  it('translates channel, output group and output rows: labels, descriptions and tooltips', async () => {
    const { channels } = await client.liveGetChannelsByPage({ start: 1, number: 50 });
    assert.ok(channels.length > 0);
    const started: Channel = { ...channels[0]!, startTime: Date.UTC(2026, 10, 23, 8, 5, 9), endTime: 0 };
    for (const channel of [...channels, started]) {
      const views = [
        channelView(channel),
        // The running operation's text comes translated from its command.
        channelView(channel, '«Starting...»'),
        ...channel.outputGroupList.flatMap((group) => [
          outputGroupView(group),
          ...group.liveOutputs.map((output) => outputView(output)),
        ]),
      ];
      for (const view of views) {
        const shown = [view.label, view.description ?? '', view.tooltip ?? ''].join('\n');
        assert.deepEqual(untranslated(shown, channel), [], `${channel.name}: ${shown}`);
      }
    }
    // Dates in the one local format, not ISO.
    assert.match(channelView(started).tooltip!, new RegExp(`«Started: ${formatDateTime(started.startTime!)}»`));
    assert.doesNotMatch(channelView(started).tooltip!, /\d{4}-\d\d-\d\dT/);
  });

  it('translates video and rendition rows, with the upload date in local time and the category with its id', async () => {
    const videos: Video[] = [
      ...(await client.queryVideo({ start: 1, number: 50, sort: 'uploadTime', order: 'desc' })),
      ...(await client.queryVideo({ start: 1, number: 50, sort: 'uploadTime', order: 'desc', videoType: 1 })),
    ];
    assert.ok(videos.length > 0);
    for (const video of videos) {
      const copy: Video = { ...video, parentId: 'source-id' };
      const shownOf = [
        { record: video, view: videoView(video) },
        { record: copy, view: videoView(copy, undefined, 'Keynote') },
        ...video.transcodedVideoList.map((stream) => ({ record: video, view: renditionView(video, stream) })),
      ];
      for (const { record, view } of shownOf) {
        const shown = [view.label, view.description ?? '', view.tooltip ?? ''].join('\n');
        assert.deepEqual(untranslated(shown, record), [], `${video.title}: ${shown}`);
      }
      assert.match(videoView(video).tooltip!, new RegExp(`«Uploaded: ${formatDateTime(video.uploadTime)}»`));
    }
    const withCategory = videos.find((video) => video.category);
    assert.ok(withCategory, 'the test platform has a video with a category');
    assert.ok(
      videoView(withCategory).tooltip!.includes(
        `«Category: ${md(`«${withCategory.category} (${withCategory.categoryId})»`)}»`,
      ),
    );
  });

  it('translates the filter descriptions and the Load more row', () => {
    const filters = [
      describeChannelFilter({ liveOnly: true }),
      describeChannelFilter({ keyword: 'news', searchType: 'name', sort: 'name', order: 'desc' }),
      describeVideoFilter({ keyword: 'talk', categoryId: 3, status: 2, videoType: 1, sort: 'size', order: 'desc' }),
    ];
    const words = { keyword: ['news', 'talk'], search: ['name', 'title', 'size', 'desc'] };
    for (const text of filters) assert.deepEqual(untranslated(text, words), [], text);
    const loadMore = [
      new LoadMoreNode(undefined, 50, 120, async () => undefined).view(),
      new LoadMoreNode(undefined, 50, undefined, async () => undefined, { read: 200, total: 1000 }).view(),
    ];
    for (const view of loadMore) {
      assert.deepEqual(untranslated(`${view.label}\n${view.tooltip ?? ''}`, {}), [], view.label);
    }
  });
});
