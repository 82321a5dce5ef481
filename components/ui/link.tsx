'use client';

import NextLink from 'next/link';
import { useRouter } from 'next/navigation';
import type { ComponentProps } from 'react';

type Props = ComponentProps<typeof NextLink>;

/**
 * Every in-app link: Next's `Link`, prefetching its page when the person shows intent — the pointer enters it, it
 * takes focus, a finger touches it — instead of when it scrolls into view.
 *
 * Next prefetches every link in the viewport by default, and each prefetch of a dynamic page is a server render. A
 * page load of the Triage page on a churning fleet fired eight of them (the header's five destinations, twice), all
 * on the BFF's one request thread in front of the page's own data: its `/api/v1/triage` waited 1.2 s behind them
 * (docs/performance.md, 2026-11-27). The Overview renders a link per cluster. An operator reaches for one link at a
 * time; a prefetch on hover still lands before most clicks. `prefetch={false}` turns prefetching off altogether.
 */
export function Link({ prefetch, href, onMouseEnter, onFocus, onTouchStart, ...props }: Props): React.JSX.Element {
  const router = useRouter();
  const url = typeof href === 'string' ? href : null;
  const onIntent = (): void => {
    if (prefetch !== false && url !== null && url.startsWith('/')) router.prefetch(url);
  };
  return (
    <NextLink
      {...props}
      href={href}
      prefetch={false}
      onMouseEnter={(e) => {
        onIntent();
        onMouseEnter?.(e);
      }}
      onFocus={(e) => {
        onIntent();
        onFocus?.(e);
      }}
      onTouchStart={(e) => {
        onIntent();
        onTouchStart?.(e);
      }}
    />
  );
}
