import type { Locator, Page } from '@playwright/test';

/** The HPA preview `/preview/hpa`: the inputs form on the left, the decision before and after on the right. */
export class HpaPreviewPage {
  readonly heading: Locator;
  readonly form: Locator;
  readonly hpaSelect: Locator;
  readonly minReplicas: Locator;
  readonly maxReplicas: Locator;
  readonly curve: Locator;
  readonly results: Locator;
  readonly before: Locator;
  readonly after: Locator;
  readonly beforeDesired: Locator;
  readonly afterDesired: Locator;
  readonly beforeConditions: Locator;
  readonly afterConditions: Locator;
  readonly diff: Locator;
  readonly playback: Locator;
  readonly assumptions: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { level: 1, name: 'HPA preview' });
    this.form = page.getByRole('form', { name: 'HPA preview inputs' });
    this.hpaSelect = this.form.getByLabel('Live HorizontalPodAutoscaler');
    this.minReplicas = this.form.getByLabel('minReplicas', { exact: true });
    this.maxReplicas = this.form.getByLabel('maxReplicas', { exact: true });
    this.curve = this.form.getByLabel('Load curve');
    this.results = page.getByTestId('hpa-results');
    this.before = page.getByTestId('hpa-before');
    this.after = page.getByTestId('hpa-after');
    this.beforeDesired = page.getByTestId('hpa-before-desired');
    this.afterDesired = page.getByTestId('hpa-after-desired');
    this.beforeConditions = page.getByTestId('hpa-before-conditions');
    this.afterConditions = page.getByTestId('hpa-after-conditions');
    this.diff = page.getByTestId('hpa-diff');
    this.playback = page.getByTestId('playback-chart');
    this.assumptions = page.getByTestId('hpa-assumptions');
  }

  async goto(id?: string): Promise<void> {
    await this.page.goto(`/preview/hpa${id ? `?id=${encodeURIComponent(id)}` : ''}`);
  }

  diffRow(key: string): Locator {
    return this.diff.locator(`[data-testid="hpa-diff-row"][data-key="${key}"]`);
  }

  /** The number a "desired" cell shows (the tooltip's explanation lines are not part of it). */
  async desired(which: 'before' | 'after'): Promise<number> {
    const el = which === 'before' ? this.beforeDesired : this.afterDesired;
    const text = await el.evaluate((node) => node.firstChild?.textContent ?? '');
    return Number(text.trim());
  }
}
