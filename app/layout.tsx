import type { Metadata } from 'next';
import { headers } from 'next/headers';
import Script from 'next/script';
import { AppShell } from '@/components/app-shell';
import { OpenAccessBanner } from '@/components/access/open-access-banner';
import { Providers } from '@/components/providers';
import { themeBootScript } from '@/components/theme-toggle';
import { isOpenByChoice } from '@/server/access/config';
import './globals.css';

export const metadata: Metadata = {
  title: { default: 'Autoscope', template: '%s · Autoscope' },
  description: 'Triage and preview autoscalers across many Kubernetes clusters.',
};

export default async function RootLayout({ children }: { children: React.ReactNode }): Promise<React.JSX.Element> {
  // proxy.ts puts a fresh nonce in the request's Content-Security-Policy; reading it renders every page per request.
  const nonce = (await headers()).get('x-nonce') ?? undefined;
  return (
    <html lang="en" suppressHydrationWarning>
      <body>
        {/* Before hydration, so the page never flashes the wrong theme. */}
        <Script id="theme-boot" strategy="beforeInteractive" nonce={nonce}>
          {themeBootScript}
        </Script>
        {isOpenByChoice() ? <OpenAccessBanner /> : null}
        <Providers>
          <AppShell>{children}</AppShell>
        </Providers>
      </body>
    </html>
  );
}
