import type { NormalizedBlock } from '../../chain';
import { ContractTypes } from '../../michelson/ContractTypes';
import type { Logger } from '../../util/Logger';
import type { UndecodableValues } from '../UndecodableValues';
import { KnownCodes } from './KnownCode';
import { WatchList } from './WatchList';

/** How many contracts' types stay cached (types of big contracts are large; hot ones stay). */
const CACHE_SIZE = 5000;

/**
 * Where adapters learn a contract's types (to match signatures and decode calls): a watch that stored
 * them, an origination in the block being indexed, or the node (`context/contracts/{address}/script`
 * as of that block). Without a node and without an indexed origination they are those of the plugins'
 * shipped version (`KnownCode`) that the contract's storage and calls in the block fit, if one does; a script
 * of an unknown build of a shipped family is recorded (`KnownCodes.checkBuild`).
 */
export class ContractDirectory {
  private readonly cache = new Map<string, ContractTypes>();
  /** Contracts the node had no script for, asked again only in another block. */
  private missing = { level: -1, addresses: new Set<string>() };

  readonly known: KnownCodes;

  constructor(
    readonly watches: WatchList,
    log?: Logger,
    undecodable?: UndecodableValues,
  ) {
    this.known = new KnownCodes(log, undecodable);
  }

  async types(
    address: string,
    block: NormalizedBlock,
    node: (path: string) => Promise<unknown>,
  ): Promise<ContractTypes | undefined> {
    if (!address.startsWith('KT1')) return undefined;
    const known = this.watches.types(address) ?? this.cached(address);
    if (known) return known;
    if (this.missing.level !== block.level) this.missing = { level: block.level, addresses: new Set() };
    if (this.missing.addresses.has(address)) return undefined;
    const script =
      originatedIn(block, address) ?? ContractTypes.fromScript(await node(`context/contracts/${address}/script`));
    if (script) this.known.checkBuild(address, script);
    const types = script ?? this.known.fitting(address, block);
    if (types) this.remember(address, types);
    else this.missing.addresses.add(address);
    return types;
  }

  private cached(address: string): ContractTypes | undefined {
    const t = this.cache.get(address);
    if (t) {
      // Most recently used last: the first key is the one to evict.
      this.cache.delete(address);
      this.cache.set(address, t);
    }
    return t;
  }

  private remember(address: string, types: ContractTypes): void {
    this.cache.set(address, types);
    if (this.cache.size > CACHE_SIZE) this.cache.delete(this.cache.keys().next().value!);
  }
}

/** The types of a contract originated in this block (applied), from its origination's script. */
export function originatedIn(block: NormalizedBlock, address: string): ContractTypes | undefined {
  const op = block.operations.find(
    (o) => o.type === 'origination' && o.status === 'applied' && o.originatedContracts.includes(address),
  );
  return op ? ContractTypes.fromScript(op.script) : undefined;
}
