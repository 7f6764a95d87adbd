/**
 * The faults a platform applies now: a profile file's rules (`--faults FILE`, read again when it changes: for every
 * account, each rule on what its target names there) and the rules injected per account (`/_local/faults`, the
 * extension's "Inject Stream Fault..."), never another account's. The routers hand each HLS answer to `serve`:
 * with no rule for it, the router answers as ever; otherwise the answer is captured, its content rewritten
 * (content.ts) and delivered with the delivery faults (delivery.ts).
 */
import { unwatchFile, watchFile } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Account } from '../actions/context';
import type { AccountStore } from '../store/store';
import { regressSequence, rewriteMaster, rewriteMediaPlaylist, rewriteSegment, type KeyedRule } from './content';
import { CapturedAnswer, deliver } from './delivery';
import { drawn, rulesFor, segmentHit, type Served } from './match';
import {
  checkTargets,
  DELIVERY_FAULTS,
  parseProfile,
  ProfileError,
  targetMatches,
  type Catalog,
  type FaultRule,
} from './profile';

const DELIVERY = new Set<string>(DELIVERY_FAULTS);
/** Playlists remembered per stalled rule: bounded, a player reads a handful. */
const MAX_REMEMBERED = 200;

/** What the routers call (media/router.ts, live/router.ts). */
export interface FaultHook {
  serve(
    req: IncomingMessage,
    res: ServerResponse,
    owner: AccountStore,
    served: Served,
    answer: (res: ServerResponse) => Promise<void> | void,
  ): Promise<void>;
}

function catalogOf(account: Account): Catalog {
  return {
    channels: account.store.values('channels'),
    videos: account.store.values('videos'),
  };
}

function remember<V>(map: Map<string, V>, key: string, value: V): void {
  if (map.size >= MAX_REMEMBERED) map.delete(map.keys().next().value as string);
  map.set(key, value);
}

export class FaultBoard implements FaultHook {
  private fileRules: FaultRule[] = [];
  private readonly injected = new Map<string, FaultRule[]>();
  /** playlist-stall: the text each stalled playlist froze at. */
  private readonly frozen = new WeakMap<FaultRule, Map<string, string>>();
  /** sequence-regress: how often each playlist was served. */
  private readonly reloads = new WeakMap<FaultRule, Map<string, number>>();
  private watching: string | undefined;

  constructor(
    private readonly accounts: ReadonlyMap<string, Account>,
    private readonly log: (line: string) => void = () => undefined,
  ) {}

  /** Checks the targets of a file's rules: each names a channel or video of at least one account. */
  private checkFileTargets(rules: FaultRule[], where: string): void {
    rules.forEach((rule, i) => {
      const named = [...this.accounts.values()].some((account) => {
        try {
          checkTargets([rule], catalogOf(account), where);
          return true;
        } catch {
          return false;
        }
      });
      if (!named) checkTargets([rule], { channels: [], videos: [] }, `${where}: rule ${i} (in every account)`);
    });
  }

