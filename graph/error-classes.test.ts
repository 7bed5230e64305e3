import { describe, expect, it } from 'vitest';
import { ArbiterError, StaleVersionError, ValidationError } from './error-classes.js';

describe('the errors a client is meant to see', () => {
  it('carry no stack frames: an answer, not a fault', () => {
    const e = new StaleVersionError('Game "g" is at version 3, not 2.', { expected: 2, actual: 3 });
    expect(e.stack).toBe('StaleVersionError: Game "g" is at version 3, not 2.');
    expect(new ValidationError([{ field: 'input.action', message: 'one action' }]).stack).not.toMatch(/\n\s+at /);
    expect(e).toBeInstanceOf(ArbiterError);
    expect(e).toBeInstanceOf(Error);
    expect(e.extensions).toEqual({ code: 'STALE_VERSION' });
  });

  it('leave the stack depth of every other error as it was', () => {
    const before = Error.stackTraceLimit;
    new ArbiterError('X', 'x');
    expect(Error.stackTraceLimit).toBe(before);
    const fault = (): Error => new Error('a fault');
    expect(fault().stack).toMatch(/\n\s+at /);
  });
});
