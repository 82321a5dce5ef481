import type { Locator, Page } from '@playwright/test';

/** The header every page shares: brand, main navigation, theme toggle. */
export class AppShellPage {
  readonly nav: Locator;
  readonly themeToggle: Locator;

  constructor(readonly page: Page) {
    this.nav = page.getByRole('navigation', { name: 'Main' });
    this.themeToggle = page.getByRole('button', { name: /Switch to (light|dark) theme/ });
  }

  navLink(name: 'Overview' | 'Triage' | 'Autoscalers' | 'Previews' | 'Diagnose'): Locator {
    return this.nav.getByRole('link', { name });
  }

  async theme(): Promise<string | undefined> {
    return this.page.evaluate(() => document.documentElement.dataset.theme);
  }
}
