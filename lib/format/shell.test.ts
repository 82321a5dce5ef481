import { describe, expect, it } from 'vitest';
import { shellWord } from './shell';

describe('shellWord', () => {
  it('leaves safe words bare and single-quotes the rest, escaping quotes', () => {
    expect(shellWord('prod-eu-west-1')).toBe('prod-eu-west-1');
    expect(shellWord('karmada-global/member-eu')).toBe('karmada-global/member-eu');
    expect(shellWord('a=b')).toBe('a=b');
    expect(shellWord('my cluster')).toBe(`'my cluster'`);
    expect(shellWord(`it's`)).toBe(`'it'\\''s'`);
    expect(shellWord('$(rm -rf /)')).toBe(`'$(rm -rf /)'`);
  });
});
