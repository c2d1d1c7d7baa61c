import type { AccountMetadataSource } from '../../framework';
import { ChainMetadata } from './ChainMetadata';
import { contentOf, MetadataEntries } from './MetadataEntries';

/** meta=1 for explorer objects: each address's API entry, with a contract's TZIP-16 document as `tz16`. */
export class MetadataLookup implements AccountMetadataSource {
  constructor(
    private readonly entries: MetadataEntries,
    private readonly chain: ChainMetadata,
  ) {}

  async lookup(addresses: readonly string[]): Promise<Map<string, object>> {
    const [stored, tz16] = await Promise.all([this.entries.forAddresses(addresses), this.chain.tz16Many(addresses)]);
    const out = new Map<string, object>();
    for (const [address, doc] of tz16) out.set(address, { address, tz16: doc });
    for (const e of stored) out.set(e.address, { ...(out.get(e.address) ?? {}), address: e.address, ...contentOf(e) });
    return out;
  }
}
