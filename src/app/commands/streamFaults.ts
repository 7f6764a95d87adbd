/**
 * Inject Stream Fault... and Clear Stream Faults on a channel or video of a local platform: the platform's
 * `/_local/faults` route (src/localPlatform/faults/admin.ts), signed with the account's keys like `/rest`. The
 * tree marks the items that have faults (`+faults`, "stream faults" in the description) from the platform's answer.
 */
import { request } from 'node:http';
import { signParams } from '../../api/signing';
import { l10n } from '../../l10n/l10n';
import { answered, askInteger, askText } from '../ask/inputs';
import { runWizard, type PromptStep } from '../ask/wizard';
import type { AppContext, CommandArgs } from '../context';
import { ChannelNode, VideoNode } from '../tree/nodes';
import type { StepOptions, Ui } from '../ui';

/** One question of a fault: an integer option (or `text`), with its range and the value offered. */
interface Question {
  readonly key: string;
  readonly field: string;
  readonly prompt: string;
  readonly value: number | string;
  readonly min?: number;
  readonly max?: number;
}

interface FaultChoice {
  readonly name: string;
  readonly detail: string;
  readonly questions: readonly Question[];
}

const EVERY = (): Question => ({
  key: 'every',
  field: l10n.t('Every n-th segment'),
  prompt: l10n.t('Hit the segments whose media sequence number is a multiple of'),
  value: 5,
  min: 1,
  max: 1000,
});
const PERCENT = (value: number): Question => ({
  key: 'percent',
  field: l10n.t('Percent'),
  prompt: l10n.t('What the playlist says, in percent of the truth'),
  value,
  min: 1,
  max: 10000,
});
const MS = (value: number, min: number, max: number): Question => ({
  key: 'ms',
  field: l10n.t('Milliseconds'),
  prompt: l10n.t('Milliseconds'),
  value,
  min,
  max,
});
const BYTES = (key: string): Question => ({
  key,
  field: l10n.t('Bytes'),
  prompt: l10n.t('Bytes sent before the answer stops'),
  value: 1000,
  min: 0,
  max: 1_000_000_000,
});

/** The faults and what each asks (translated when asked, not at load). */
function choices(): FaultChoice[] {
  const status: Question = {
    key: 'code',
    field: l10n.t('HTTP status'),
    prompt: l10n.t('HTTP status'),
    value: 503,
    min: 400,
    max: 599,
  };
  const rate: Question = {
    key: 'bytesPerSecond',
    field: l10n.t('Bytes per second'),
    prompt: l10n.t('Bytes per second'),
    value: 100_000,
    min: 1000,
    max: 1_000_000_000,
  };
  const by: Question = {
    key: 'by',
    field: l10n.t('Steps back'),
    prompt: l10n.t('How far EXT-X-MEDIA-SEQUENCE goes back'),
    value: 3,
    min: 1,
    max: 1000,
  };
  const seconds: Question = {
    key: 'seconds',
    field: l10n.t('Seconds'),
    prompt: l10n.t('Seconds the timestamps jump'),
    value: 10,
    min: -3600,
    max: 3600,
  };
  const type: Question = {
    key: 'value',
    field: 'Content-Type',
    prompt: l10n.t('The Content-Type sent instead'),
    value: 'text/plain',
  };
  return [
    { name: 'delay', detail: l10n.t('Every answer comes late'), questions: [MS(3000, 0, 120_000)] },
    { name: 'status', detail: l10n.t('Answers with an HTTP error status'), questions: [status] },
    {
      name: 'timeout',
      detail: l10n.t('No answer; the connection closes after a while'),
      questions: [MS(30_000, 1000, 600_000)],
    },
    { name: 'throttle', detail: l10n.t('Bodies sent slowly'), questions: [rate] },
    { name: 'reset', detail: l10n.t('The connection is reset mid-body'), questions: [BYTES('afterBytes')] },
    { name: 'truncate', detail: l10n.t('Bodies cut short'), questions: [BYTES('bytes')] },
    { name: 'content-type', detail: l10n.t('A wrong Content-Type'), questions: [type] },
    { name: 'no-cors', detail: l10n.t('No CORS headers: web players cannot read it'), questions: [] },
    { name: 'playlist-stall', detail: l10n.t('The live playlist stops advancing'), questions: [] },
    {
      name: 'sequence-regress',
      detail: l10n.t('The media sequence goes back on every second reload'),
      questions: [by],
    },
    { name: 'segment-drop', detail: l10n.t('Segments left out of the playlist'), questions: [EVERY()] },
    { name: 'extinf-lie', detail: l10n.t('EXTINF says another duration'), questions: [PERCENT(50)] },
    { name: 'bandwidth-lie', detail: l10n.t('BANDWIDTH says another bit rate'), questions: [PERCENT(25)] },
    {
      name: 'timestamp-jump',
      detail: l10n.t('Timestamps jump without EXT-X-DISCONTINUITY'),
      questions: [seconds, EVERY()],
    },
    { name: 'no-idr-start', detail: l10n.t('Segments do not start with a keyframe'), questions: [] },
    {
      name: 'audio-gap',
      detail: l10n.t('Audio missing at the start of each segment'),
      questions: [MS(500, 1, 60_000)],
    },
    { name: 'key-404', detail: l10n.t('The AES-128 key answers 404'), questions: [] },
  ];
}

interface FaultState {
  readonly ui: Ui;
  title: string;
  fault?: FaultChoice;
  answers: Record<string, number | string>;
}

