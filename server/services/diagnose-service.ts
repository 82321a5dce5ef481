import 'server-only';
import { parseAllDocuments } from 'yaml';
import type { DiagnoseResponse } from '@/lib/api';
import { DIAGNOSE_MAX_BYTES } from '@/lib/api';
import { diagnoseDescribe, diagnoseObjects, findCredential, looksLikeDescribe } from '@/lib/diagnose';
import { AppError } from '../http/app-error';

/**
 * Reads a paste: nothing is sent to a cluster, logged or stored. The text lives in this call only; errors
 * quote no part of it beyond the parser's position.
 */
export async function diagnosePaste(req: Request, now: number): Promise<DiagnoseResponse> {
  const declared = Number(req.headers.get('content-length') ?? 0);
  if (declared > DIAGNOSE_MAX_BYTES)
    throw new AppError(
      'payload_too_large',
      `the paste is ${declared} bytes; the limit is ${DIAGNOSE_MAX_BYTES} (1 MiB): paste one object or a smaller list`,
    );
  const text = await req.text();
  if (Buffer.byteLength(text) > DIAGNOSE_MAX_BYTES)
    throw new AppError('payload_too_large', `the paste exceeds ${DIAGNOSE_MAX_BYTES} bytes (1 MiB): paste one object or a smaller list`);
  if (!text.trim()) throw new AppError('bad_request', 'the body is empty: send the pasted kubectl output as text/plain');
  const credential = findCredential(text);
  if (credential) {
    throw new AppError(
      'bad_request',
      `the paste holds ${credential}; Autoscope refuses credentials and read nothing of it. Remove it and paste only the autoscaler (kubectl get hpa NAME -o yaml or kubectl describe hpa NAME)`,
    );
  }
  if (looksLikeDescribe(text) && !/^\s*"?apiVersion"?\s*:/m.test(text)) return diagnoseDescribe(text, now);
  const { values, errors } = parseDocuments(text);
  const result = diagnoseObjects(values, now);
  return { ...result, unread: [...errors.map((e) => `a document could not be read as YAML (${e}), so it was skipped`), ...result.unread] };
}

function parseDocuments(text: string): { values: unknown[]; errors: string[] } {
  const trimmed = text.trim();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      return { values: [JSON.parse(trimmed) as unknown], errors: [] };
    } catch {
      // several JSON objects one after another, or JSON with a stray line: YAML reads most of it
    }
  }
  const docs = parseAllDocuments(text, { prettyErrors: false, uniqueKeys: false });
  const list = Array.isArray(docs) ? docs : [docs];
  const values: unknown[] = [];
  const errors: string[] = [];
  for (const d of list) {
    if (d.errors.length > 0) {
      const e = d.errors[0];
      errors.push(e ? `${e.code} at line ${String(e.linePos?.[0].line ?? '?')}` : 'parse error');
      continue;
    }
    values.push(d.toJS({ maxAliasCount: 50 }));
  }
  if (values.length === 0) {
    throw new AppError(
      'bad_request',
      `the paste is neither kubectl describe output nor YAML/JSON objects${errors.length > 0 ? ` (YAML: ${errors[0] ?? ''})` : ''}`,
    );
  }
  return { values, errors };
}
