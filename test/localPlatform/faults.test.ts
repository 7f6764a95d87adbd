import assert from 'node:assert/strict';
import { PlatformFault } from '../../src/localPlatform/http/faults';
import { Codes } from '../../src/api/errorCodes';

describe('local platform: faults', () => {
  it('takes a fault made by another copy of the module for a refusal (a loader may load a module twice)', () => {
    // A second copy of faults.ts, as tsx's tsImport makes when a module is loaded both ways.
    const path = require.resolve('../../src/localPlatform/http/faults');
    const cached = require.cache[path];
    delete require.cache[path];
    const copy = require('../../src/localPlatform/http/faults') as typeof import('../../src/localPlatform/http/faults');
    if (cached) require.cache[path] = cached;
    assert.notEqual(copy.PlatformFault, PlatformFault, 'a second copy was loaded');
    const foreign = new copy.PlatformFault(Codes.channelCategoryExists, 'name X is already a channel category');
    assert.ok(foreign instanceof PlatformFault);
    assert.ok(!(new Error('x') instanceof PlatformFault));
    assert.ok(!((null as unknown) instanceof PlatformFault));
  });

  it('keeps subclasses apart: a plain fault is not an instance of a subclass', () => {
    class HttpLike extends PlatformFault {}
    assert.ok(new HttpLike(Codes.parameterInvalid) instanceof PlatformFault);
    assert.ok(!(new PlatformFault(Codes.parameterInvalid) instanceof HttpLike));
  });
});
