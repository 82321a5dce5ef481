import { NextRequest } from 'next/server';
import { describe, expect, it } from 'vitest';
import { ErrorBodySchema } from '@/lib/api';
import { proxy } from '../proxy';

const at = (path: string, method = 'GET'): NextRequest => new NextRequest(new URL(path, 'http://127.0.0.1:3000'), { method });

describe('proxy.ts: malformed paths are the client’s mistake', () => {
  it('answers an API path with broken percent-encoding with the JSON error body and 400', async () => {
    const res = proxy(at('/api/v1/autoscalers/%E0%A4%A/HorizontalPodAutoscaler/shop/web'));
    expect(res?.status).toBe(400);
    expect(ErrorBodySchema.parse(await res?.json()).error.code).toBe('bad_request');
  });

  it('answers a page path with a plain 400', async () => {
    const res = proxy(at('/autoscalers/%ZZ/HorizontalPodAutoscaler/shop/web'));
    expect(res?.status).toBe(400);
    expect(await res?.text()).toContain('malformed percent-encoding');
  });

  it('lets well-formed paths through, encoded cluster names included', () => {
    expect(proxy(at('/api/v1/autoscalers/arn%3Aaws%3Aeks%3Aus-east-1%3A1%3Acluster%2Fprod/HorizontalPodAutoscaler/shop/web'))).toBeUndefined();
    expect(proxy(at('/triage?q=%E2%9C%93'))).toBeUndefined();
    expect(proxy(at('/'))).toBeUndefined();
  });

  it('answers a method an API route does not take with 405, the JSON body and Allow: the API only reads, previews only compute', async () => {
    const del = proxy(at('/api/v1/autoscalers', 'DELETE'));
    expect(del?.status).toBe(405);
    expect(del?.headers.get('allow')).toBe('GET, HEAD');
    expect(ErrorBodySchema.parse(await del?.json()).error.code).toBe('method_not_allowed');
    expect(proxy(at('/api/v1/preview/hpa', 'PUT'))?.headers.get('allow')).toBe('POST');
    expect(proxy(at('/api/v1/preview/hpa', 'GET'))?.status).toBe(405);
    expect(proxy(at('/api/v1/preview/federation/scale-up', 'POST'))).toBeUndefined();
    expect(proxy(at('/api/v1/diagnose', 'POST'))).toBeUndefined();
    expect(proxy(at('/api/v1/diagnose', 'GET'))?.headers.get('allow')).toBe('POST');
    expect(proxy(at('/api/v1/triage', 'GET'))).toBeUndefined();
    // Pages are Next's business.
    expect(proxy(at('/triage', 'POST'))).toBeUndefined();
  });
});
