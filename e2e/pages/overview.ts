import type { Locator, Page } from '@playwright/test';

/** The Overview page `/`: fleet totals, top problems, health by cluster, cluster tiles, transitions feed. */
export class OverviewPage {
  readonly heading: Locator;
  readonly tiles: Locator;
  readonly topProblems: Locator;
  readonly healthTable: Locator;
  readonly transitions: Locator;
  readonly includeRoutine: Locator;
  readonly totals: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { level: 1, name: 'Overview' });
    this.tiles = page.getByTestId('cluster-tile');
    this.topProblems = page.getByTestId('top-problem');
    // The chart's numbers, as the table screen readers get.
    this.healthTable = page.getByRole('table', { name: 'Autoscalers per cluster by health' });
    this.transitions = page.getByTestId('transitions-feed');
    this.includeRoutine = page.getByRole('checkbox', { name: /Include routine reason changes/ });
    this.totals = page.getByTestId('fleet-totals');
  }

  async goto(): Promise<void> {
    await this.page.goto('/');
  }

  tile(cluster: string): Locator {
    return this.tiles.filter({ has: this.page.getByRole('heading', { level: 3, name: cluster, exact: true }) });
  }

  member(cluster: string): Locator {
    return this.page.locator(`[data-testid="cluster-member"][data-cluster="${cluster}"]`);
  }
}
