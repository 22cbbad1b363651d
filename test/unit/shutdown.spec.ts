import { markStopping, settleUnhandledRejection } from '../../src/bootstrap/shutdown';

describe('unhandled rejections', () => {
  it('end the process, except a closed Redis connection once the application is closing', () => {
    const warnings: string[] = [];
    const warn = (message: string) => warnings.push(message);
    const closed = new Error('Connection is closed.');
    const other = new Error('relation "monitors" does not exist');

    expect(() => settleUnhandledRejection(closed, warn)).toThrow(closed);
    markStopping();
    expect(() => settleUnhandledRejection(closed, warn)).not.toThrow();
    expect(() => settleUnhandledRejection(other, warn)).toThrow(other);
    expect(() => settleUnhandledRejection('Connection is closed.', warn)).toThrow();
    expect(warnings).toEqual(['a Redis command was cut off by the shutdown (Connection is closed.)']);
  });
});
