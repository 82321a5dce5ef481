'use client';

import { Link } from './ui/link';
import { usePathname } from 'next/navigation';
import { UserMenu } from './access/user-menu';
import { useStreamState } from './stream/fleet-stream';
import { ThemeToggle } from './theme-toggle';
import { UtcToggle } from './ui/time-zone';

const navItems = [
  { href: '/', label: 'Overview', match: (p: string) => p === '/' },
  { href: '/triage', label: 'Triage', match: (p: string) => p.startsWith('/triage') },
  { href: '/autoscalers', label: 'Autoscalers', match: (p: string) => p.startsWith('/autoscalers') },
  { href: '/preview', label: 'Previews', match: (p: string) => p.startsWith('/preview') },
  { href: '/diagnose', label: 'Diagnose', match: (p: string) => p.startsWith('/diagnose') },
] as const;

function LiveIndicator(): React.JSX.Element {
  const state = useStreamState();
  const label = state === 'live' ? 'Live' : state === 'connecting' ? 'Connecting…' : 'Offline';
  return (
    <span title="Updates stream from the server; pages refresh on their own while live." data-testid="live-indicator">
      <span className="live-dot" data-state={state} aria-hidden="true" />
      {label}
    </span>
  );
}

/** Header with the product name, the main navigation, live status, the UTC and theme toggles. */
export function AppShell({ children }: { children: React.ReactNode }): React.JSX.Element {
  const pathname = usePathname();
  return (
    <>
      <header className="shell-header">
        <Link href="/" className="brand">
          <span className="brand-mark" aria-hidden="true" />
          Autoscope
        </Link>
        <nav className="shell-nav" aria-label="Main">
          {navItems.map((item) => (
            <Link key={item.href} href={item.href} aria-current={item.match(pathname) ? 'page' : undefined}>
              {item.label}
            </Link>
          ))}
        </nav>
        <div className="shell-spacer" />
        <div className="shell-status">
          <LiveIndicator />
          <UtcToggle />
          <ThemeToggle />
          <UserMenu />
        </div>
      </header>
      <main className="shell-main">{children}</main>
    </>
  );
}
