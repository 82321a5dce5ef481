import { describe, expect, it } from 'vitest';
import { readConfig, readOperationsConfig } from './config';

describe('readOperationsConfig', () => {
  it('serves metrics on 127.0.0.1:9464 by default', () => {
    expect(readOperationsConfig({})).toEqual({ metricsPort: 9464, metricsHost: '127.0.0.1' });
  });

  it('takes AUTOSCOPE_METRICS_PORT and AUTOSCOPE_METRICS_HOST; "off" turns the endpoint off', () => {
    expect(readOperationsConfig({ AUTOSCOPE_METRICS_PORT: '9471', AUTOSCOPE_METRICS_HOST: '0.0.0.0' })).toEqual({
      metricsPort: 9471,
      metricsHost: '0.0.0.0',
    });
    expect(readOperationsConfig({ AUTOSCOPE_METRICS_PORT: 'off' }).metricsPort).toBeNull();
  });

  it("refuses a port that is not one, and the dashboard's own port", () => {
    expect(() => readOperationsConfig({ AUTOSCOPE_METRICS_PORT: '70000' })).toThrow(/1-65535/);
    expect(() => readOperationsConfig({ AUTOSCOPE_METRICS_PORT: 'abc' })).toThrow(/port number/);
    expect(() => readOperationsConfig({ AUTOSCOPE_METRICS_PORT: '3000', PORT: '3000' })).toThrow(/differ from the dashboard's PORT/);
  });
});

describe('readConfig', () => {
  it('favors memory once synced unless AUTOSCOPE_V8_FAVOR says speed, and refuses anything else', () => {
    expect(readConfig({}).v8Favor).toBe('memory');
    expect(readConfig({ AUTOSCOPE_V8_FAVOR: ' speed ' }).v8Favor).toBe('speed');
    expect(readConfig({ AUTOSCOPE_V8_FAVOR: 'memory' }).v8Favor).toBe('memory');
    expect(() => readConfig({ AUTOSCOPE_V8_FAVOR: 'fast' })).toThrow(/AUTOSCOPE_V8_FAVOR must be "memory" or "speed", not "fast"/);
  });
});
