import { singleton } from 'tsyringe';

/** What the API tells clients about the chain it serves (response headers, status); set by the indexer. */
@singleton()
export class ChainState {
  height?: number;
  networkId?: string;
  protocol?: string;

  update(patch: Partial<Pick<ChainState, 'height' | 'networkId' | 'protocol'>>): void {
    Object.assign(this, patch);
  }
}
