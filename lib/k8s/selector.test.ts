import { describe, expect, it } from 'vitest';
import type { Requirement } from '@/lib/k8s/selector';
import {
  SelectorParseError,
  isEverything,
  labelSelectorToSelector,
  matchesSelector,
  newRequirement,
  parseSelector,
  requirementMatches,
  selectorToString,
  toLabelMatcher,
  tryParseSelector,
} from '@/lib/k8s/selector';

/** Vectors from k8s.io/apimachinery/pkg/labels/selector_test.go, each named after its upstream test. */

describe('parseSelector — TestSelectorParse', () => {
  it.each(['x=a,y=b,z=c', '', 'x!=a,y=b', 'x=', 'x= ', 'x=,z= ', 'x= ,z= ', '!x', 'x>1', 'x>1,z<5'])(
    'TestSelectorParse good: %j re-strings without spaces',
    (input) => {
      expect(selectorToString(parseSelector(input))).toBe(input.replaceAll(' ', ''));
    },
  );

  it.each(['x=a||y=b', 'x==a==b', '!x=a', 'x<a'])('TestSelectorParse bad: %j', (input) => {
    expect(() => parseSelector(input)).toThrow(SelectorParseError);
  });

  it('TestDeterministicParse', () => {
    expect(selectorToString(parseSelector('x=a,a=x'))).toBe(selectorToString(parseSelector('a=x,x=a')));
  });
});

describe('matchesSelector — TestSelectorMatches', () => {
  it.each([
    ['', { x: 'y' }],
    ['x=y', { x: 'y' }],
    ['x=y,z=w', { x: 'y', z: 'w' }],
    ['x!=y,z!=w', { x: 'z', z: 'a' }],
    ['notin=in', { notin: 'in' }],
    ['x', { x: 'z' }],
    ['!x', { y: 'z' }],
    ['x>1', { x: '2' }],
    ['x<1', { x: '0' }],
    ['foo=bar', { foo: 'bar', baz: 'blah' }],
    ['baz=blah', { foo: 'bar', baz: 'blah' }],
    ['foo=bar,baz=blah', { foo: 'bar', baz: 'blah' }],
  ])('TestSelectorMatches expectMatch: %j', (selector, labels) => {
    expect(matchesSelector(parseSelector(selector), labels)).toBe(true);
  });

  it.each([
    ['x=z', {}],
    ['x=y', { x: 'z' }],
    ['x=y,z=w', { x: 'w', z: 'w' }],
    ['x!=y,z!=w', { x: 'z', z: 'w' }],
    ['x', { y: 'z' }],
    ['!x', { x: 'z' }],
    ['x>1', { x: '0' }],
    ['x<1', { x: '2' }],
    ['foo=blah', { foo: 'bar', baz: 'blah' }],
    ['baz=bar', { foo: 'bar', baz: 'blah' }],
    ['foo=bar,foobar=bar,baz=blah', { foo: 'bar', baz: 'blah' }],
  ])('TestSelectorMatches expectNoMatch: %j', (selector, labels) => {
    expect(matchesSelector(parseSelector(selector), labels)).toBe(false);
  });

  it('TestEverything: the empty selector matches everything', () => {
    const everything = parseSelector('');
    expect([isEverything(everything), matchesSelector(everything, { x: 'y' }), matchesSelector(everything, null)]).toEqual([
      true,
      true,
      true,
    ]);
  });
});

const req = (key: string, operator: Requirement['operator'], values: string[] = []): Requirement => ({ key, operator, values });

