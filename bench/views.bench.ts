/**
 * The Live channels view against the local platform on loopback: how long it takes to list 500
 * channels with the default page size (50, ten "Load more" clicks) against one page of 500, and
 * what building the tree items costs per channel. Side by side in one run.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { PlatformClient } from '../src/api/client';
import { AccountStore, type SecretStore, type StateStore } from '../src/app/accounts/accountStore';
import { Connection } from '../src/app/accounts/connection';
import type { LogSink } from '../src/app/log';
import { channelView } from '../src/app/tree/channelPresentation';
import { ChannelTreeModel } from '../src/app/tree/channelTree';
import { ChannelNode, LoadMoreNode } from '../src/app/tree/nodes';
import { startLocalPlatform } from '../src/localPlatform/server';

const CHANNELS = 500;
const ROUNDS = 5;

const quiet: LogSink = { info: () => undefined, warn: () => undefined, error: () => undefined, debug: () => undefined };

function memory(): { state: StateStore; secrets: SecretStore } {
  const values = new Map<string, unknown>();
  const secrets = new Map<string, string>();
  return {
    state: {
      get: <T>(key: string) => values.get(key) as T | undefined,
      update: async (key, value) => void values.set(key, value),
    },
    secrets: {
      get: async (key) => secrets.get(key),
      store: async (key, value) => void secrets.set(key, value),
      delete: async (key) => void secrets.delete(key),
    },
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

export async function run(): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), 'vp-bench-views-'));
  const account = { accessKey: 'bench-ak', secretKey: 'bench-secret-key' };
  const platform = await startLocalPlatform({ dataDir, accounts: [account], port: 0 });
  const client = new PlatformClient({ baseUrl: platform.baseUrl, ...account });
  try {
    const [template] = await client.liveGetTemplates({});
    const templateId =
      template?.id ??
      (
        await client.liveTemplateCreate({
          displayName: '720p',
          videoWidth: 1280,
          videoHeight: 720,
          videoBitrate: 2000,
          audioBitrate: 128,
          frameRate: 25,
        })
      ).id;
    for (let i = 0; i < CHANNELS; i++) {
      await client.liveCreateChannel({
        name: `Bench ${String(i).padStart(3, '0')}`,
        signalType: '1',
        outputGroupList: [{ protocolType: 1, isRecord: '1', outputTemplateList: [{ templateId, isDefault: '1' }] }],
      });
    }

    const listAll = async (pageSize: number): Promise<{ ms: number; requests: number }> => {
      const { state, secrets } = memory();
      const store = new AccountStore(state, secrets);
      const profile = await store.add(
        { name: 'Bench', baseUrl: platform.baseUrl, ...{ accessKey: account.accessKey } },
        account.secretKey,
      );
      await store.setActive(profile.id);
      let requests = 0;
      const log: LogSink = { ...quiet, info: () => void requests++ };
      const connection = new Connection({ store, log });
      const model = new ChannelTreeModel(connection, () => pageSize);
      const started = performance.now();
      let nodes = await model.getChildren();
      for (let more = nodes.at(-1); more instanceof LoadMoreNode; more = nodes.at(-1)) {
        await more.load();
        nodes = await model.getChildren();
      }
      const ms = performance.now() - started;
      if (nodes.filter((node) => node instanceof ChannelNode).length !== CHANNELS)
        throw new Error('not every channel was listed');
      await connection.dispose();
      return { ms, requests };
    };

    const paged: number[] = [];
    const single: number[] = [];
    let pagedRequests = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const a = await listAll(50);
      paged.push(a.ms);
      pagedRequests = a.requests;
      single.push((await listAll(500)).ms);
    }
    console.log(
      `list ${CHANNELS} channels, page size 50 : ${median(paged).toFixed(1)} ms median of ${ROUNDS} (${pagedRequests} requests)`,
    );
    console.log(
      `list ${CHANNELS} channels, page size 500: ${median(single).toFixed(1)} ms median of ${ROUNDS} (1 request)`,
    );
    console.log(`ratio paged / single page: ${(median(paged) / median(single)).toFixed(2)}x`);

    const { channels } = await client.liveGetChannelsByPage({ number: CHANNELS });
    const build = (): number => {
      const started = performance.now();
      for (const channel of channels) channelView(channel);
      return performance.now() - started;
    };
    build();
    const builds = Array.from({ length: 20 }, build);
    console.log(
      `tree item for a channel (label, icon, flags, tooltip): ${((median(builds) / channels.length) * 1000).toFixed(1)} µs each`,
    );
  } finally {
    await client.close();
    await platform.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}
