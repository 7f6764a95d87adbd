import * as assert from 'node:assert/strict';
import type { PlatformClient } from '../../src/api/client';
import { TransportError } from '../../src/api/errors';
import type { ChannelPage, Video } from '../../src/api/types';
import { CaptureServer, ok, sendJson, type Captured } from './captureServer';
import { makeClient, rejection } from './fixtures';

/** Serves `total` channels and `videos` videos, paged by 1-based `start` and `number`. */
function pagedPlatform(total: { channels: number; videos: number }) {
  const channels = Array.from({ length: total.channels }, (_, i) => ({ id: `c${i + 1}` }));
  const videos = Array.from({ length: total.videos }, (_, i) => ({ id: `v${i + 1}` }));
  return (request: Captured, res: Parameters<CaptureServer['respond']>[1]): void => {
    const start = Number(request.query.start ?? 1);
    const number = Number(request.query.number ?? 15);
    const from = (start - 1) * number;
    if (request.query.action === 'liveGetChannelsByPage') {
      sendJson(res, ok(channels.slice(from, from + number), { count: channels.length }));
    } else {
      sendJson(res, ok(videos.slice(from, from + number)));
    }
  };
}

const ids = (items: Array<{ id: string }>): string[] => items.map((item) => item.id);

describe('PlatformClient paging', () => {
  let server: CaptureServer;
  let client: PlatformClient;

  beforeEach(async () => {
    server = await CaptureServer.start();
    client = makeClient(server.baseUrl);
  });
  afterEach(async () => {
    await client.close();
    await server.close();
  });

  it('channelPages walks every page and stops when start*number reaches count', async () => {
    server.respond = pagedPlatform({ channels: 35, videos: 0 });
    const pages: ChannelPage[] = [];
    for await (const page of client.channelPages({ sort: 'name', order: 'asc' })) pages.push(page);
    assert.deepEqual(
      pages.map((p) => p.channels.length),
      [15, 15, 5],
    );
    assert.deepEqual(
      ids(pages.flatMap((p) => p.channels)),
      Array.from({ length: 35 }, (_, i) => `c${i + 1}`),
    );
    assert.ok(pages.every((p) => p.count === 35));
    assert.deepEqual(
      server.requests.map((r) => [r.query.start, r.query.number, r.query.sort]),
      [
        ['1', '15', 'name'],
        ['2', '15', 'name'],
        ['3', '15', 'name'],
      ],
    );
  });

  it('channelPages asks for no extra page when count is an exact multiple, and none at all for an empty list', async () => {
    server.respond = pagedPlatform({ channels: 20, videos: 0 });
    const pages: ChannelPage[] = [];
    for await (const page of client.channelPages({ number: 10 })) pages.push(page);
    assert.equal(pages.length, 2);
    assert.equal(server.requests.length, 2);

    server.respond = pagedPlatform({ channels: 0, videos: 0 });
    const none: ChannelPage[] = [];
    for await (const page of client.channelPages()) none.push(page);
    assert.equal(none.length, 0);
    assert.equal(server.requests.length, 3);
  });

  it('channelPages is lazy: a page is fetched only when asked for', async () => {
    server.respond = pagedPlatform({ channels: 50, videos: 0 });
    const pages = client.channelPages({ number: 10, start: 2 });
    assert.equal(server.requests.length, 0, 'nothing fetched before the first next()');
    const first = await pages.next();
    assert.equal(first.done, false);
    assert.deepEqual(ids((first.value as ChannelPage).channels).slice(0, 1), ['c11']);
    assert.equal(server.requests.length, 1);
    await pages.return?.(undefined);
    assert.equal(server.requests.length, 1, 'stopping early fetches nothing more');
  });

  it('videoPages walks from page 1 and stops on a short page', async () => {
    server.respond = pagedPlatform({ channels: 0, videos: 23 });
    const pages: Video[][] = [];
    for await (const page of client.videoPages({ number: 10, sort: 'uploadTime', order: 'desc', status: 2 }))
      pages.push(page);
    assert.deepEqual(
      pages.map((p) => p.length),
      [10, 10, 3],
    );
    assert.deepEqual(
      server.requests.map((r) => r.query.start),
      ['1', '2', '3'],
    );
    assert.ok(server.requests.every((r) => r.query.status === '2' && r.query.number === '10'));
  });

  it('videoPages ends at an empty page (not yielded) when the total is a multiple of number', async () => {
    server.respond = pagedPlatform({ channels: 0, videos: 20 });
    const pages: Video[][] = [];
    for await (const page of client.videoPages({ number: 10, sort: 'title', order: 'asc' })) pages.push(page);
    assert.deepEqual(
      pages.map((p) => p.length),
      [10, 10],
    );
    assert.equal(server.requests.length, 3);
  });

  it('an abort between pages stops the walk with "aborted" and fetches nothing more', async () => {
    server.respond = pagedPlatform({ channels: 0, videos: 100 });
    const controller = new AbortController();
    const seen: Video[][] = [];
    const error = await rejection(
      (async () => {
        for await (const page of client.videoPages(
          { number: 10, sort: 'title', order: 'asc' },
          { signal: controller.signal },
        )) {
          seen.push(page);
          if (seen.length === 2) controller.abort();
        }
      })(),
    );
    assert.ok(error instanceof TransportError);
    assert.equal(error.kind, 'aborted');
    assert.equal(seen.length, 2);
    assert.equal(server.requests.length, 2);
  });

  it('an error on a later page surfaces from the iterator', async () => {
    const platform = pagedPlatform({ channels: 40, videos: 0 });
    server.respond = (r, res) =>
      r.query.start === '2'
        ? sendJson(res, { code: 10000, message: 'exception', success: false, result: null })
        : platform(r, res);
    const pages: ChannelPage[] = [];
    const error = await rejection(
      (async () => {
        for await (const page of client.channelPages()) pages.push(page);
      })(),
    );
    assert.equal(pages.length, 1);
    assert.equal((error as { code?: number }).code, 10000);
  });
});
