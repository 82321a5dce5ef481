import { NextRequest } from 'next/server';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ErrorBodySchema } from '@/lib/api';
import { AppError } from './app-error';
import { handle } from './handle';

const get = (url: string): NextRequest => new NextRequest(url);

describe('handle()', () => {
  it('serialises the returned data as JSON with 200', async () => {
    const res = await handle(() => ({ status: 'ok' }))(get('http://x/api/healthz'), {});
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
  });

  it('maps an AppError to its status and the error body, cluster included', async () => {
    const res = await handle(() => {
      throw new AppError('not_found', 'no such autoscaler', { cluster: 'prod-eu' });
    })(get('http://x/api/v1/autoscalers/a'), {});
    expect(res.status).toBe(404);
    const body = ErrorBodySchema.parse(await res.json());
    expect(body.error).toEqual({ code: 'not_found', message: 'no such autoscaler', cluster: 'prod-eu' });
  });

  it('maps a ZodError to 400 naming the failing field', async () => {
    const res = await handle((req) =>
      z.object({ limit: z.coerce.number().int().max(500) }).parse({ limit: req.nextUrl.searchParams.get('limit') }),
    )(get('http://x/api/v1/autoscalers?limit=9000'), {});
    expect(res.status).toBe(400);
    const body = ErrorBodySchema.parse(await res.json());
    expect(body.error.code).toBe('bad_request');
    expect(body.error.issues?.[0]?.path).toBe('limit');
    expect(body.error.message).toMatch(/^invalid limit:/);
  });

  it('turns anything else into a 500 without leaking its message or stack', async () => {
    const res = await handle(() => {
      throw new Error('token=sekret at /srv/x.ts:12');
    })(get('http://x/api/boom'), {});
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(text).not.toContain('sekret');
    expect(JSON.parse(text)).toEqual({ error: { code: 'internal', message: 'internal error' } });
  });

  it('passes a Response through untouched', async () => {
    const res = await handle(() => new Response('a,b\n', { headers: { 'content-type': 'text/csv' } }))(get('http://x/a.csv'), {});
    expect(res.headers.get('content-type')).toBe('text/csv');
    expect(await res.text()).toBe('a,b\n');
  });
});