describe('parseSelector — TestSetSelectorParser', () => {
  const valid: [string, Requirement[]][] = [
    ['', []],
    ['\rx', [req('x', 'exists')]],
    ['this-is-a-dns.domain.com/key-with-dash', [req('this-is-a-dns.domain.com/key-with-dash', 'exists')]],
    [
      'this-is-another-dns.domain.com/key-with-dash in (so,what)',
      [req('this-is-another-dns.domain.com/key-with-dash', 'in', ['so', 'what'])],
    ],
    ['0.1.2.domain/99 notin (10.10.100.1, tick.tack.clock)', [req('0.1.2.domain/99', 'notin', ['10.10.100.1', 'tick.tack.clock'])]],
    ['foo  in\t (abc)', [req('foo', 'in', ['abc'])]],
    ['x notin\n (abc)', [req('x', 'notin', ['abc'])]],
    ['x  notin\t\t\t(abc,def)', [req('x', 'notin', ['abc', 'def'])]],
    ['x in (abc,def)', [req('x', 'in', ['abc', 'def'])]],
    ['x in (abc,)', [req('x', 'in', ['', 'abc'])]],
    ['x in ()', [req('x', 'in', [''])]],
    [
      'x notin (abc,,def),bar,z in (),w',
      [req('bar', 'exists'), req('w', 'exists'), req('x', 'notin', ['', 'abc', 'def']), req('z', 'in', [''])],
    ],
    ['x,y in (a)', [req('x', 'exists'), req('y', 'in', ['a'])]],
    ['x=a', [req('x', '=', ['a'])]],
    ['x>1', [req('x', 'gt', ['1'])]],
    ['x<7', [req('x', 'lt', ['7'])]],
    ['x=a,y!=b', [req('x', '=', ['a']), req('y', '!=', ['b'])]],
    ['x=a,y!=b,z in (h,i,j)', [req('x', '=', ['a']), req('y', '!=', ['b']), req('z', 'in', ['h', 'i', 'j'])]],
    ['x notin ( )', [req('x', 'notin', [''])]],
    ['x notin (, a)', [req('x', 'notin', ['', 'a'])]],
    ['a ', [req('a', 'exists')]],
    ['a in (x,y,notin, z,in)', [req('a', 'in', ['in', 'notin', 'x', 'y', 'z'])]],
  ];
  it.each(valid)('TestSetSelectorParser valid: %j', (input, expected) => {
    expect(parseSelector(input).requirements).toEqual(expected);
  });

  it.each(['x=a||y=b', 'x,,y', ',x,y', 'x nott in (y)', 'a in (xyz),', 'a in (xyz)b notin ()', 'a in (xyz abc)', 'a notin(', 'a (', '('])(
    'TestSetSelectorParser invalid: %j',
    (input) => {
      expect(() => parseSelector(input)).toThrow(SelectorParseError);
    },
  );

  it('error messages are upstream’s (they end up in the HPA InvalidSelector condition)', () => {
    expect(tryParseSelector('cheddar cheese')).toEqual({
      error: "unable to parse requirement: found 'cheese', expected: in, notin, =, ==, !=, gt, lt",
    });
    expect(tryParseSelector('x,,y')).toEqual({ error: "found ',', expected: identifier after ','" });
    expect(tryParseSelector('a in (xyz)b notin ()')).toEqual({ error: "found 'b', expected: ',' or 'end of string'" });
    expect(tryParseSelector('x<a')).toEqual({
      error: `unable to parse requirement: values[0]: Invalid value: "a": for 'Gt', 'Lt' operators, the value must be an integer`,
    });
  });
});

describe('newRequirement — TestRequirementConstructor', () => {
  it.each([
    ['x', 'in', [], false],
    ['x', 'notin', [], false],
    ['x', 'in', ['foo'], true],
    ['x', 'notin', ['foo'], true],
    ['x', 'exists', [], true],
    ['x', '!', [], true],
    ['1foo', 'in', ['bar'], true],
    ['1234', 'in', ['bar'], true],
    ['y', 'gt', ['1'], true],
    ['z', 'lt', ['6'], true],
    ['foo', 'gt', ['bar'], false],
    ['barz', 'lt', ['blah'], false],
    ['a'.repeat(254), 'exists', [], false],
  ] as [string, Requirement['operator'], string[], boolean][])(
    'TestRequirementConstructor: key %j %s %j → success %s',
    (key, op, values, success) => {
      if (success) expect(newRequirement(key, op, values)).toEqual({ key, operator: op, values });
      else expect(() => newRequirement(key, op, values)).toThrow(SelectorParseError);
    },
  );
});

