import type { Locator, Page } from '@playwright/test';

/** The federation preview `/preview/federation`: the inputs form on the left, the results on the right. */
export class FederationPreviewPage {
  readonly heading: Locator;
  readonly form: Locator;
  readonly startLive: Locator;
  readonly policy: Locator;
  readonly federatedMin: Locator;
  readonly federatedMax: Locator;
  readonly clusterRows: Locator;
  readonly addCluster: Locator;
  readonly results: Locator;
  readonly resultTable: Locator;
  readonly seedNotes: Locator;
  readonly chart: Locator;
  readonly explanation: Locator;
  readonly shippedNote: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { level: 1, name: 'Federation preview' });
    this.form = page.getByRole('form', { name: 'Federation preview inputs' });
    this.startLive = this.form.getByLabel('Live FederatedHPA');
    this.policy = this.form.getByLabel('Policy or strategy');
    this.federatedMin = this.form.getByLabel('Federated min', { exact: true });
    this.federatedMax = this.form.getByLabel('Federated max', { exact: true });
    this.clusterRows = this.form.getByTestId('cluster-row');
    this.addCluster = this.form.getByRole('button', { name: 'Add cluster' });
    this.results = page.getByTestId('federation-results');
    this.resultTable = page.getByTestId('result-table');
    this.seedNotes = page.getByTestId('seed-notes');
    this.chart = page.getByTestId('before-after-chart');
    this.explanation = page.getByTestId('explanation');
    this.shippedNote = page.getByTestId('shipped-note');
  }

  async goto(query = ''): Promise<void> {
    await this.page.goto(`/preview/federation${query}`);
  }

  /** Loads one of the seed proposal's worked examples (it picks its own tab). */
  async loadExample(label: string): Promise<void> {
    await this.form.getByLabel('Or a worked example from the seed proposal').selectOption({ label });
  }

  tab(name: string): Locator {
    return this.page.getByRole('tab', { name });
  }

  /** Row `index` of the member-cluster table; `column` is a column header such as "Available" or "Weight". */
  clusterInput(index: number, column: string): Locator {
    return this.clusterRows.nth(index).getByLabel(new RegExp(`^${column} \\(`));
  }

  clusterName(index: number): Locator {
    return this.clusterRows.nth(index).getByLabel(/^Cluster name/);
  }

  /** Fills the member-cluster table, adding rows as needed: `[{ name, Available: 1 }, …]`. */
  async fillClusters(rows: readonly Record<string, string | number>[]): Promise<void> {
    while ((await this.clusterRows.count()) < rows.length) await this.addCluster.click();
    for (const [i, row] of rows.entries()) {
      for (const [column, value] of Object.entries(row)) {
        if (column === 'name') await this.clusterName(i).fill(String(value));
        else await this.clusterInput(i, column).fill(String(value));
      }
    }
  }

  resultRow(cluster: string): Locator {
    return this.resultTable.locator(`[data-testid="result-row"][data-cluster="${cluster}"]`);
  }

  cell(cluster: string, column: string): Locator {
    return this.resultRow(cluster).locator(`[data-col="${column}"]`);
  }
}
