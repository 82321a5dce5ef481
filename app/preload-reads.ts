import { preload } from 'react-dom';

/** A page's search parameters (as Next hands them to a page) as the browser's `URLSearchParams` would read them. */
export async function searchParamsOf(searchParams: Promise<Record<string, string | string[] | undefined>>): Promise<URLSearchParams> {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(await searchParams)) {
    for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) params.append(key, v);
  }
  return params;
}

/**
 * Names the API reads a page's view makes as it opens (`<link rel="preload" as="fetch">` in the HTML), so the browser
 * fetches them beside the page's scripts rather than after them; the view's own fetches take the preloaded answers
 * (same URLs — each view's state module builds both — and same-origin credentials).
 */
export function preloadReads(urls: readonly string[]): void {
  for (const url of urls) preload(url, { as: 'fetch', crossOrigin: 'anonymous' });
}
