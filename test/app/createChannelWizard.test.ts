import assert from 'node:assert/strict';
import { createChannel } from '../../src/app/commands/createChannel';
import { platformSuite } from './helpers/platformSuite';
import { back, choose, chooseMany, keep, type } from './helpers/scriptedUi';

/** The Create Channel wizard: "Step n of 6", Back to the previous question, and a summary before creating. */
describe('Create Channel wizard: step counter, Back and summary', () => {
  const suite = platformSuite();

  it('counts the steps, goes back with the earlier answer offered, and sums up before creating', async () => {
    suite.harness.ui.script(
      type('Back and forth'),
      choose('Pull'),
      back(), // from the pull address to push or pull
      back(), // to the name: it is offered again
      keep(),
      choose('Push'),
      choose('News'),
      chooseMany('HLS'),
      chooseMany('Record'),
      chooseMany('720p'),
    );
    let summary: string[] = [];
    suite.harness.ui.script({
      kind: 'pick',
      answer: (items) => {
        summary = items.filter((item) => !item.separator).map((item) => item.label);
        return items.find((item) => item.label.includes('Create channel'))!.value;
      },
    });
    const channel = await suite.harness.run(createChannel);
    assert.ok(channel, suite.harness.ui.errors.join('\n'));
    assert.deepEqual(
      suite.harness.ui.asked.map((asked) => `${asked.step}${asked.back ? ' back' : ''}`),
      [
        '1/6',
        '2/6 back',
        '2/6 back',
        '2/6 back',
        '1/6',
        '2/6 back',
        '3/6 back',
        '4/6 back',
        '4/6 back',
        '5/6 back',
        '6/6 back',
      ],
    );
    assert.equal(suite.harness.ui.asked[4]!.input?.value, 'Back and forth', 'the name is offered again');
    assert.deepEqual(summary, [
      '$(check) Create channel "Back and forth"',
      'Name: Back and forth',
      'Source: pushed by an encoder',
      'Category: News',
      'Output groups: HLS (record)',
      'Live templates: 720p',
    ]);
    const stored = await suite.client.liveGetChannelById(channel.id);
    assert.equal(stored.signalType, '1');
    assert.equal(stored.typeName, 'News');
    assert.equal(stored.outputGroupList[0]!.isRecord, '1');
  });

  it('changes one step from the summary and comes back to the summary, keeping the other answers', async () => {
    const before = (await suite.client.liveGetChannelsByPage({ number: 1 })).count;
    suite.harness.ui.script(
      type('First name'),
      choose('Push'),
      choose('News'),
      chooseMany('HLS'),
      chooseMany('Record'),
      chooseMany('720p'),
      choose('Name: First name'),
      type('Second name'),
    );
    let summary: string[] = [];
    suite.harness.ui.script({
      kind: 'pick',
      answer: (items) => {
        summary = items.filter((item) => !item.separator).map((item) => item.label);
        return items.find((item) => item.label.includes('Create channel'))!.value;
      },
    });
    const channel = await suite.harness.run(createChannel);
    assert.equal(channel?.name, 'Second name', suite.harness.ui.errors.join('\n'));
    assert.equal(
      (await suite.client.liveGetChannelsByPage({ number: 1 })).count,
      before + 1,
      'one channel, the second',
    );
    assert.deepEqual(
      suite.harness.ui.asked.map((asked) => asked.step),
      ['1/6', '2/6', '3/6', '4/6', '4/6', '5/6', '6/6', '1/6', '6/6'],
      'the name, then the summary again: not every later step',
    );
    assert.deepEqual(summary, [
      '$(check) Create channel "Second name"',
      'Name: Second name',
      'Source: pushed by an encoder',
      'Category: News',
      'Output groups: HLS (record)',
      'Live templates: 720p',
    ]);
    const stored = await suite.client.liveGetChannelById(channel.id);
    assert.equal(stored.typeName, 'News', 'the category answered before the change');
    assert.equal(stored.outputGroupList[0]!.isRecord, '1');
  });

  it("asks the changed step's own follow-up questions (a pull address), and Back from it returns to the summary", async () => {
    suite.harness.ui.script(
      type('Follow-ups'),
      choose('Push'),
      choose('No category'),
      chooseMany('HLS'),
      chooseMany(),
      chooseMany('720p'),
      choose('Category: none'),
      back(), // the category question: Back returns to the summary, nothing changed
      choose('Source: pushed'),
      choose('Pull'),
      type('rtmp://source.example/live/follow'),
      choose('Output groups: HLS'),
      chooseMany('HLS', 'RTMP'),
      chooseMany('Time shift'),
      keep(), // time shift hours: 2
      chooseMany(), // RTMP options
      choose('Create channel "Follow-ups"'),
    );
    const channel = await suite.harness.run(createChannel);
    assert.ok(channel, suite.harness.ui.errors.join('\n'));
    assert.deepEqual(
      suite.harness.ui.asked.map((asked) => `${asked.step}${asked.back ? ' back' : ''}`),
      [
        '1/6',
        '2/6 back',
        '3/6 back',
        '4/6 back',
        '4/6 back',
        '5/6 back',
        '6/6 back',
        '3/6 back', // category, then Back
        '6/6 back',
        '2/6 back', // push or pull
        '2/6 back', // its pull address
        '6/6 back',
        '4/6 back', // output groups, with their options
        '4/6 back',
        '4/6 back',
        '4/6 back',
        '6/6 back',
      ],
    );
    const stored = await suite.client.liveGetChannelById(channel.id);
    assert.equal(stored.signalType, '2');
    assert.equal(stored.pullStream, 'rtmp://source.example/live/follow');
    assert.equal(stored.type, null, 'no category, as answered first');
    assert.deepEqual(
      stored.outputGroupList.map((group) => [group.protocolType, group.isTimeShift]),
      [
        [1, '1'],
        [2, '0'],
      ],
    );
  });
});
