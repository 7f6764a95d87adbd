import assert from 'node:assert/strict';
import { inBackground } from '../../src/app/failures';
import { Poller, type PollTimers } from '../../src/app/tree/poller';
import { eventually } from '../helpers/eventually';
import { MemoryLog } from './helpers/harness';

describe('work nobody waits for', () => {
  it('logs a failure as what was being done, and a cancellation not at all', async () => {
    const log = new MemoryLog();
    inBackground(log, 'Binding the saved document to its account', Promise.reject(new Error('the state is read-only')));
    const aborted = new Error('aborted');
    aborted.name = 'AbortError';
    inBackground(log, 'Looking for ffmpeg', Promise.reject(aborted));
    await eventually('the failure to be logged', () => log.lines.length > 0);
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(log.lines, ['warn Binding the saved document to its account failed: the state is read-only']);
  });

  it("logs a polling round that throws, instead of leaving an unhandled rejection (the poller's timer)", async () => {
    const scheduled: Array<() => void> = [];
    const timers: PollTimers = { setTimeout: (callback) => scheduled.push(callback), clearTimeout: () => undefined };
    const log = new MemoryLog();
    // A view whose round throws (a bug in a model): the poller's own timer starts the round.
    const poller = new Poller(
      { hasSettling: () => true, pollSettling: () => Promise.reject(new Error('the model broke')) },
      () => 1000,
      log,
      timers,
    );
    poller.kick();
    assert.equal(scheduled.length, 1);
    scheduled.shift()!();
    await eventually('the failed round to be logged', () => log.lines.length > 0);
    assert.deepEqual(log.lines, ['warn Polling failed: the model broke']);
    poller.dispose();
  });
});
