import path from 'node:path';
import type { Scenario } from './world/scenario';
import { generateScenario, loadScenario } from './world/scenario';
import { World } from './world/world';

export { World } from './world/world';
export type { Scenario } from './world/scenario';

export interface SimulatorOptions {
  /** A scenario name under sim/scenarios (e.g. `demo`), a YAML path, or a scenario object. */
  scenario?: string | Scenario;
  /** Generate a benchmark fleet instead: `clusters` × `hpasPerCluster`. */
  generate?: { clusters: number; hpasPerCluster: number };
  speed?: number;
  dataDir?: string;
  host?: string;
  adminPort?: number;
  retainedEvents?: number;
  log?: (line: string) => void;
}

/** Starts a simulated fleet and returns it running; `world.fleet.kubeconfigPath` is ready for kubectl. */
export async function startSimulator(options: SimulatorOptions = {}): Promise<World> {
  const scenario: Scenario = options.generate
    ? generateScenario(options.generate.clusters, options.generate.hpasPerCluster, options.speed ?? 1)
    : typeof options.scenario === 'object'
      ? options.scenario
      : loadScenario(options.scenario ?? 'demo');
  const dataDir = options.dataDir ?? path.resolve(process.cwd(), '.sim', scenario.name);
  return World.start({
    scenario,
    dataDir,
    speed: options.speed,
    host: options.host,
    adminPort: options.adminPort,
    retainedEvents: options.retainedEvents,
    log: options.log,
  });
}
