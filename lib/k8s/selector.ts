import type { LabelSelector } from '@/lib/k8s/types';

/**
 * Label selectors, ported from k8s.io/apimachinery/pkg/labels (selector.go: Lexer, Parser, Requirement) and
 * metav1.LabelSelectorAsSelector. The string form is what `scale.status.selector` and `?labelSelector=` carry;
 * the HPA controller reports `InvalidSelector` when it does not parse, so parsing must fail exactly where
 * upstream's does.
 */

export type SelectorOperator = 'in' | 'notin' | '=' | '==' | '!=' | 'exists' | '!' | 'gt' | 'lt';

export interface Requirement {
  key: string;
  operator: SelectorOperator;
  values: string[];
}

export interface ParsedSelector {
  /** Sorted by key, as upstream sorts them. */
  requirements: Requirement[];
  /** `labels.Nothing()`: matches no labels (metav1.LabelSelectorAsSelector(nil)). */
  nothing?: boolean;
}

/** The typed error for a selector that does not parse or holds an invalid requirement. */
export class SelectorParseError extends Error {
  readonly input: string;
  constructor(message: string, input: string) {
    super(message);
    this.name = 'SelectorParseError';
    this.input = input;
  }
}

// upstream: k8s.io/apimachinery/pkg/util/validation
const QUALIFIED_NAME_FMT = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const QUALIFIED_NAME_RE = new RegExp(`^${QUALIFIED_NAME_FMT}$`);
const QUALIFIED_NAME_ERR =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const DNS1123_LABEL_FMT = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const DNS1123_SUBDOMAIN_FMT = `${DNS1123_LABEL_FMT}(\\.${DNS1123_LABEL_FMT})*`;
const DNS1123_SUBDOMAIN_RE = new RegExp(`^${DNS1123_SUBDOMAIN_FMT}$`);
const DNS1123_SUBDOMAIN_ERR =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
const LABEL_VALUE_FMT = `(${QUALIFIED_NAME_FMT})?`;
const LABEL_VALUE_RE = new RegExp(`^${LABEL_VALUE_FMT}$`);
const LABEL_VALUE_ERR =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";

function regexError(msg: string, fmt: string, ...examples: string[]): string {
  if (examples.length === 0) return `${msg} (regex used for validation is '${fmt}')`;
  return `${msg} (e.g. ${examples.map((e) => `'${e}', `).join(' or ')}regex used for validation is '${fmt}')`;
}

function maxLenError(length: number): string {
  return `must be no more than ${length} characters`;
}

