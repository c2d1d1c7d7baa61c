import { injectable } from 'tsyringe';
import { HandlerRegistry, PluginManifest, TzidxPlugin } from '../../framework';
import { LENDING_ADAPTERS } from './adapters';
import { LendingRecorder } from './core/LendingRecorder';

/** Lending pools, their events and positions. Its tables are declared in tables.yaml under `defi-lending`. */
@injectable()
export class DefiLendingPlugin implements TzidxPlugin {
  static readonly manifest: PluginManifest = {
    name: 'defi-lending',
    description: 'Lending pools, their events and positions',
    dependsOn: ['core-chain'],
  };

  /** Every adapter decodes its protocol's calls and reports them to one recorder. */
  handlers(r: HandlerRegistry): void {
    const recorder = new LendingRecorder();
    for (const adapter of LENDING_ADAPTERS) adapter.register(r, recorder);
  }
}
