'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { ThemeToggle } from './theme-toggle';

const navItems = [
  { href: '/', label: 'Overview', match: (p: string) => p === '/' },
  { href: '/triage', label: 'Triage', match: (p: string) => p.startsWith('/triage') },
  { href: '/preview', label: 'Previews', match: (p: string) => p.startsWith('/preview') },
] as const;

/** Header with the product name, the main navigation and the theme toggle. */
export function AppShell({ children }: { children: React.ReactNode }): React.JSX.Element {
  const pathname = usePathname() ?? '/';
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
        <ThemeToggle />
      </header>
      <main className="shell-main">{children}</main>
    </>
  );
}
