import 'server-only';

/**
 * The one logger: one JSON object per line on stdout — `level`, `time`, `msg`, then the fields a line
 * carries (`cluster`, `state`, `error`, …; docs/operations.md lists them). Everything logged goes
 * through `redact`, so a bearer token, a client key or a kubeconfig fragment that slips into an error
 * message never reaches the log.
 */
const patterns: [RegExp, string][] = [
  [/(authorization:\s*)(bearer|basic)\s+[^\s"',]+/gi, '$1$2 [redacted]'],
  [/\b(bearer)\s+[A-Za-z0-9\-._~+/]+=*/gi, '$1 [redacted]'],
  [/-----BEGIN [A-Z ]+-----[\s\S]*?-----END [A-Z ]+-----/g, '[redacted pem]'],
  [
    /((?:token|password|client-key-data|client-certificate-data|certificate-authority-data)["']?\s*[:=]\s*["']?)[^\s"',}]+/gi,
    '$1[redacted]',
  ],
  [/sim-token-[A-Za-z0-9-]+/g, '[redacted]'],
];

export function redact(text: string): string {
  let out = text;
  for (const [re, replacement] of patterns) out = out.replace(re, replacement);
  return out;
}

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
const rank: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

/** Fields beside the message; values are strings, numbers, booleans or null (nothing nested, nothing secret). */
export type LogFields = Record<string, string | number | boolean | null | undefined>;

/** `AUTOSCOPE_LOG_LEVEL` (debug, info, warn, error; default info). An unknown value keeps info. */
export function logLevel(env: Readonly<Record<string, string | undefined>> = process.env): LogLevel {
  const value = env.AUTOSCOPE_LOG_LEVEL?.trim().toLowerCase();
  return value && value in rank ? (value as LogLevel) : 'info';
}

/** One log line (without the newline): the JSON object for `level`, `msg` and `fields` at `time`. */
export function formatLogLine(level: LogLevel, msg: string, fields: LogFields | undefined, time: Date): string {
  const line: Record<string, string | number | boolean | null> = { level, time: time.toISOString(), msg: redact(msg) };
  for (const [key, value] of Object.entries(fields ?? {})) {
    if (value === undefined || key === 'level' || key === 'time' || key === 'msg') continue;
    line[key] = typeof value === 'string' ? redact(value) : value;
  }
  return JSON.stringify(line);
}

/** The message of anything thrown, for a log line's `error` field. */
export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function write(level: LogLevel, msg: string, fields?: LogFields): void {
  if (rank[level] < rank[logLevel()]) return;
  // console.info writes to stdout, one line; tests that capture the console see every line.
  console.info(formatLogLine(level, msg, fields, new Date()));
}

export const log = {
  debug(msg: string, fields?: LogFields): void {
    write('debug', msg, fields);
  },
  info(msg: string, fields?: LogFields): void {
    write('info', msg, fields);
  },
  warn(msg: string, fields?: LogFields): void {
    write('warn', msg, fields);
  },
  error(msg: string, fields?: LogFields): void {
    write('error', msg, fields);
  },
};
