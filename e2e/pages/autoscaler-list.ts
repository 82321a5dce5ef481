import type { Locator, Page } from '@playwright/test';

/** The autoscaler list `/autoscalers`: every autoscaler, filters and sort in the URL, one virtualized table. */
export class AutoscalerListPage {
  readonly heading: Locator;
  readonly search: Locator;
  readonly kind: Locator;
  readonly health: Locator;
  readonly sort: Locator;
  readonly summary: Locator;
  readonly rows: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { level: 1, name: 'Autoscalers' });
    const form = page.getByRole('search', { name: 'Filter the autoscaler list' });
    this.search = form.getByLabel('Search');
    this.kind = form.getByLabel('Kind');
    this.health = form.getByLabel('Health');
    this.sort = form.getByLabel('Sort');
    this.summary = page.getByTestId('list-summary');
    this.rows = page.getByTestId('group-member');
  }

  async goto(query = ''): Promise<void> {
    await this.page.goto(`/autoscalers${query}`);
  }
}
