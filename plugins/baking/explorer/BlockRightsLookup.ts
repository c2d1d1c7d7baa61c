import {
  blockRight,
  type BlockRight,
  type BlockRightsSource,
  type Catalog,
  type Database,
  type TableDef,
} from '../../../framework';
import { asBits, hasBit } from '../Bitset';

type Raw = Record<string, unknown>;

/**
 * The rights at a block from the rights bitsets of its cycle (bit = position in the cycle):
 * - round-0 baking rights: used when their holder baked the block, lost when someone else did;
 * - a block baked without a round-0 right is a stolen baking right of its baker at its round;
 * - attestation rights: used when an attestation of that level was included, missed when the next
 *   block is indexed without it (the head's attestations are not in yet);
 * - seed flags on baking rights: the holder committed to a seed nonce in this block, and revealed it
 *   (null on rows from before seeds were tracked; attestation rights have none).
 * Unknown (null) when the node never told the cycle's rights.
 */
/** A baking right's seed duty at a position of the cycle: null when the row predates seed tracking. */
function seedFlags(r: Raw, pos: number): Pick<BlockRight, 'is_seed_required' | 'is_seed_revealed'> {
  const required = asBits(r.seeds_required);
  if (!required) return { is_seed_required: null, is_seed_revealed: null };
  return { is_seed_required: hasBit(required, pos), is_seed_revealed: hasBit(asBits(r.seeds_revealed), pos) };
}

export class BlockRightsLookup implements BlockRightsSource {
  private readonly rights: TableDef;
  private readonly blocks: TableDef;

  constructor(
    private readonly db: Database,
    catalog: Catalog,
  ) {
    this.rights = catalog.require('rights');
    this.blocks = catalog.require('block');
  }

  async rightsAt(heights: readonly number[]): Promise<Map<number, BlockRight[]>> {
    const out = new Map<number, BlockRight[]>();
    const knex = this.db.reader;
    const blocks: Raw[] = await knex
      .withSchema(this.blocks.schema)
      .from(this.blocks.storage)
      .whereIn('height', [...heights])
      .where('is_orphan', false)
      .select('height', 'cycle', 'round', 'baker');
    const head = Number(
      (await knex.withSchema(this.blocks.schema).from(this.blocks.storage).max({ h: 'height' }).first())?.h ?? 0,
    );
    for (const b of blocks) {
      const height = Number(b.height);
      const rows: Raw[] = await knex
        .withSchema(this.rights.schema)
        .from(this.rights.storage)
        .where('cycle', Number(b.cycle))
        .orderBy('address')
        .select(
          'address',
          'height',
          'baking_rights',
          'endorsing_rights',
          'blocks_baked',
          'blocks_endorsed',
          'seeds_required',
          'seeds_revealed',
        );
      if (!rows.some((r) => r.baking_rights !== null)) continue;
      const pos = height - Number(rows[0].height);
      const rights: BlockRight[] = [];
      const holders = rows.filter((r) => hasBit(asBits(r.baking_rights), pos));
      for (const r of holders) {
        const used = hasBit(asBits(r.blocks_baked), pos);
        rights.push(
          blockRight('baking', String(r.address), 0, { is_used: used, is_lost: !used, ...seedFlags(r, pos) }),
        );
      }
      const baker = rows.find((r) => hasBit(asBits(r.blocks_baked), pos));
      if (baker && !holders.includes(baker))
        rights.push(
          blockRight('baking', String(baker.address), Number(b.round), {
            is_used: true,
            is_stolen: true,
            ...seedFlags(baker, pos),
          }),
        );
      for (const r of rows.filter((x) => hasBit(asBits(x.endorsing_rights), pos))) {
        const used = hasBit(asBits(r.blocks_endorsed), pos);
        rights.push(
          blockRight('endorsing', String(r.address), null, { is_used: used, is_missed: !used && height < head }),
        );
      }
      out.set(height, rights);
    }
    return out;
  }
}
