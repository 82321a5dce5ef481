import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatLogLine, log, logLevel, redact } from './log';

const parse = (line: string): Record<string, unknown> => JSON.parse(line) as Record<string, unknown>;

describe('formatLogLine', () => {
  const at = new Date('2026-11-23T21:00:00.000Z');

  it('writes one JSON object: level, time, msg, then the fields', () => {
    const line = formatLogLine(
      'warn',
      'cluster state',
      { cluster: 'prod-eu', state: 'unreachable', attempts: 3, stale: true, error: undefined },
      at,
    );
    expect(line).not.toContain('\n');
    expect(parse(line)).toEqual({
      level: 'warn',
      time: '2026-11-23T21:00:00.000Z',
      msg: 'cluster state',
      cluster: 'prod-eu',
      state: 'unreachable',
      attempts: 3,
      stale: true,
    });
    expect(Object.keys(parse(line)).slice(0, 3)).toEqual(['level', 'time', 'msg']);
  });

  it('redacts the message and every string field, and a field cannot overwrite level, time or msg', () => {
    const line = formatLogLine(
      'error',
      'GET failed: Authorization: Bearer abc.def',
      { error: 'token: sim-token-prod-eu-1', level: 'debug', msg: 'x' },
      at,
    );
    const parsed = parse(line);
    expect(parsed).toEqual({
      level: 'error',
      time: '2026-11-23T21:00:00.000Z',
      msg: 'GET failed: Authorization: Bearer [redacted]',
      error: 'token: [redacted]',
    });
  });

  it('keeps a newline inside a message on the same line (escaped)', () => {
    const line = formatLogLine('info', 'a\nb', undefined, at);
    expect(line.split('\n')).toHaveLength(1);
    expect(parse(line).msg).toBe('a\nb');
  });
});

describe('redact', () => {
  it('removes PEM blocks and kubeconfig data fields', () => {
    expect(redact('client-key-data: LS0tLS1CRUdJTi')).toBe('client-key-data: [redacted]');
    expect(redact('x -----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY----- y')).toBe('x [redacted pem] y');
  });
});

describe('logLevel and filtering', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.restoreAllMocks();
  });

  it('reads AUTOSCOPE_LOG_LEVEL, case-insensitively; unset or unknown is info', () => {
    expect(logLevel({})).toBe('info');
    expect(logLevel({ AUTOSCOPE_LOG_LEVEL: 'DEBUG' })).toBe('debug');
    expect(logLevel({ AUTOSCOPE_LOG_LEVEL: 'warn' })).toBe('warn');
    expect(logLevel({ AUTOSCOPE_LOG_LEVEL: 'verbose' })).toBe('info');
  });

  it('drops lines below the level and writes the rest to stdout', () => {
    const lines: string[] = [];
    vi.spyOn(console, 'info').mockImplementation((line: string) => void lines.push(line));
    vi.stubEnv('AUTOSCOPE_LOG_LEVEL', 'warn');
    log.debug('d');
    log.info('i');
    log.warn('w', { cluster: 'c' });
    log.error('e');
    expect(lines.map(parse)).toEqual([
      expect.objectContaining({ level: 'warn', msg: 'w', cluster: 'c' }),
      expect.objectContaining({ level: 'error', msg: 'e' }),
    ]);
  });
});
