/** Durability: restart, compaction, damaged records, a full disk, kill -9 during a burst, the folder lock. */
import * as assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { appendFile, chmod, mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PlatformClient } from '../../../src/api/client';
import { Codes } from '../../../src/api/errorCodes';
import { ApiError } from '../../../src/api/errors';
import { accountDir } from '../../../src/localPlatform/accounts';
import { injectedFaults } from '../../../src/localPlatform/http/faults';
import { processStartTime } from '../../../src/localPlatform/store/dirLock';
import { AccountStore, Tx } from '../../../src/localPlatform/store/store';
import { runCli, stopCli, type CliProcess } from '../child';
import { eventually } from '../../helpers/eventually';
import { ACCOUNT, apiError, OTHER, removeDir, tempDir, TestPlatform } from '../harness';

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
        'the resumed transcoding to complete',
        async () => {
          const v = await c.getVideoInfo(source.id);
          return v.status === 2 ? v : undefined;
        },
        10_000,
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

  describe('damaged records', () => {
    /** A store with three committed categories; returns the journal file holding them. */
    const write = async (sub: string): Promise<string> => {
      const store = await AccountStore.open(join(dir!, sub));
      for (const [id, name] of [
        [1, 'one'],
        [2, 'two'],
        [3, 'three'],
      ] as const)
        await store.commit(new Tx().put('videoCategories', { id, name }));
      await store.close();
      const journals = (await readdir(join(dir!, sub))).filter((f) => f.startsWith('journal.'));
      const written = [];
      for (const f of journals) if ((await readFile(join(dir!, sub, f), 'utf8')).length > 0) written.push(f);
      assert.equal(written.length, 1);
      return join(dir!, sub, written[0]);
    };
    const names = (store: AccountStore): string[] =>
      [...store.values('videoCategories')].sort((a, b) => a.id - b.id).map((c) => c.name);
    const open = async (sub: string): Promise<{ store: AccountStore; reports: string[] }> => {
      const reports: string[] = [];
      const store = await AccountStore.open(join(dir!, sub), { onDamage: (m) => reports.push(m) });
      return { store, reports };
    };

    it('drops a torn last line (a crash mid-write) without a report', async () => {
      dir = await tempDir();
      const torn = await write('torn');
      await appendFile(torn, '0badc0de {"s":99,"m":[{"c":"videoCategories","id":"4","v":{"id":4,"na');
      const { store, reports } = await open('torn');
      assert.deepEqual(names(store), ['one', 'two', 'three']);
      assert.deepEqual(reports, []);
      await store.close();
    });

    it('keeps every intact record around a damaged middle line, keeps the file aside and says what was lost', async () => {
      dir = await tempDir();
      const file = await write('middle');
      const lines = (await readFile(file, 'utf8')).split('\n');
      lines[1] = lines[1].slice(0, 30);
      await writeFile(file, lines.join('\n'));
      const { store, reports } = await open('middle');
      try {
        assert.deepEqual(names(store), ['one', 'three']);
        assert.equal(reports.length, 1);
        assert.match(reports[0], /1 damaged record could not be read and was left out \(line 2\)/);
        assert.ok(reports[0].includes(file), reports[0]);
        const kept = (await readdir(join(dir, 'middle'))).filter((f) => f.includes('.damaged-'));
        assert.equal(kept.length, 1);
        assert.ok(reports[0].includes(kept[0]));
        assert.equal(await readFile(join(dir, 'middle', kept[0]), 'utf8'), lines.join('\n'));
        await store.commit(new Tx().put('videoCategories', { id: 4, name: 'four' }));
      } finally {
        await store.close();
      }
      // The intact records were rewritten: the next start reports nothing and loses nothing.
      const again = await open('middle');
      assert.deepEqual(names(again.store), ['one', 'three', 'four']);
      assert.deepEqual(again.reports, []);
      await again.store.close();
    });

    it('detects a changed byte inside a value (the checksum) instead of loading another value', async () => {
      dir = await tempDir();
      const file = await write('flipped');
      const text = await readFile(file, 'utf8');
      assert.ok(text.includes('"two"'));
      await writeFile(file, text.replace('"two"', '"twO"'));
      const { store, reports } = await open('flipped');
      try {
        assert.deepEqual(names(store), ['one', 'three']);
        assert.match(reports[0], /1 damaged record .*\(line 2\)/);
      } finally {
        await store.close();
      }
    });

    it('detects a changed byte in a snapshot record and keeps the others', async () => {
      dir = await tempDir();
      const store = await AccountStore.open(join(dir, 'snap'));
      for (let i = 1; i <= 3; i++) await store.commit(new Tx().put('videoCategories', { id: i, name: `cat ${i}` }));
      await store.compact();
      await store.close();
      const snapshot = join(dir, 'snap', 'snapshot.jsonl');
      await writeFile(snapshot, (await readFile(snapshot, 'utf8')).replace('"cat 2"', '"cat 9"'));
      const { store: again, reports } = await open('snap');
      try {
        assert.deepEqual(names(again), ['cat 1', 'cat 3']);
        assert.match(reports[0], /snapshot\.jsonl: 1 damaged record/);
      } finally {
        await again.close();
      }
    });

    it('counts a line that lost its checksum, in a journal written with checksums, as damaged', async () => {
      dir = await tempDir();
      const file = await write('stripped');
      const lines = (await readFile(file, 'utf8')).split('\n');
      lines[1] = lines[1].replace(/^[0-9a-f]{8} /, '').replace('"two"', '"owt"');
      await writeFile(file, lines.join('\n'));
      const { store, reports } = await open('stripped');
      try {
        assert.deepEqual(names(store), ['one', 'three']);
        assert.match(reports[0], /\(line 2\)/);
      } finally {
        await store.close();
      }
    });

    it('still loads a journal written before checksums', async () => {
      dir = await tempDir();
      await mkdir(join(dir, 'old'));
      const line = (s: number, id: number, name: string): string =>
        `${JSON.stringify({ s, m: [{ c: 'videoCategories', id: String(id), v: { id, name } }] })}\n`;
      await writeFile(join(dir, 'old', 'journal.0000000001.log'), line(1, 1, 'old one') + line(2, 2, 'old two'));
      const { store, reports } = await open('old');
      assert.deepEqual(names(store), ['old one', 'old two']);
      assert.deepEqual(reports, []);
      await store.close();
    });
  });

  describe('a full disk', () => {
    afterEach(() => {
      injectedFaults.journalWrite = undefined;
    });

    it('refuses the write that failed with a clear message, leaves memory as it was, keeps reads and recovers', async () => {
      dir = await tempDir();
      const p = await TestPlatform.start({ demo: true }, dir);
      try {
        const c = p.client();
        await c.liveChannelTypeCreate('Before');
        const before = await c.liveChannelTypeList();
        injectedFaults.journalWrite = () =>
          Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
        const error = await apiError(
          c.liveChannelTypeCreate('Lost'),
          Codes.storageUnavailable,
          'data folder is full (ENOSPC)',
          'nothing was changed',
        );
        assert.ok(!error.platformMessage.includes(p.dataDir), error.platformMessage);
        // Memory is as it was, and reads answer (they used to answer 10000 until a restart).
        assert.deepEqual(await c.liveChannelTypeList(), before);
        assert.ok((await c.liveGetChannelsByPage()).count >= 4);
        injectedFaults.journalWrite = undefined;
        await c.liveChannelTypeCreate('After');
        assert.deepEqual(
          (await c.liveChannelTypeList()).map((x) => x.name).filter((n) => ['Before', 'Lost', 'After'].includes(n)),
          ['Before', 'After'],
        );
      } finally {
        await p.close();
      }
      // The journal was cut back to its last whole line: a restart reads exactly what was answered.
      const again = await TestPlatform.start({ accounts: [ACCOUNT] }, dir);
      try {
        const names = (await again.client().liveChannelTypeList()).map((x) => x.name);
        assert.ok(names.includes('Before') && names.includes('After') && !names.includes('Lost'), names.join());
      } finally {
        await again.close();
      }
    });

    it('on a real small file system: ENOSPC is refused readably, reads work, writes work again once there is room', async function () {
      this.timeout(30_000);
      dir = await tempDir();
      const mountPoint = join(dir, 'small');
      await mkdir(mountPoint);
      try {
        execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', mountPoint], { stdio: 'ignore' });
      } catch {
        // Mounting needs root (or a user namespace); the injected failure above covers the behaviour.
        this.skip();
      }
      try {
        const p = await TestPlatform.start({ accounts: [ACCOUNT] }, join(mountPoint, 'data'));
        try {
          const c = p.client();
          await c.liveChannelTypeCreate('Fits');
          // Fill the disk, leaving less room than one write.
          const filler = join(mountPoint, 'filler');
          const chunk = Buffer.alloc(64 * 1024, 1);
          try {
            for (;;) await appendFile(filler, chunk);
          } catch {
            // full
          }
          try {
            for (;;) await appendFile(filler, Buffer.alloc(512, 1));
          } catch {
            // full to the last block
          }
          const long = 'x'.repeat(60);
          let refused: unknown;
          for (let i = 0; i < 200 && refused === undefined; i++) {
            await c.liveChannelTypeCreate(`${long}${i}`).catch((error: unknown) => (refused = error));
          }
          assert.ok(refused instanceof ApiError, String(refused));
          assert.equal(refused.code, Codes.storageUnavailable, refused.platformMessage);
          assert.match(refused.platformMessage, /data folder is full \(ENOSPC\)/);
          const listed = await c.liveChannelTypeList();
          assert.ok(listed.some((x) => x.name === 'Fits'));
          await rm(filler);
          await c.liveChannelTypeCreate('Room again');
          assert.ok((await c.liveChannelTypeList()).some((x) => x.name === 'Room again'));
        } finally {
          await p.close();
        }
      } finally {
        execFileSync('umount', [mountPoint], { stdio: 'ignore' });
      }
    });
  });

  it('keeps the data folder and its files to the owner (0700 / 0600), also ones made readable before', async function () {
    if (process.platform === 'win32') this.skip();
    dir = await tempDir();
    let p = await TestPlatform.start({ accounts: [ACCOUNT] }, dir);
    await p.client().liveChannelTypeCreate('Secret stuff');
    await p.close();
    const account = accountDir(dir, ACCOUNT.accessKey);
    const modes = async (): Promise<string[]> => {
      const found = [`${dir}:${((await stat(dir!)).mode & 0o777).toString(8)}`];
      for (const d of [join(dir!, 'accounts'), account])
        found.push(`${d}:${((await stat(d)).mode & 0o777).toString(8)}`);
      for (const f of await readdir(account)) {
        // A snapshot being written (snapshot.jsonl.tmp) may be renamed between readdir and stat.
        const s = await stat(join(account, f)).catch((e: NodeJS.ErrnoException) => {
          if (e.code === 'ENOENT') return undefined;
          throw e;
        });
        if (s) found.push(`${f}:${(s.mode & 0o777).toString(8)}`);
      }
      return found;
    };
    for (const entry of await modes()) assert.match(entry, /:(700|600)$/, entry);
    // An older version left everything readable by all: fixed at the next start.
    await chmod(dir, 0o755);
    await chmod(account, 0o755);
    for (const f of await readdir(account)) await chmod(join(account, f), 0o644);
    p = await TestPlatform.start({ accounts: [ACCOUNT] }, dir);
    try {
      for (const entry of await modes()) assert.match(entry, /:(700|600)$/, entry);
    } finally {
      await p.close();
    }
  });

  it('says plainly that a read-only data folder is not writable, naming the folder', async function () {
    if (process.platform === 'win32') this.skip();
    dir = await tempDir();
    const mountPoint = join(dir, 'ro');
    await mkdir(join(mountPoint, 'data'), { recursive: true });
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'ro,size=1m', 'tmpfs', mountPoint], { stdio: 'ignore' });
    } catch {
      this.skip(); // needs root; an unwritable folder below covers EACCES for other users
    }
    try {
      await assert.rejects(
        TestPlatform.start({ accounts: [ACCOUNT] }, mountPoint),
        (error: Error) => error.message === `the data folder ${mountPoint} is on a read-only file system (EROFS)`,
      );
    } finally {
      execFileSync('umount', [mountPoint], { stdio: 'ignore' });
    }
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

  it('lets exactly one of two platforms started together take a folder with a stale lock', async function () {
    this.timeout(120_000);
    dir = await tempDir();
    const lock = join(accountDir(dir, ACCOUNT.accessKey), 'lock');
    await mkdir(accountDir(dir, ACCOUNT.accessKey), { recursive: true });
    // A dead process's pid: a lock left by a crash.
    const dead = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
    const deadPid = await new Promise<number>((resolve) => dead.on('exit', () => resolve(dead.pid!)));
    const together = join(__dirname, '..', 'startTogether.ts');
    for (let round = 0; round < 6; round++) {
      await writeFile(lock, `${deadPid} 1`);
      // Both children load first, then start at the same instant.
      const at = String(Date.now() + 1500);
      const pair = [0, 1].map(() =>
        spawn(process.execPath, ['--import', 'tsx', together, dir!, ACCOUNT.accessKey, ACCOUNT.secretKey, at], {
          stdio: ['ignore', 'pipe', 'inherit'],
        }),
      );
      try {
        const outcomes = await Promise.all(
          pair.map(
            (child) =>
              new Promise<string>((resolve) => {
                let out = '';
                child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
                  out += chunk;
                  if (out.endsWith('\n')) resolve(out.trim());
                });
                child.on('exit', () => resolve(out.trim()));
              }),
          ),
        );
        assert.equal(outcomes.filter((o) => o === 'serving').length, 1, `round ${round}: ${outcomes.join(' | ')}`);
        assert.match(
          outcomes.find((o) => o !== 'serving')!,
          /in use by another local platform/,
        );
      } finally {
        for (const child of pair) if (child.exitCode === null) child.kill('SIGKILL');
        await Promise.all(
          pair.map((child) =>
            child.exitCode === null && child.signalCode === null ? new Promise((r) => child.on('exit', r)) : undefined,
          ),
        );
      }
    }
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
