import { Parser } from '@taquito/michel-codec';
import { BlockNormalizer, NormalizedBlock } from '../../../framework/chain';
import type { RawBlock } from '../../../framework/chain/model/RawBlock';
import type { BlockDispatcher } from '../../../framework/indexer/BlockDispatcher';
import type { IndexContext } from '../../../framework/indexer/IndexContext';
import { SharedValues } from '../../../framework/indexer/SharedValues';
import { BatchState } from '../../../framework/indexer/BatchState';
import { readFixtureJson } from '../../support/fixtures';
import type { Json } from '../../chain/support/Json';

/** Group hashes of the temple recordings (from the origin repository's comments, see SOURCES.md). */
export const TEMPLE_HASHES: Readonly<Record<string, string>> = {
  'xtz-kusd-swap': 'opRnZMSuEoEETtUgxwqAuBCTEZR4nMWiBirXwab77MRtt2D7Cde',
  'temple-wallet-sirs-xtz-swap': 'opVPAJHe3cfNwgvM2FFpztvoUeM5HNPNV9ZQsimrnTZNjc65GZb',
  'wtz-arbitraging': 'onhvtQ4eYJCXNiyCGErbkGWSUMqA1zimNs1NgEnLxCNwzRgz3sV',
};

export function templeContents(name: string): Json[] {
  return readFixtureJson<Json[]>('defi', 'temple', `${name}.json`);
}

/**
 * A recorded Seoul mainnet block carrying the temple groups as its manager operations (the groups
 * have no block of their own; the normalizer reads them the same in any Oxford-and-later block).
 */
export function carrierBlock(names: readonly string[]): NormalizedBlock {
  return carrierBlockOf(names.map((n) => ({ hash: TEMPLE_HASHES[n], contents: templeContents(n) })));
}

/** The same carrier block around any manager groups (contents in RPC form with their metadata). */
export function carrierBlockOf(groups: ReadonlyArray<{ hash: string; contents: Json[] }>): NormalizedBlock {
  return new BlockNormalizer().normalize(carrierRawBlock(groups));
}

/** carrierBlockOf's block as the node sends it (what an indexer's block source gives). */
export function carrierRawBlock(groups: ReadonlyArray<{ hash: string; contents: Json[] }>): RawBlock {
  const b = readFixtureJson<Json>('tezos-rpc', 'blocks', 'mainnet', 'mainnet-11610082.json');
  const manager = groups.map((g) => ({
    protocol: b.protocol,
    chain_id: b.chain_id,
    hash: g.hash,
    branch: b.header.predecessor,
    contents: g.contents,
  }));
  return { ...b, operations: [b.operations[0], [], [], manager] } as RawBlock;
}

/** TZIP-7's FA1.2 parameter type, as the standard writes it, in a script with a nat storage. */
export const FA12_SCRIPT = {
  code: new Parser().parseScript(`
    parameter (or (or (or (pair %transfer (address :from) (pair (address :to) (nat :value)))
                          (pair %approve (address :spender) (nat :value)))
                      (or (pair %getAllowance (pair (address :owner) (address :spender)) (contract nat))
                          (pair %getBalance (address :owner) (contract nat))))
                  (pair %getTotalSupply unit (contract nat)));
    storage nat;
    code { CDR; NIL operation; PAIR }`),
  storage: { int: '0' },
};

/** The only part of the index context the dispatcher itself uses: the node, here a map of scripts. */
export function nodeContext(scripts: Readonly<Record<string, unknown>>, asked: string[] = []): IndexContext {
  const node = async (path: string): Promise<unknown> => {
    asked.push(path);
    const m = /^context\/contracts\/(KT1\w+)\/script$/.exec(path);
    return m ? scripts[m[1]] : undefined;
  };
  // A batch's shared values and state: adapters keep what a later handler of the batch needs there.
  return { node, shared: new SharedValues(), state: new BatchState() } as Pick<
    IndexContext,
    'node' | 'shared' | 'state'
  > as IndexContext;
}

/**
 * nodeContext for `block` whose watches go to the dispatcher's list, as the indexer's batches do (adapters that follow
 * contracts).
 */
export function watchingContext(
  d: BlockDispatcher,
  block: NormalizedBlock,
  scripts: Readonly<Record<string, unknown>>,
): IndexContext {
  const watches = d.contracts.watches;
  return {
    ...nodeContext(scripts),
    block,
    watch: async (address: string, role: string) => void watches.add({ address, role, height: block.level }),
    watched: (address: string) => watches.roles(address),
  } as Partial<IndexContext> as IndexContext;
}
