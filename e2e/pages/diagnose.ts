import type { Locator, Page } from '@playwright/test';

/** `/diagnose`: a paste box, the Diagnose button, the verdict of each autoscaler found and what the paste lacks. */
export class DiagnosePage {
  readonly heading: Locator;
  readonly paste: Locator;
  readonly submit: Locator;
  readonly verdict: Locator;
  readonly items: Locator;
  readonly unread: Locator;
  readonly error: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { level: 1, name: 'Diagnose a paste' });
    this.paste = page.getByLabel('kubectl get hpa -o yaml|json, or kubectl describe hpa');
    this.submit = page.getByRole('button', { name: 'Diagnose' });
    this.verdict = page.getByTestId('verdict');
    this.items = this.verdict.getByTestId('diagnosed');
    this.unread = page.getByTestId('unread');
    this.error = page.getByTestId('diagnose-error');
  }

  async goto(): Promise<void> {
    await this.page.goto('/diagnose');
  }

  async diagnose(text: string): Promise<void> {
    await this.paste.fill(text);
    await this.submit.click();
  }

  /** What an item shows as its verdict: health and problem codes. */
  async shown(i: number): Promise<{ health: string | null; problems: string[] }> {
    const item = this.items.nth(i);
    return {
      health: await item.getAttribute('data-health'),
      problems: await item.getByTestId('problem').evaluateAll((els) => els.map((e) => e.getAttribute('data-code') ?? '')),
    };
  }
}