/** The rule the answers make, in the profile's words (faults/profile.ts). */
function ruleOf(target: string, state: FaultState): Record<string, unknown> {
  const rule: Record<string, unknown> = { target, fault: state.fault!.name };
  for (const [key, value] of Object.entries(state.answers)) {
    if (key === 'every') rule.mediaSequence = { every: value };
    else if (key === 'percent') rule.factor = Number(value) / 100;
    else rule[key] = value;
  }
  return rule;
}

function questionStep(index: number): PromptStep<FaultState> {
  return {
    shown: index + 2,
    shouldPrompt: (state) => (state.fault?.questions.length ?? 0) > index,
    async prompt(state, step: StepOptions) {
      const q = state.fault!.questions[index]!;
      const title = l10n.t('{0}: {1}', state.title, state.fault!.name);
      const earlier = state.answers[q.key] ?? q.value;
      state.answers[q.key] =
        q.min === undefined
          ? answered(
              await askText(state.ui, {
                ...step,
                title,
                field: q.field,
                prompt: q.prompt,
                value: String(earlier),
                maxLength: 200,
              }),
            )
          : answered(
              await askInteger(state.ui, {
                ...step,
                title,
                field: q.field,
                prompt: q.prompt,
                value: Number(earlier),
                min: q.min,
                max: q.max!,
              }),
            );
    },
  };
}

interface Item {
  id: string;
  name: string;
  mark: (ids: string[]) => void;
}

/** The clicked channel or video (these commands are on items only). */
function itemOf(ctx: AppContext, args: CommandArgs): Item {
  const node = args.node;
  const mark = (ids: string[]) => {
    ctx.models.channels.markFaulted(ids);
    ctx.models.videos.markFaulted(ids);
  };
  if (node instanceof ChannelNode) return { id: node.channel.id, name: node.channel.name, mark };
  if (node instanceof VideoNode) return { id: node.video.id, name: node.video.title || node.video.fileName, mark };
  throw new Error(l10n.t('Choose a channel or a video in the Channels or Videos view.'));
}

/** A signed call of `/_local/faults` on the active account; its result (the rules and the items they hit). */
async function callFaults(
  ctx: AppContext,
  action: string,
  params: Record<string, string>,
): Promise<{ activeItems: string[] }> {
  await ctx.connection.activeClient();
  const account = ctx.connection.activeAccount;
  const url = account ? new URL('/_local/faults', account.baseUrl) : undefined;
  if (!account || !url || url.protocol !== 'http:' || !['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname)) {
    throw new Error(l10n.t('Stream faults are a feature of the local platform: this account is not one.'));
  }
  const signed: Record<string, string> = {
    accessKey: account.accessKey,
    action,
    version: '2.0',
    timestamp: String(Date.now()),
    ...params,
  };
  signed.signature = signParams(signed, (await ctx.accounts.secretKey(account.id)) ?? '');
  const body = await post(url, new URLSearchParams(signed).toString());
  let answer: { success?: boolean; message?: string; result?: { activeItems: string[] } };
  try {
    answer = JSON.parse(body.text) as typeof answer;
  } catch {
    answer = {};
  }
  if (body.status === 404 || answer.success === undefined) {
    throw new Error(l10n.t('Stream faults are a feature of the local platform: this account is not one.'));
  }
  if (!answer.success || !answer.result) throw new Error(answer.message ?? `HTTP ${body.status}`);
  return answer.result;
}

function post(url: URL, form: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, timeout: 15_000 },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(l10n.t('The local platform did not answer within 15 s.'))));
    req.on('error', reject);
    req.end(form);
  });
}

/** videoPlatform.injectStreamFault: pick a fault, answer its options, and the local platform applies it now. */
export async function injectStreamFault(
  ctx: AppContext,
  args: CommandArgs = {},
): Promise<Record<string, unknown> | undefined> {
  const item = itemOf(ctx, args);
  const title = l10n.t('Inject stream fault into "{0}"', item.name);
  const state: FaultState = { title, answers: {}, ui: ctx.ui };
  const pickStep: PromptStep<FaultState> = {
    shown: 1,
    async prompt(s, step) {
      s.fault = answered(
        await ctx.ui.pick(
          choices().map((c) => ({ label: c.name, description: c.detail, value: c, picked: c.name === s.fault?.name })),
          { ...step, title, placeHolder: l10n.t('Choose the fault'), matchOnDescription: true },
        ),
      );
      s.answers = {};
    },
  };
  let rule: Record<string, unknown> | undefined;
  await runWizard(ctx.ui, {
    state,
    promptSteps: [pickStep, questionStep(0), questionStep(1)],
    executeSteps: [
      {
        priority: 1,
        async execute(s) {
          rule = ruleOf(item.id, s);
          item.mark((await callFaults(ctx, 'add', { profile: JSON.stringify([rule]) })).activeItems);
        },
      },
    ],
    progressTitle: (s) => l10n.t('Injecting {0} into "{1}"', s.fault?.name ?? '', item.name),
  });
  ctx.log.info(`Injected stream fault ${String(rule?.fault)} into ${item.id}`);
  return rule;
}

/** videoPlatform.clearStreamFaults: the item's injected faults removed (a profile file's stay: edit the file). */
export async function clearStreamFaults(ctx: AppContext, args: CommandArgs = {}): Promise<void> {
  const item = itemOf(ctx, args);
  const result = await callFaults(ctx, 'clear', { target: item.id });
  item.mark(result.activeItems);
  if (result.activeItems.includes(item.id)) {
    await ctx.ui.info(l10n.t('"{0}" still has stream faults from the platform\'s --faults file.', item.name));
  }
}
