/** Bodies below this go out as they are; above it, gzip when the client takes it (Next compresses the same way). */
export const compressFrom = 1024;

/** Whether an Accept-Encoding header takes gzip: named with a q above 0, or else `*` with a q above 0. */
export function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  let any = false;
  for (const part of header.split(',')) {
    const [coding = '', ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    const q = params.find((p) => p.startsWith('q='));
    const taken = !q || Number(q.slice(2)) > 0;
    if (coding === 'gzip' || coding === 'x-gzip') return taken;
    if (coding === '*') any = taken;
  }
  return any;
}
