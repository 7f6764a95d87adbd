import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PlatformClient } from '../../../src/api/client';
import { applyPlan } from '../../../src/app/configs/apply';
import { planFolder, planJson } from '../../../src/app/configs/plan';
import { pullFolder, pullNotes } from '../../../src/app/configs/pull';
import { ACCESS_KEY, SECRET_KEY, startTestPlatform, type TestPlatform } from '../helpers/platform';

type Json = Record<string, unknown>;
const FILE = 'Mobile HLS.templategroup.json';

/**
 * A loopback server in front of the local platform that answers as a real platform may: the template group list
 * without each group's templates. Everything else is forwarded unchanged (the signature does not cover the host);
 * the actions it forwarded are kept, in order.
 */
async function startUnlistingServer(
  target: string,
): Promise<{ baseUrl: string; seen: string[]; close(): Promise<void> }> {
  const seen: string[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const url = new URL(req.url ?? '/', target);
      const action = url.searchParams.get('action') ?? new URLSearchParams(body.toString('utf8')).get('action') ?? '';
      seen.push(action);
      const headers = { ...req.headers, host: url.host };
      delete headers['accept-encoding'];
      const forward = request(url, { method: req.method, headers }, (answer) => {
        const parts: Buffer[] = [];
        answer.on('data', (part: Buffer) => parts.push(part));
        answer.on('end', () => {
          let text = Buffer.concat(parts).toString('utf8');
          if (action === 'templateGroupList') {
            const envelope = JSON.parse(text) as { result: Json[] };
            for (const group of envelope.result) delete group.transcodeTemplates;
            text = JSON.stringify(envelope);
          }
          res.writeHead(answer.statusCode ?? 502, {
            'content-type': answer.headers['content-type'] ?? 'application/json',
            'content-length': Buffer.byteLength(text),
          });
          res.end(text);
        });
      });
      forward.on('error', () => res.destroy());
      forward.end(body);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe('configuration as code: a platform that lists template groups without their templates', function () {
  let platform: TestPlatform;
  let proxy: Awaited<ReturnType<typeof startUnlistingServer>>;
  let direct: PlatformClient;
  let unlisting: PlatformClient;
  let dir: string;
  /** The folder's account is the address it was pulled from: the loopback server's. */
  let account: string;

  const readJson = async (): Promise<Json> => JSON.parse(await readFile(join(dir, FILE), 'utf8')) as Json;
  /** The group's templates as the platform holds them (asked directly, where they are listed). */
  const platformTemplates = async (): Promise<unknown> =>
    (await direct.templateGroupList()).find((g) => g.name === 'Mobile HLS')?.transcodeTemplates;

  beforeEach(async () => {
    platform = await startTestPlatform();
    proxy = await startUnlistingServer(platform.platform.baseUrl);
    account = proxy.baseUrl;
    direct = new PlatformClient({ baseUrl: platform.platform.baseUrl, accessKey: ACCESS_KEY, secretKey: SECRET_KEY });
    unlisting = new PlatformClient({ baseUrl: proxy.baseUrl, accessKey: ACCESS_KEY, secretKey: SECRET_KEY });
    dir = await mkdtemp(join(tmpdir(), 'vp-configs-unlisted-'));
  });
  afterEach(async () => {
    await unlisting.close();
    await direct.close();
    await proxy.close();
    await platform.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('a first pull writes no empty template list and says so; a change planned from that file is refused, nothing sent', async () => {
    const before = await platformTemplates();
    assert.ok(Array.isArray(before) && before.length === 2, JSON.stringify(before));
    const result = await pullFolder(unlisting, dir, { account });
    const doc = await readJson();
    assert.equal('transcodeTemplates' in doc, false, JSON.stringify(doc));
    const notes = pullNotes(result).join(' ');
    assert.match(notes, /without their templates: .*Mobile HLS\.templategroup\.json/);

    await writeFile(join(dir, FILE), `${JSON.stringify({ ...doc, trailorDuration: 45 }, null, 2)}\n`);
    const plan = await planFolder(unlisting, dir, { account });
    const problem = plan.problems.find((p) => p.file === FILE);
    assert.ok(problem, JSON.stringify(plan.problems));
    assert.match(problem.message, /without its templates, and this file has none: the update would leave the group/);
    proxy.seen.length = 0;
    await assert.rejects(applyPlan(unlisting, plan), /nothing was sent/);
    assert.deepEqual(proxy.seen, [], 'a request went out');
    assert.deepEqual(await platformTemplates(), before, "the group's templates changed");
  });

  it('pulling again keeps the templates the file has; a change of another field is one update, and the templates stay', async () => {
    // Pulled where the templates are listed (the file has them), then again where they are not.
    await pullFolder(direct, dir, { account });
    const pulled = await readJson();
    assert.equal((pulled.transcodeTemplates as unknown[]).length, 2);
    const state = await readFile(join(dir, '.video-platform-state.json'), 'utf8');
    // The same folder, now read through the loopback server: its state names that address.
    await writeFile(
      join(dir, '.video-platform-state.json'),
      state.replace(JSON.stringify(platform.platform.baseUrl), JSON.stringify(account)),
    );
    const again = await pullFolder(unlisting, dir, { account });
    assert.equal(again.files.find((f) => f.file === FILE)?.change, 'unchanged');
    assert.deepEqual(await readJson(), pulled);
    const quiet = planJson(await planFolder(unlisting, dir, { account })) as {
      operations: Array<{ action: string }>;
      problems: unknown[];
    };
    assert.deepEqual(
      quiet.operations.filter((op) => op.action !== 'none'),
      [],
      'no drift where the platform says nothing',
    );

    await writeFile(join(dir, FILE), `${JSON.stringify({ ...pulled, trailorDuration: 45 }, null, 2)}\n`);
    const plan = await planFolder(unlisting, dir, { account });
    assert.deepEqual(plan.problems, []);
    const update = plan.operations.find((op) => op.file === FILE);
    assert.equal(update?.action, 'update');
    assert.deepEqual(
      update.changes.map((c) => c.path),
      ['trailorDuration'],
    );
    const before = await platformTemplates();
    const applied = await applyPlan(unlisting, plan);
    assert.equal(applied.failed, undefined);
    assert.deepEqual(applied.ran[0]?.normalised, [], 'the templates read back as "normalised"');
    assert.deepEqual(await platformTemplates(), before);
    const group = (await direct.templateGroupList()).find((g) => g.name === 'Mobile HLS');
    assert.equal(group?.trailorDuration, 45);
    const after = planJson(await planFolder(unlisting, dir, { account })) as { operations: Array<{ action: string }> };
    assert.deepEqual(
      after.operations.filter((op) => op.action !== 'none'),
      [],
    );
  });
});
