import type { Locator, Page } from '@playwright/test';

/** The Triage page `/triage`: filters, the queue of problem groups, an expanded group's autoscalers. */
export class TriagePage {
  readonly heading: Locator;
  readonly search: Locator;
  readonly kind: Locator;
  readonly cluster: Locator;
  readonly namespace: Locator;
  readonly health: Locator;
  readonly reason: Locator;
  readonly sort: Locator;
  readonly queue: Locator;
  readonly groups: Locator;
  readonly members: Locator;
  readonly summary: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { level: 1, name: 'Triage' });
    const form = page.getByRole('search', { name: 'Filter the triage queue' });
    this.search = form.getByLabel('Search');
    this.kind = form.getByLabel('Kind');
    this.cluster = form.getByLabel('Cluster');
    this.namespace = form.getByLabel('Namespace');
    this.health = form.getByLabel('Health');
    this.reason = form.getByLabel('Reason');
    this.sort = form.getByLabel('Sort');
    this.queue = page.getByTestId('triage-queue');
    this.groups = page.getByTestId('problem-group');
    this.members = page.getByTestId('group-member');
    this.summary = page.getByTestId('triage-summary');
  }

  async goto(query = ''): Promise<void> {
    await this.page.goto(`/triage${query}`);
  }

  /** The group whose likely cause mentions `text`. */
  groupWithCause(text: string | RegExp): Locator {
    return this.groups.filter({ has: this.page.getByTestId('likely-cause').filter({ hasText: text }) });
  }

  groupByKey(key: string): Locator {
    return this.page.locator(`[data-testid="problem-group"][data-group-key="${key}"]`);
  }

  /** The disclosure button that expands a group (its title). */
  toggle(group: Locator): Locator {
    return group.getByRole('heading', { level: 2 }).getByRole('button');
  }
}
