import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AccessConfigError, readAccessConfig } from './config';
import { parsePolicyYaml, PolicyFileError, PolicySource } from './policy-file';

describe('readAccessConfig', () => {
  it('loopback without a mode is the no-sign-in default; any other address refuses to start with one line saying what to set', () => {
    expect(readAccessConfig({}).mode).toBe('local');
    expect(readAccessConfig({ HOST: '127.0.0.1' }).mode).toBe('local');
    expect(readAccessConfig({ HOST: '::1' }).mode).toBe('local');
    expect(readAccessConfig({ HOST: 'localhost' }).mode).toBe('local');
    for (const host of ['0.0.0.0', '::', '10.0.0.5', 'autoscope.internal']) {
      expect(() => readAccessConfig({ HOST: host })).toThrow(AccessConfigError);
      try {
        readAccessConfig({ HOST: host });
      } catch (err) {
        expect((err as Error).message).toMatch(/^HOST=\S+ is not loopback: set AUTOSCOPE_AUTH=oidc .* or AUTOSCOPE_AUTH=none/);
        expect((err as Error).message).not.toContain('\n');
      }
    }
    expect(readAccessConfig({ HOST: '0.0.0.0', AUTOSCOPE_AUTH: 'none' }).mode).toBe('none');
  });

  it('oidc: names each missing setting; the client secret comes from a file; http issuers only on loopback', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'access-config-'));
    const secret = path.join(dir, 'secret');
    writeFileSync(secret, 's3cret\n');
    const env = {
      AUTOSCOPE_AUTH: 'oidc',
      AUTOSCOPE_OIDC_ISSUER: 'https://id.example.com',
      AUTOSCOPE_OIDC_CLIENT_ID: 'autoscope',
      AUTOSCOPE_OIDC_REDIRECT_URL: 'https://autoscope.example.com/auth/callback',
      AUTOSCOPE_OIDC_CLIENT_SECRET_FILE: secret,
    };
    const config = readAccessConfig(env);
    expect(config.oidc).toMatchObject({
      clientId: 'autoscope',
      clientSecret: 's3cret',
      scopes: 'openid profile email groups',
      groupsClaim: 'groups',
      idleMinutes: 60,
      maxHours: 12,
    });
    expect(() => readAccessConfig({ ...env, AUTOSCOPE_OIDC_CLIENT_ID: '' })).toThrow('AUTOSCOPE_AUTH=oidc needs AUTOSCOPE_OIDC_CLIENT_ID');
    expect(() => readAccessConfig({ ...env, AUTOSCOPE_OIDC_ISSUER: 'http://id.example.com' })).toThrow('must be https');
    expect(readAccessConfig({ ...env, AUTOSCOPE_OIDC_ISSUER: 'http://127.0.0.1:5556' }).oidc?.issuer.href).toBe('http://127.0.0.1:5556/');
    expect(() => readAccessConfig({ ...env, AUTOSCOPE_OIDC_CLIENT_SECRET_FILE: path.join(dir, 'absent') })).toThrow(
      'cannot be read (ENOENT)',
    );
    expect(() => readAccessConfig({ ...env, AUTOSCOPE_SESSION_IDLE_MINUTES: 'soon' })).toThrow(
      'AUTOSCOPE_SESSION_IDLE_MINUTES must be a positive number',
    );
    expect(() => readAccessConfig({ AUTOSCOPE_AUTH: 'ldap' })).toThrow('AUTOSCOPE_AUTH=ldap is not a mode');
  });

  it('proxy: an issuer is required; the token header defaults to Authorization', () => {
    expect(() => readAccessConfig({ AUTOSCOPE_AUTH: 'proxy' })).toThrow('AUTOSCOPE_AUTH=proxy needs AUTOSCOPE_PROXY_ISSUER');
    expect(readAccessConfig({ AUTOSCOPE_AUTH: 'proxy', AUTOSCOPE_PROXY_ISSUER: 'https://sso.example.com' }).proxy).toMatchObject({
      header: 'authorization',
      audience: null,
      jwksUrl: null,
    });
    expect(
      readAccessConfig({
        AUTOSCOPE_AUTH: 'proxy',
        AUTOSCOPE_PROXY_ISSUER: 'https://sso.example.com',
        AUTOSCOPE_PROXY_HEADER: 'X-Auth-Request-Access-Token',
      }).proxy?.header,
    ).toBe('x-auth-request-access-token');
  });
});

describe('policy files', () => {
  it('an error names the file and the line of the offending value', () => {
    const text = [
      'defaultRole: none',
      'rules:',
      '  - name: web',
      '    groups: [team-web]',
      '    clusters: ["prod-*"]',
      '  - name: broken',
      '    groups: [ops]',
      '    clusters: ["prod eu"]',
      '    kinds: [Deployment]',
    ].join('\n');
    expect(() => parsePolicyYaml(text, 'policy.yaml')).toThrow(PolicyFileError);
    try {
      parsePolicyYaml(text, 'policy.yaml');
    } catch (err) {
      expect((err as Error).message).toContain('policy.yaml:8: rules.1.clusters.0:');
      expect((err as Error).message).toContain('policy.yaml:9: rules.1.kinds.0:');
    }
    expect(() => parsePolicyYaml('rules:\n  - groups: [a]\n    clusters: [x\n', 'p.yaml')).toThrow(/^p\.yaml:\d+: /);
    expect(() => parsePolicyYaml('defaultRole: none\ndefaultRole: read-all\n', 'p.yaml')).toThrow(/^p\.yaml:2: /);
    expect(() => parsePolicyYaml('rules:\n  - groups: [a]\n', 'p.yaml')).toThrow('p.yaml:2: rules.0.clusters:');
  });

  it('is read again when the file changes; a bad change keeps the last good policy', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'policy-'));
    const file = path.join(dir, 'policy.yaml');
    writeFileSync(file, 'defaultRole: none\n');
    const source = new PolicySource(file);
    expect(source.current(10_000).defaultRole).toBe('none');
    writeFileSync(file, 'defaultRole: read-all   \n');
    expect(source.current(10_500).defaultRole).toBe('none'); // looked at most once a second
    expect(source.current(12_000).defaultRole).toBe('read-all');
    writeFileSync(file, 'defaultRole: everything-please\n');
    expect(source.current(14_000).defaultRole).toBe('read-all');
    expect(() => new PolicySource(file)).toThrow(PolicyFileError);
  });
});
