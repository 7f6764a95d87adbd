/** Durability: restart, compaction, torn journal lines, kill -9 during a burst of writes. */
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { appendFile, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PlatformClient } from '../../src/api/client';
import { accountDir } from '../../src/localPlatform/accounts';
import { processStartTime } from '../../src/localPlatform/dirLock';
import { AccountStore, Tx } from '../../src/localPlatform/store';
import { runCli, stopCli, type CliProcess } from './child';
import { ACCOUNT, eventually, OTHER, removeDir, tempDir, TestPlatform } from './harness';

describe('local platform: durability', () => {
  let dir: string | undefined;
  afterEach(async () => {
    await removeDir(dir);
    dir = undefined;
  });

  it('serves the same data after a restart (addresses follow the new port)', async () => {
    dir = await tempDir();
    let p = await TestPlatform.start({ demo: true }, dir);
    let c = p.client();
    const category = await c.liveChannelTypeCreate('Persisted');
    const template = await c.liveTemplateCreate({
      displayName: 'P',
      videoWidth: 640,
      videoHeight: 360,
      videoBitrate: 500,
    });
    const ch = await c.liveCreateChannel({
      name: 'Survivor',
      signalType: '1',
      type: category.id,
      outputGroupList: [{ protocolType: 1, outputTemplateList: [{ templateId: template.id, isDefault: '1' }] }],
    });
    await c.liveStartChannel(ch.id);
    const groupId = await c.templateGroup({
      name: 'G',
      type: 0,
      trailor: false,
      trailorDuration: 0,
      logoGroupId: 0,
      transcodeTemplates: [
        {
          name: 'a',
          videoWidth: 640,
          videoHeight: 360,
          videoBitrate: 500,
          audioBitrate: 64000,
          format: 0,
          encryptType: 0,
          defaultVideo: 1,
        },
      ],
    });
    const snapshot = async (client: PlatformClient, base: string): Promise<string> =>
      JSON.stringify({
        channels: await client.liveGetChannelsByPage({ number: 100 }),
        videos: await client.queryVideo({ start: 1, number: 100, sort: 'title', order: 'asc' }),
        groups: await client.templateGroupList(),
        logos: await client.getLogoGroupList(),
        templates: await client.liveGetTemplates(),
        categories: await client.liveChannelTypeList(),
      })
        .split(base)
        .join('BASE');
    const before = await snapshot(c, p.platform.baseUrl);
    const oldPort = p.platform.port;
    await p.close();

    p = await TestPlatform.start({ demo: true }, dir);
    c = p.client();
    try {
      assert.equal(await snapshot(c, p.platform.baseUrl), before);
      assert.equal((await c.liveGetChannelById(ch.id)).status, 2);
      assert.ok((await c.templateGroupList()).some((g) => g.id === groupId));
      if (p.platform.port !== oldPort) assert.ok(!(await snapshot(c, 'no-replace')).includes(`:${oldPort}/`));
      // Demo data is seeded only once: the account was not new any more.
      assert.equal((await c.liveGetChannelsByPage({ searchType: 'name', keyword: 'Newsroom' })).count, 1);
    } finally {
      await p.close();
    }
  });

  it('resumes a transcoding in flight after a restart and completes it', async function () {
    this.timeout(20_000);
    dir = await tempDir();
    // Clock speed 10: queued 0.2 s, running 0.8 s, deadlines stored with the job.
    let p = await TestPlatform.start({ demo: true, clockSpeed: 10 }, dir);
    let c = p.client();
    const [source] = await c.queryVideo({
      start: 1,
      number: 1,
      sort: 'title',
      order: 'asc',
      searchType: 'title',
      keyword: 'Raw upload',
    });
    const [r] = await c.secondTranscodeV2({ videoIds: [source.id], replace: true, transcodeTemplateGroupId: 2 });
    assert.equal(r.code, 0);
    await p.close();
    p = await TestPlatform.start({ demo: true, clockSpeed: 10 }, dir);
    c = p.client();
    try {
      const done = await eventually(
        async () => {
          const v = await c.getVideoInfo(source.id);
          return v.status === 2 ? v : undefined;
        },
        10_000,
        'the resumed transcoding to complete',
      );
      assert.deepEqual(
        done.transcodedVideoList.map((s) => [s.name, !!s.mp4Url, s.hlsUrl]),
        [
          ['720p', true, null],
          ['360p', true, null],
        ],
      );
    } finally {
      await p.close();
    }
  });

  it('seeds demo data into an account that holds nothing yet, even one opened before, and only once', async () => {
    dir = await tempDir();
    // A first start that got no further than the account's own meta record (a stop between the
    // meta write and the demo write, or a start without --demo).
    let p = await TestPlatform.start({ accounts: [ACCOUNT, OTHER] }, dir);
    await p.client(ACCOUNT).liveChannelTypeCreate('Data of its own');
    await p.close();
    p = await TestPlatform.start({ accounts: [ACCOUNT, OTHER], demo: true }, dir);
    try {
      const withData = await p.client(ACCOUNT).liveGetChannelsByPage();
      assert.equal(withData.count, 0, 'an account with data of its own gets no demo data');
      const other = p.client(OTHER);
      assert.ok(
        (await other.liveGetChannelsByPage()).count >= 4,
        'the account holding only its meta record got the demo data',
      );
    } finally {
      await p.close();
    }
    p = await TestPlatform.start({ accounts: [OTHER], demo: true }, dir);
    try {
      assert.equal(
        (await p.client(OTHER).liveGetChannelsByPage({ searchType: 'name', keyword: 'Newsroom' })).count,
        1,
        'seeded once',
      );
    } finally {
      await p.close();
    }
  });

  it('compacts the journal into a snapshot and reloads it exactly', async () => {
    dir = await tempDir();
    const store = await AccountStore.open(dir, { compactBytes: 4096 });
    for (let i = 0; i < 300; i++) {
      await store.commit(new Tx().put('videoCategories', { id: i, name: `cat ${i}` }));
      if (i % 7 === 0) await store.commit(new Tx().del('videoCategories', i - 1));
    }
    await store.compact();
    await store.commit(new Tx().put('videoCategories', { id: 1000, name: 'after snapshot' }));
    const expected = [...store.values('videoCategories')];
    await store.close();
    const files = await readdir(dir);
    assert.ok(files.includes('snapshot.jsonl'), files.join(','));
    assert.ok(files.filter((f) => f.startsWith('journal.')).length <= 2, files.join(','));
    const again = await AccountStore.open(dir);
    try {
      assert.deepEqual(
        [...again.values('videoCategories')].sort((a, b) => a.id - b.id),
        expected.sort((a, b) => a.id - b.id),
      );
    } finally {
      await again.close();
    }
  });

  it('drops a torn last journal line (a crash mid-write) and refuses a damaged middle line', async () => {
    dir = await tempDir();
    const write = async (sub: string): Promise<string> => {
      const store = await AccountStore.open(join(dir!, sub));
      await store.commit(new Tx().put('videoCategories', { id: 1, name: 'one' }));
      await store.commit(new Tx().put('videoCategories', { id: 2, name: 'two' }));
      await store.close();
      const journals = (await readdir(join(dir!, sub))).filter((f) => f.startsWith('journal.'));
      const written = [];
      for (const f of journals) if ((await readFile(join(dir!, sub, f), 'utf8')).length > 0) written.push(f);
      assert.equal(written.length, 1);
      return join(dir!, sub, written[0]);
    };
    const torn = await write('torn');
    await appendFile(torn, '{"s":99,"m":[{"c":"videoCategories","id":"3","v":{"id":3,"na');
    const reopened = await AccountStore.open(join(dir, 'torn'));
    assert.deepEqual([...reopened.values('videoCategories')].map((c) => c.name).sort(), ['one', 'two']);
    await reopened.close();

    const damaged = await write('damaged');
    const lines = (await readFile(damaged, 'utf8')).split('\n');
    lines[0] = '{"s":1,"m":[{"c":"videoCat';
    await writeFile(damaged, lines.join('\n'));
    await assert.rejects(AccountStore.open(join(dir, 'damaged')), /damaged line 1 is not the last one/);
  });

  it('keeps every acknowledged write through kill -9 in the middle of a burst', async function () {
    this.timeout(60_000);
    dir = await tempDir();
    let cli: CliProcess | undefined = runCli([
      '--port',
      '0',
      '--data',
      dir,
      '--account',
      `${ACCOUNT.accessKey}:${ACCOUNT.secretKey}`,
    ]);
    try {
      const url = await cli.ready;
      const client = new PlatformClient({
        baseUrl: url,
        accessKey: ACCOUNT.accessKey,
        secretKey: ACCOUNT.secretKey,
        retry: { attempts: 1 },
      });
      const acknowledged: string[] = [];
      let killed = false;
      const worker = async (w: number): Promise<void> => {
        for (let i = 0; !killed; i++) {
          const name = `w${w}-${i}`;
          try {
            if (i % 2 === 0) await client.liveChannelTypeCreate(name);
            else
              await client.liveLogoCreate({
                name,
                uri: `l/${name}.png`,
                width: 10,
                height: 10,
                offsetWidth: 0,
                offsetHeight: 0,
              });
            if (!killed) acknowledged.push(name);
          } catch {
            return; // the server is gone
          }
          if (!killed && acknowledged.length >= 150) {
            killed = true;
            cli!.child.kill('SIGKILL');
          }
        }
      };
      await Promise.all(Array.from({ length: 12 }, (_, w) => worker(w)));
      assert.equal(await cli.exited, 'SIGKILL');
      await client.close();

      const p = await TestPlatform.start({ accounts: [ACCOUNT] }, dir);
      try {
        const c = p.client();
        const names = new Set([
          ...(await c.liveChannelTypeList()).map((x) => x.name),
          ...(await c.liveLogoList()).map((x) => x.name),
        ]);
        const lost = acknowledged.filter((n) => !names.has(n));
        assert.deepEqual(lost, [], `${lost.length} of ${acknowledged.length} acknowledged writes were lost`);
        assert.ok(acknowledged.length >= 150);
        // The store is readable and writable after the crash.
        await c.liveChannelTypeCreate('after the crash');
      } finally {
        await p.close();
      }
    } finally {
      await stopCli(cli);
      cli = undefined;
    }
  });

  it('refuses a second platform on the same data folder, in this process or another', async function () {
    this.timeout(30_000);
    dir = await tempDir();
    const p = await TestPlatform.start({}, dir);
    try {
      await assert.rejects(TestPlatform.start({}, dir), /already open in this process/);
    } finally {
      await p.close();
    }
    const cli = runCli(['--port', '0', '--data', dir, '--account', `${ACCOUNT.accessKey}:${ACCOUNT.secretKey}`]);
    try {
      await cli.ready;
      await assert.rejects(TestPlatform.start({}, dir), /in use by another local platform \(process \d+\)/);
    } finally {
      await stopCli(cli);
    }
    // The lock left by the killed process is stale and taken over.
    const after = await TestPlatform.start({}, dir);
    await after.close();
  });

  it('takes over a lock whose pid now belongs to another process (pids wrap around), not one still held', async function () {
    if (processStartTime(process.pid) === undefined) this.skip(); // no /proc: the pid alone decides
    dir = await tempDir();
    const lock = join(accountDir(dir, ACCOUNT.accessKey), 'lock');
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    try {
      const pid = other.pid!;
      const start = processStartTime(pid)!;
      await mkdir(accountDir(dir, ACCOUNT.accessKey), { recursive: true });
      // The live process is the owner recorded in the lock: refused.
      await writeFile(lock, `${pid} ${start}`);
      await assert.rejects(
        TestPlatform.start({ accounts: [ACCOUNT] }, dir),
        new RegExp(`in use by another local platform \\(process ${pid}\\)`),
      );
      // The lock names the same pid with another start time: a dead owner whose pid was reused.
      await writeFile(lock, `${pid} ${Number(start) + 1}`);
      const p = await TestPlatform.start({ accounts: [ACCOUNT] }, dir);
      assert.match(await readFile(lock, 'utf8'), new RegExp(`^${process.pid} \\d+$`));
      await p.close();
    } finally {
      other.kill('SIGKILL');
    }
  });

  it('keeps accounts apart, each with its own user id and data folder', async () => {
    dir = await tempDir();
    const p = await TestPlatform.start({}, dir);
    try {
      const a = p.client(ACCOUNT);
      const b = p.client(OTHER);
      const ca = await a.liveChannelTypeCreate('Only A');
      const cb = await b.liveChannelTypeCreate('Only B');
      assert.notEqual(ca.userId, cb.userId);
      assert.deepEqual(
        (await a.liveChannelTypeList()).map((c) => c.name),
        ['Only A'],
      );
      assert.deepEqual(
        (await b.liveChannelTypeList()).map((c) => c.name),
        ['Only B'],
      );
      const folders = await readdir(join(dir, 'accounts'));
      assert.deepEqual(
        folders.sort(),
        [accountDir(dir, ACCOUNT.accessKey), accountDir(dir, OTHER.accessKey)]
          .map((d) => d.split(/[\\/]/).at(-1)!)
          .sort(),
      );
      for (const f of folders) assert.match(f, /^[0-9a-f]{32}$/, 'folder names are hashes, never raw keys');
    } finally {
      await p.close();
    }
  });
});
