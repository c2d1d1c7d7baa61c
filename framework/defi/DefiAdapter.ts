import type { GroupMatch, HandlerRegistry, MatchedStep } from '../index';

/**
 * What the adapters of every DeFi area (DEX, farms, lending) share: how a token is named by its contract
 * and where an action was seen. Each area's adapter contract (DexAdapter, FarmAdapter, LendingAdapter) builds on it.
 */

/** A token of a pool as the contract names it. */
export type DefiTokenRef =
  | { readonly standard: 'tez' }
  | { readonly standard: 'fa1.2'; readonly contract: string }
  | { readonly standard: 'fa2'; readonly contract: string; readonly tokenId: bigint };

/** Where an action was seen: the group match and the step of the pool call (hash, counter, fees, position). */
export interface DefiOrigin {
  readonly match: GroupMatch;
  readonly step: MatchedStep;
}

/** A protocol adapter of a DeFi area: decodes its protocol's operations and reports them to the area's sink. */
export interface DefiAdapter<Sink> {
  /** Folder name; also the `watch:` config prefix (`<plugin>:<name>`). */
  readonly name: string;
  /** Entity labels this adapter produces. */
  readonly entities: readonly string[];
  register(r: HandlerRegistry, sink: Sink): void;
}
