import type { Locator, Page } from '@playwright/test';

export interface AutoscalerRefParts {
  cluster: string;
  kind: 'HorizontalPodAutoscaler' | 'MachineAutoscaler' | 'FederatedHPA';
  namespace: string;
  name: string;
}

/** The autoscaler page `/autoscalers/{cluster}/{kind}/{namespace}/{name}`: header, shared-axis history, panels. */
export class AutoscalerPage {
  readonly root: Locator;
  readonly heading: Locator;
  readonly health: Locator;
  readonly problems: Locator;
  readonly history: Locator;
  readonly timeline: Locator;
  readonly eventLane: Locator;
  readonly replicasChart: Locator;
  readonly windowPicker: Locator;
  readonly explain: Locator;
  readonly machineTarget: Locator;
  readonly members: Locator;
  readonly metrics: Locator;
  readonly events: Locator;
  readonly kubectl: Locator;
  readonly yaml: Locator;

  constructor(readonly page: Page) {
    this.root = page.getByTestId('autoscaler-detail');
    this.heading = page.getByRole('heading', { level: 1 });
    this.health = page.getByTestId('autoscaler-health');
    this.problems = page.getByTestId('problems');
    this.history = page.getByTestId('history-panel');
    this.timeline = page.getByRole('group', { name: 'Condition timeline' });
    this.eventLane = page.getByRole('group', { name: 'Events lane' });
    this.replicasChart = page.getByTestId('replicas-chart');
    this.windowPicker = page.getByRole('group', { name: 'Time window' });
    this.explain = page.getByTestId('explain');
    this.machineTarget = page.getByTestId('machine-target');
    this.members = page.getByTestId('federation-members');
    this.metrics = page.getByTestId('metrics');
    this.events = page.getByTestId('events');
    this.kubectl = page.getByTestId('kubectl');
    this.yaml = page.getByTestId('yaml');
  }

  static href(ref: AutoscalerRefParts, query = ''): string {
    return `/autoscalers/${encodeURIComponent(ref.cluster)}/${ref.kind}/${ref.namespace}/${ref.name}${query}`;
  }

  async goto(ref: AutoscalerRefParts, query = ''): Promise<void> {
    await this.page.goto(AutoscalerPage.href(ref, query));
  }

  lane(type: string): Locator {
    return this.timeline.getByRole('group', { name: `${type} lane` });
  }

  /** Segments of one lane whose accessible name starts with `Type Status Reason`. */
  segment(type: string, status: 'True' | 'False' | 'Unknown', reason: string): Locator {
    return this.lane(type).getByRole('button', { name: new RegExp(`^${type} ${status} ${reason} `) });
  }

  windowButton(preset: string): Locator {
    return this.windowPicker.getByRole('button', { name: preset, exact: true });
  }
}