  /** Reads the profile file; throws ProfileError (nothing changed) when it is not a valid profile. */
  async loadFile(file: string): Promise<number> {
    const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
      // A removed file turns the file's faults off (the on/off switch of the command line).
      if (error.code === 'ENOENT') return '[]';
      throw new ProfileError(`--faults ${file} cannot be read (${error.code ?? error.message})`);
    });
    const rules = text.trim() === '' ? [] : parseProfile(text, `--faults ${file}`);
    this.checkFileTargets(rules, `--faults ${file}`);
    this.fileRules = rules;
    return rules.length;
  }

  /** Reads the file now (a bad profile is refused), then again each time it changes (a bad edit is logged). */
  async watch(file: string): Promise<void> {
    await this.loadFile(file);
    this.watching = file;
    watchFile(file, { interval: 300 }, () => {
      this.loadFile(file).then(
        (n) => this.log(`faults: ${file} read again: ${n} rule${n === 1 ? '' : 's'} active`),
        (error: unknown) =>
          this.log(`faults: ${String(error instanceof Error ? error.message : error)}; the previous rules stay`),
      );
    });
  }

  close(): void {
    if (this.watching) unwatchFile(this.watching);
  }

  /** Adds rules for one account (checked against its channels and videos first; nothing changes on a refusal). */
  inject(accessKey: string, rules: FaultRule[]): void {
    const account = this.accounts.get(accessKey);
    if (!account) throw new ProfileError('no such account');
    checkTargets(rules, catalogOf(account));
    this.injected.set(accessKey, [...(this.injected.get(accessKey) ?? []), ...rules]);
  }

  /** Removes an account's injected rules: those naming `target` (its id or name), or all. Returns how many. */
  clear(accessKey: string, target?: string): number {
    const rules = this.injected.get(accessKey) ?? [];
    const kept = target === undefined ? [] : rules.filter((r) => r.target !== target);
    this.injected.set(accessKey, kept);
    return rules.length - kept.length;
  }

  /** The rules of one account: injected ones, and the file's. */
  list(accessKey: string): { injected: FaultRule[]; file: FaultRule[] } {
    return { injected: [...(this.injected.get(accessKey) ?? [])], file: [...this.fileRules] };
  }

  /** The channels and videos of an account that some active rule hits (for the tree's indication). */
  activeItems(accessKey: string): string[] {
    const account = this.accounts.get(accessKey);
    if (!account) return [];
    const rules = [...this.fileRules, ...(this.injected.get(accessKey) ?? [])];
    const items = [
      ...[...account.store.values('channels')].map((c) => ({ id: c.id, name: c.name })),
      ...[...account.store.values('videos')].map((v) => ({ id: v.id, name: v.title })),
    ];
    return items.filter((item) => rules.some((r) => targetMatches(r.target, item))).map((item) => item.id);
  }

  private rulesOf(owner: AccountStore): FaultRule[] {
    for (const [accessKey, account] of this.accounts) {
      if (account.store === owner) return [...this.fileRules, ...(this.injected.get(accessKey) ?? [])];
    }
    return [];
  }

  async serve(
    req: IncomingMessage,
    res: ServerResponse,
    owner: AccountStore,
    served: Served,
    answer: (res: ServerResponse) => Promise<void> | void,
  ): Promise<void> {
    const rules = this.rulesOf(owner);
    if (rules.length === 0) return answer(res);
    const fitting = rulesFor(rules, served).map((rule) => ({ rule, key: JSON.stringify(rule) }));
    if (served.file === 'key' && fitting.some(({ rule }) => rule.fault === 'key-404')) {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8', 'Access-Control-Allow-Origin': '*' });
      res.end(req.method === 'HEAD' ? undefined : 'stream fault: key-404\n');
      return;
    }
    const delivery = fitting
      .filter((k) => DELIVERY.has(k.rule.fault) && this.deliveryHits(k, served))
      .map((k) => k.rule);
    const content = fitting.filter((k) => this.contentFits(k, served));
    if (delivery.length === 0 && content.length === 0) return answer(res);
    const captured = new CapturedAnswer();
    await answer(captured as unknown as ServerResponse);
    const got = await captured.answer();
    if (!got) {
      res.destroy();
      return;
    }
    if (got.status === 200 && req.method !== 'HEAD' && content.length > 0)
      got.body = this.rewrite(got.body, content, served);
    await deliver(res, got, delivery, req.method === 'HEAD');
  }

  /** A delivery rule hits this file: its kinds, and for a segment its segment selectors; its draw. */
  private deliveryHits({ rule, key }: KeyedRule, served: Served): boolean {
    if (rule.files && !rule.files.includes(served.file)) return false;
    if (served.file === 'segment') return segmentHit(rule, key, served, served.path);
    if (rule.segmentIndex !== undefined || rule.mediaSequence !== undefined) return false;
    return drawn(rule, key, served.path);
  }

  private contentFits({ rule, key }: KeyedRule, served: Served): boolean {
    switch (rule.fault) {
      case 'bandwidth-lie':
        return served.file === 'master';
      case 'playlist-stall':
      case 'sequence-regress':
        return served.file === 'playlist' && served.item.kind === 'channel' && drawn(rule, key, served.path);
      case 'segment-drop':
      case 'extinf-lie':
        return served.file === 'playlist';
      case 'timestamp-jump':
      case 'no-idr-start':
      case 'audio-gap':
        return served.file === 'segment' && segmentHit(rule, key, served, served.path);
      default:
        return false;
    }
  }

  private rewrite(body: Buffer, content: KeyedRule[], served: Served): Buffer {
    if (served.file === 'segment')
      return rewriteSegment(
        body,
        content.map((k) => k.rule),
      );
    let text = body.toString('utf8');
    if (served.file === 'master') return Buffer.from(rewriteMaster(text, content, served.variants ?? []));
    const stall = content.find((k) => k.rule.fault === 'playlist-stall');
    if (stall) {
      let frozen = this.frozen.get(stall.rule);
      if (!frozen) this.frozen.set(stall.rule, (frozen = new Map()));
      const kept = frozen.get(served.path);
      if (kept !== undefined) return Buffer.from(kept);
      remember(frozen, served.path, text);
    }
    text = rewriteMediaPlaylist(text, content, served.path);
    const regress = content.find((k) => k.rule.fault === 'sequence-regress');
    if (regress) {
      let counts = this.reloads.get(regress.rule);
      if (!counts) this.reloads.set(regress.rule, (counts = new Map()));
      const n = (counts.get(served.path) ?? 0) + 1;
      remember(counts, served.path, n);
      // Every second reload goes back: a player that reloads sees the sequence fall.
      if (n % 2 === 0) text = regressSequence(text, regress.rule.by ?? 3);
    }
    return Buffer.from(text);
  }
}
