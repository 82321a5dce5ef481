import type { Metadata } from 'next';
import Script from 'next/script';
import { AppShell } from '@/components/app-shell';
import { Providers } from '@/components/providers';
import { themeBootScript } from '@/components/theme-toggle';
import './globals.css';

export const metadata: Metadata = {
  title: { default: 'Autoscope', template: '%s · Autoscope' },
  description: 'Triage and preview autoscalers across many Kubernetes clusters.',
};

export default function RootLayout({ children }: { children: React.ReactNode }): React.JSX.Element {
  return (
    <html lang="en" suppressHydrationWarning>
      <body>
        {/* Before hydration, so the page never flashes the wrong theme. */}
        <Script id="theme-boot" strategy="beforeInteractive">
          {themeBootScript}
        </Script>
        <Providers>
          <AppShell>{children}</AppShell>
        </Providers>
      </body>
    </html>
  );
}
