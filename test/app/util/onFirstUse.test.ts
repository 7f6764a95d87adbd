import assert from 'node:assert/strict';
import { memberOf, OnFirstUse } from '../../../src/app/util/onFirstUse';

// The views' models and pollers are made on first use (issue 29): whoever follows one from its start must hear of it
// when it is made, whoever only looks must not make it.
describe('OnFirstUse: a value made the first time it is asked for', () => {
  it('is made once, on the first ask, and not by ifMade or whenMade', () => {
    let made = 0;
    const value = new OnFirstUse(() => ({ n: ++made }));
    const heard: number[] = [];
    value.whenMade((v) => heard.push(v.n));
    assert.equal(value.ifMade, undefined);
    assert.equal(made, 0);
    const first = value.value;
    assert.equal(value.value, first);
    assert.equal(value.ifMade, first);
    assert.equal(made, 1);
    assert.deepEqual(heard, [1]);
  });

  it('tells a listener that came after the value was made at once, and listeners made before it first', () => {
    const order: string[] = [];
    const model = new OnFirstUse(() => (order.push('model'), { name: 'model' }));
    const poller = new OnFirstUse(() => (order.push('poller'), { of: model.value.name }));
    // As compose() does: a poller is made with its model, so it hears the model's first load.
    model.whenMade(() => poller.value);
    model.whenMade(() => order.push('view follows'));
    assert.equal(model.value.name, 'model');
    assert.deepEqual(order, ['model', 'poller', 'view follows']);
    let late: string | undefined;
    model.whenMade((value) => (late = value.name));
    assert.equal(late, 'model');
    assert.equal(poller.ifMade?.of, 'model');
  });

  it('makes a view and its poller together, whichever is asked first (one poller, never two)', () => {
    let pollers = 0;
    const view = new OnFirstUse(() => ({ model: 'model', poller: ++pollers }));
    const model = memberOf(view, (made) => made.model);
    const poller = memberOf(view, (made) => made.poller);
    const heard: string[] = [];
    model.whenMade((made) => heard.push(made));
    assert.equal(model.ifMade, undefined);
    assert.equal(poller.value, 1);
    assert.equal(model.value, 'model');
    assert.deepEqual(heard, ['model']);
    assert.equal(pollers, 1);
  });

  it('refuses to be asked for while it is being made, rather than make a second one', () => {
    const looped: OnFirstUse<number> = new OnFirstUse(() => looped.value + 1);
    assert.throws(() => looped.value, /asked for while it was being made/);
  });
});