/** upstream: validation.IsQualifiedName */
export function qualifiedNameErrors(value: string): string[] {
  const errs: string[] = [];
  const parts = value.split('/');
  let name: string;
  if (parts.length === 1) {
    name = parts[0] ?? '';
  } else if (parts.length === 2) {
    const prefix = parts[0] ?? '';
    name = parts[1] ?? '';
    if (prefix.length === 0) {
      errs.push('prefix part must be non-empty');
    } else {
      if (prefix.length > 253) errs.push(`prefix part ${maxLenError(253)}`);
      if (!DNS1123_SUBDOMAIN_RE.test(prefix))
        errs.push(`prefix part ${regexError(DNS1123_SUBDOMAIN_ERR, DNS1123_SUBDOMAIN_FMT, 'example.com')}`);
    }
  } else {
    return [
      `a qualified name ${regexError(QUALIFIED_NAME_ERR, QUALIFIED_NAME_FMT, 'MyName', 'my.name', '123-abc')} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    ];
  }
  if (name.length === 0) errs.push('name part must be non-empty');
  else if (name.length > 63) errs.push(`name part ${maxLenError(63)}`);
  if (!QUALIFIED_NAME_RE.test(name))
    errs.push(`name part ${regexError(QUALIFIED_NAME_ERR, QUALIFIED_NAME_FMT, 'MyName', 'my.name', '123-abc')}`);
  return errs;
}

/** upstream: validation.IsValidLabelValue */
export function labelValueErrors(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 63) errs.push(maxLenError(63));
  if (!LABEL_VALUE_RE.test(value)) errs.push(regexError(LABEL_VALUE_ERR, LABEL_VALUE_FMT, 'MyValue', 'my_value', '12345'));
  return errs;
}

function goQuote(value: string): string {
  return JSON.stringify(value);
}

function goStringSlice(values: readonly string[]): string {
  return `[]string{${values.map(goQuote).join(', ')}}`;
}

/** field.Invalid(...).Error() */
function invalidField(path: string, value: string, detail: string): string {
  return `${path}: Invalid value: ${value}: ${detail}`;
}

/** utilerrors.NewAggregate(...).Error(): one message as is, several de-duplicated inside brackets. */
function aggregate(messages: string[]): string {
  const unique = [...new Set(messages)];
  if (unique.length === 1) return unique[0] ?? '';
  return `[${unique.join(', ')}]`;
}

/** upstream: labels.NewRequirement, with its validation; throws `SelectorParseError`. */
export function newRequirement(key: string, operator: SelectorOperator, values: string[], input = ''): Requirement {
  const errs: string[] = [];
  const keyErrs = qualifiedNameErrors(key);
  if (keyErrs.length) errs.push(invalidField('key', goQuote(key), keyErrs.join('; ')));
  switch (operator) {
    case 'in':
    case 'notin':
      if (values.length === 0)
        errs.push(invalidField('values', goStringSlice(values), "for 'in', 'notin' operators, values set can't be empty"));
      break;
    case '=':
    case '==':
    case '!=':
      if (values.length !== 1)
        errs.push(invalidField('values', goStringSlice(values), 'exact-match compatibility requires one single value'));
      break;
    case 'exists':
    case '!':
      if (values.length !== 0)
        errs.push(invalidField('values', goStringSlice(values), 'values set must be empty for exists and does not exist'));
      break;
    case 'gt':
    case 'lt':
      if (values.length !== 1)
        errs.push(invalidField('values', goStringSlice(values), "for 'Gt', 'Lt' operators, exactly one value is required"));
      values.forEach((v, i) => {
        if (parseGoInt64(v) === null)
          errs.push(invalidField(`values[${i}]`, goQuote(v), "for 'Gt', 'Lt' operators, the value must be an integer"));
      });
      break;
  }
  values.forEach((v, i) => {
    const valueErrs = labelValueErrors(v);
    if (valueErrs.length) errs.push(invalidField(`values[${i}][${key}]`, goQuote(v), valueErrs.join('; ')));
  });
  if (errs.length) throw new SelectorParseError(aggregate(errs), input);
  return { key, operator, values };
}

function parseGoInt64(text: string): bigint | null {
  if (!/^[+-]?\d+$/.test(text)) return null;
  const value = BigInt(text);
  return value >= -(1n << 63n) && value < 1n << 63n ? value : null;
}

/** upstream: Requirement.Matches */
export function requirementMatches(r: Requirement, labels: Readonly<Record<string, string>>): boolean {
  const has = Object.hasOwn(labels, r.key);
  switch (r.operator) {
    case 'in':
    case '=':
    case '==':
      return has && r.values.includes(labels[r.key] ?? '');
    case 'notin':
    case '!=':
      return !has || !r.values.includes(labels[r.key] ?? '');
    case 'exists':
      return has;
    case '!':
      return !has;
    case 'gt':
    case 'lt': {
      if (!has) return false;
      const lsValue = parseGoInt64(labels[r.key] ?? '');
      if (lsValue === null || r.values.length !== 1) return false;
      const rValue = parseGoInt64(r.values[0] ?? '');
      if (rValue === null) return false;
      return r.operator === 'gt' ? lsValue > rValue : lsValue < rValue;
    }
  }
}

/** Whether the selector matches a label set (nil labels read as empty). */
export function matchesSelector(selector: ParsedSelector, labels: Readonly<Record<string, string>> | null | undefined): boolean {
  if (selector.nothing) return false;
  const set = labels ?? {};
  for (const r of selector.requirements) if (!requirementMatches(r, set)) return false;
  return true;
}

/** `labels.Everything()` has no requirements; `Nothing()` matches nothing. */
export function isEverything(selector: ParsedSelector): boolean {
  return !selector.nothing && selector.requirements.length === 0;
}

function safeSort(values: readonly string[]): string[] {
  return [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** upstream: Requirement.String */
export function requirementToString(r: Requirement): string {
  let out = r.operator === '!' ? '!' : '';
  out += r.key;
  switch (r.operator) {
    case '=':
      out += '=';
      break;
    case '==':
      out += '==';
      break;
    case '!=':
      out += '!=';
      break;
    case 'in':
      out += ' in ';
      break;
    case 'notin':
      out += ' notin ';
      break;
    case 'gt':
      out += '>';
      break;
    case 'lt':
      out += '<';
      break;
    case 'exists':
    case '!':
      return out;
  }
  const open = r.operator === 'in' || r.operator === 'notin';
  if (open) out += '(';
  out += r.values.length === 1 ? (r.values[0] ?? '') : safeSort(r.values).join(',');
  if (open) out += ')';
  return out;
}

/** upstream: internalSelector.String, e.g. `app=web,tier in (a,b),!canary`. */
export function selectorToString(selector: ParsedSelector): string {
  if (selector.nothing) return '';
  return selector.requirements.map(requirementToString).join(',');
}

const enum Token {
  Error,
  EndOfString,
  ClosedPar,
  Comma,
  DoesNotExist,
  DoubleEquals,
  Equals,
  GreaterThan,
  Identifier,
  In,
  LessThan,
  NotEquals,
  NotIn,
  OpenPar,
}

const STRING_TO_TOKEN: Record<string, Token> = {
  ')': Token.ClosedPar,
  ',': Token.Comma,
  '!': Token.DoesNotExist,
  '==': Token.DoubleEquals,
  '=': Token.Equals,
  '>': Token.GreaterThan,
  in: Token.In,
  '<': Token.LessThan,
  '!=': Token.NotEquals,
  notin: Token.NotIn,
  '(': Token.OpenPar,
};

function literalToken(s: string): Token | undefined {
  return Object.hasOwn(STRING_TO_TOKEN, s) ? STRING_TO_TOKEN[s] : undefined;
}

function isWhitespace(ch: string): boolean {
  return ch === ' ' || ch === '\t' || ch === '\r' || ch === '\n';
}

function isSpecialSymbol(ch: string): boolean {
  return ch === '=' || ch === '!' || ch === '(' || ch === ')' || ch === ',' || ch === '>' || ch === '<';
}

interface ScannedItem {
  tok: Token;
  literal: string;
}

/** upstream: Lexer.Lex over the whole input (the Parser's scan step). */
function lex(s: string): ScannedItem[] {
  const items: ScannedItem[] = [];
  let pos = 0;
  const read = (): string => (pos < s.length ? s.charAt(pos++) : '');
  for (;;) {
    let ch = read();
    while (ch !== '' && isWhitespace(ch)) ch = read();
    if (ch === '') {
      items.push({ tok: Token.EndOfString, literal: '' });
      return items;
    }
    pos--;
    if (isSpecialSymbol(ch)) {
      let buffer = '';
      let last: ScannedItem | null = null;
      for (;;) {
        const c = read();
        if (c === '') break;
        if (isSpecialSymbol(c)) {
          buffer += c;
          const tok = literalToken(buffer);
          if (tok !== undefined) {
            last = { tok, literal: buffer };
          } else if (last) {
            pos--;
            break;
          }
        } else {
          pos--;
          break;
        }
      }
      items.push(last ?? { tok: Token.Error, literal: `error expected: keyword found '${buffer}'` });
    } else {
      let buffer = '';
      for (;;) {
        const c = read();
        if (c === '') break;
        if (isSpecialSymbol(c) || isWhitespace(c)) {
          pos--;
          break;
        }
        buffer += c;
      }
      items.push({ tok: literalToken(buffer) ?? Token.Identifier, literal: buffer });
    }
  }
}

const BINARY_OPERATORS = 'in, notin, =, ==, !=, gt, lt';

class SelectorParser {
  private position = 0;
  constructor(
    private readonly items: ScannedItem[],
    private readonly input: string,
  ) {}

  private fail(message: string): never {
    throw new SelectorParseError(message, this.input);
  }

  /** In the Values context, `in` and `notin` are ordinary identifiers. */
  private lookahead(values: boolean): ScannedItem {
    const item = this.items[this.position] ?? { tok: Token.EndOfString, literal: '' };
    return values && (item.tok === Token.In || item.tok === Token.NotIn) ? { tok: Token.Identifier, literal: item.literal } : item;
  }

  private consume(values: boolean): ScannedItem {
    const item = this.lookahead(values);
    this.position++;
    return item;
  }

  parse(): Requirement[] {
    const requirements: Requirement[] = [];
    for (;;) {
      const { tok, literal } = this.lookahead(true);
      switch (tok) {
        case Token.Identifier:
        case Token.DoesNotExist: {
          requirements.push(this.parseRequirementWrapped());
          const next = this.consume(true);
          if (next.tok === Token.EndOfString) return requirements;
          if (next.tok === Token.Comma) {
            const after = this.lookahead(true);
            if (after.tok !== Token.Identifier && after.tok !== Token.DoesNotExist)
              this.fail(`found '${after.literal}', expected: identifier after ','`);
          } else {
            this.fail(`found '${next.literal}', expected: ',' or 'end of string'`);
          }
          break;
        }
        case Token.EndOfString:
          return requirements;
        default:
          this.fail(`found '${literal}', expected: !, identifier, or 'end of string'`);
      }
    }
  }

  private parseRequirementWrapped(): Requirement {
    try {
      return this.parseRequirement();
    } catch (error) {
      if (error instanceof SelectorParseError) this.fail(`unable to parse requirement: ${error.message}`);
      throw error;
    }
  }

  private parseRequirement(): Requirement {
    let operator: SelectorOperator | null = null;
    let { tok, literal } = this.consume(true);
    if (tok === Token.DoesNotExist) {
      operator = '!';
      ({ tok, literal } = this.consume(true));
    }
    if (tok !== Token.Identifier) this.fail(`found '${literal}', expected: identifier`);
    const keyErrs = qualifiedNameErrors(literal);
    // the parser validates with a nil field path, which prints as "<nil>"
    if (keyErrs.length) this.fail(invalidField('<nil>', goQuote(literal), keyErrs.join('; ')));
    const key = literal;
    const peek = this.lookahead(true).tok;
    if (peek === Token.EndOfString || peek === Token.Comma) {
      if (operator !== '!') operator = 'exists';
    }
    if (operator === 'exists' || operator === '!') return newRequirement(key, operator, [], this.input);

    const op = this.parseOperator();
    let values: Set<string>;
    if (op === 'in' || op === 'notin') values = this.parseValues();
    else values = this.parseExactValue();
    return newRequirement(key, op, safeSort([...values]), this.input);
  }

  private parseOperator(): SelectorOperator {
    const { tok, literal } = this.consume(false);
    switch (tok) {
      case Token.In:
        return 'in';
      case Token.Equals:
        return '=';
      case Token.DoubleEquals:
        return '==';
      case Token.GreaterThan:
        return 'gt';
      case Token.LessThan:
        return 'lt';
      case Token.NotIn:
        return 'notin';
      case Token.NotEquals:
        return '!=';
      default:
        return this.fail(`found '${literal}', expected: ${BINARY_OPERATORS}`);
    }
  }

  private parseValues(): Set<string> {
    const open = this.consume(true);
    if (open.tok !== Token.OpenPar) this.fail(`found '${open.literal}' expected: '('`);
    const { tok, literal } = this.lookahead(true);
    switch (tok) {
      case Token.Identifier:
      case Token.Comma: {
        const s = this.parseIdentifiersList();
        if (this.consume(true).tok !== Token.ClosedPar) this.fail(`found '${literal}', expected: ')'`);
        return s;
      }
      case Token.ClosedPar:
        this.consume(true);
        return new Set(['']);
      default:
        return this.fail(`found '${literal}', expected: ',', ')' or identifier`);
    }
  }

  private parseIdentifiersList(): Set<string> {
    const s = new Set<string>();
    for (;;) {
      const { tok, literal } = this.consume(true);
      switch (tok) {
        case Token.Identifier: {
          s.add(literal);
          const next = this.lookahead(true);
          if (next.tok === Token.Comma) continue;
          if (next.tok === Token.ClosedPar) return s;
          return this.fail(`found '${next.literal}', expected: ',' or ')'`);
        }
        case Token.Comma: {
          if (s.size === 0) s.add('');
          const next = this.lookahead(true).tok;
          if (next === Token.ClosedPar) {
            s.add('');
            return s;
          }
          if (next === Token.Comma) {
            this.consume(true);
            s.add('');
          }
          break;
        }
        default:
          return this.fail(`found '${literal}', expected: ',', or identifier`);
      }
    }
  }

  private parseExactValue(): Set<string> {
    const peek = this.lookahead(true).tok;
    if (peek === Token.EndOfString || peek === Token.Comma) return new Set(['']);
    const { tok, literal } = this.consume(true);
    if (tok === Token.Identifier) return new Set([literal]);
    return this.fail(`found '${literal}', expected: identifier`);
  }
}

function sortByKey(requirements: Requirement[]): Requirement[] {
  // Array.prototype.sort is stable, like upstream's insertion sort for the small lists selectors hold
  return [...requirements].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/** `labels.Parse`: the string form (`a=b,c!=d,e in (x,y),!f,g`); throws `SelectorParseError`. */
export function parseSelector(input: string): ParsedSelector {
  const requirements = new SelectorParser(lex(input), input).parse();
  return { requirements: sortByKey(requirements) };
}

/** The parsed selector, or the error message upstream would print. */
export function tryParseSelector(input: string): { selector: ParsedSelector } | { error: string } {
  try {
    return { selector: parseSelector(input) };
  } catch (error) {
    if (error instanceof SelectorParseError) return { error: error.message };
    throw error;
  }
}

const LABEL_SELECTOR_OPERATORS: Record<string, SelectorOperator> = { In: 'in', NotIn: 'notin', Exists: 'exists', DoesNotExist: '!' };

/**
 * `metav1.LabelSelectorAsSelector`: nil selects nothing, an empty selector selects everything; throws
 * `SelectorParseError` for an unknown operator or an invalid requirement.
 */
export function labelSelectorToSelector(ls: LabelSelector | null | undefined): ParsedSelector {
  if (!ls) return { requirements: [], nothing: true };
  const matchLabels = ls.matchLabels ?? {};
  const expressions = ls.matchExpressions ?? [];
  const requirements: Requirement[] = [];
  for (const [k, v] of Object.entries(matchLabels)) requirements.push(newRequirement(k, '=', [v]));
  for (const expr of expressions) {
    const op = Object.hasOwn(LABEL_SELECTOR_OPERATORS, expr.operator) ? LABEL_SELECTOR_OPERATORS[expr.operator] : undefined;
    if (!op) throw new SelectorParseError(`${goQuote(expr.operator)} is not a valid label selector operator`, '');
    requirements.push(newRequirement(expr.key, op, [...(expr.values ?? [])]));
  }
  return { requirements: sortByKey(requirements) };
}

/** A matcher for a LabelSelector object (`matchLabels` + `matchExpressions`). */
export function toLabelMatcher(
  ls: LabelSelector | null | undefined,
): (labels: Readonly<Record<string, string>> | null | undefined) => boolean {
  const selector = labelSelectorToSelector(ls);
  return (labels) => matchesSelector(selector, labels);
}