describe('selectorToString — TestToString', () => {
  it.each([
    [[req('x', 'in', ['abc', 'def']), req('y', 'notin', ['jkl']), req('z', 'exists')], 'x in (abc,def),y notin (jkl),z'],
    [[req('x', 'notin', ['abc', 'def']), req('y', '!=', ['jkl']), req('z', '!')], 'x notin (abc,def),y!=jkl,!z'],
    [[req('x', 'notin', ['abc']), req('y', 'in', ['jkl', 'mno']), req('z', 'notin', [''])], 'x notin (abc),y in (jkl,mno),z notin ()'],
    [[req('x', '=', ['abc']), req('y', '==', ['jkl']), req('z', '!=', ['a']), req('z', 'exists')], 'x=abc,y==jkl,z!=a,z'],
    [[req('x', 'gt', ['2']), req('y', 'lt', ['8']), req('z', 'exists')], 'x>2,y<8,z'],
    [[req('x', 'in', ['def', 'abc'])], 'x in (abc,def)'],
  ] as [Requirement[], string][])('TestToString → %j', (requirements, expected) => {
    expect(selectorToString({ requirements })).toBe(expected);
  });
});

describe('requirementMatches — TestRequirementSelectorMatching', () => {
  it.each([
    [{ x: 'foo', y: 'baz' }, [req('x', 'in', ['foo']), req('y', 'notin', ['alpha'])], true],
    [{ x: 'foo', y: 'baz' }, [req('x', 'in', ['foo']), req('y', 'in', ['alpha'])], false],
    [{ y: '' }, [req('x', 'notin', ['']), req('y', 'exists')], true],
    [{ y: '' }, [req('x', '!'), req('y', 'exists')], true],
    [{ y: '' }, [req('x', 'notin', ['']), req('y', '!')], false],
    [{ y: 'baz' }, [req('x', 'in', [''])], false],
    [{ z: '2' }, [req('z', 'gt', ['1'])], true],
    [{ z: 'v2' }, [req('z', 'gt', ['1'])], false],
  ] as [Record<string, string>, Requirement[], boolean][])('TestRequirementSelectorMatching %#', (labels, requirements, expected) => {
    expect(requirements.every((r) => requirementMatches(r, labels))).toBe(expected);
  });
});

describe('labelSelectorToSelector — metav1.LabelSelectorAsSelector', () => {
  it('nil selects nothing, empty selects everything', () => {
    expect(matchesSelector(labelSelectorToSelector(null), { a: 'b' })).toBe(false);
    expect(matchesSelector(labelSelectorToSelector({}), { a: 'b' })).toBe(true);
  });

  it('matchLabels and matchExpressions combine, sorted by key', () => {
    const selector = labelSelectorToSelector({
      matchLabels: { tier: 'web' },
      matchExpressions: [
        { key: 'env', operator: 'In', values: ['prod', 'canary'] },
        { key: 'legacy', operator: 'DoesNotExist' },
      ],
    });
    expect(selectorToString(selector)).toBe('env in (canary,prod),!legacy,tier=web');
    const matches = toLabelMatcher({
      matchLabels: { tier: 'web' },
      matchExpressions: [{ key: 'env', operator: 'NotIn', values: ['dev'] }],
    });
    expect([matches({ tier: 'web', env: 'prod' }), matches({ tier: 'web', env: 'dev' }), matches({ tier: 'web' })]).toEqual([
      true,
      false,
      true,
    ]);
  });

  it('an unknown operator and an In without values are errors', () => {
    expect(() => labelSelectorToSelector({ matchExpressions: [{ key: 'a', operator: 'Gt', values: ['1'] }] })).toThrow(
      '"Gt" is not a valid label selector operator',
    );
    expect(() => labelSelectorToSelector({ matchExpressions: [{ key: 'a', operator: 'In', values: [] }] })).toThrow(
      "values: Invalid value: []string{}: for 'in', 'notin' operators, values set can't be empty",
    );
  });
});
