import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { packResourceVersion, resourceVersionText } from './resource-version';

describe('packResourceVersion', () => {
  it('keeps an etcd revision as a number, anything else as the string it was', () => {
    expect(packResourceVersion('123456')).toBe(123456);
    expect(packResourceVersion('0')).toBe(0);
    expect(packResourceVersion('999999999999999')).toBe(999999999999999);
    for (const text of ['', '007', '-1', '+1', '1e3', '1.5', ' 12', '12 ', '0x1f', '1234567890123456', 'abc', 'Infinity'])
      expect(packResourceVersion(text), JSON.stringify(text)).toBe(text);
    expect(packResourceVersion(undefined)).toBeUndefined();
  });

  it('gives back the very text it was given, whatever the text', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string(), fc.stringMatching(/^[0-9]{1,20}$/), fc.bigInt({ min: 0n, max: 10n ** 18n }).map(String)),
        (text) => {
          expect(resourceVersionText(packResourceVersion(text))).toBe(text);
        },
      ),
      { numRuns: 2000 },
    );
    expect(resourceVersionText(undefined)).toBeUndefined();
  });
});
