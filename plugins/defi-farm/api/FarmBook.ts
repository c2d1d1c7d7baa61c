import { ApiError } from '../../../framework';
// The DEX API's table reader, token book and pool-address parser serve farms unchanged: shared, not copied.
import { DexTable, TextRow } from '../../defi-dex/api/DexTable';
import { parsePoolAddress } from '../../defi-dex/api/PoolBook';
import { TokenBook, TokenObject } from '../../defi-dex/api/TokenBook';

/** A farm row with its two token objects: what every farm record needs for names, symbols and decimals. */
export class FarmInfo {
  constructor(
    readonly row: TextRow,
    private readonly tokens: ReadonlyMap<string, TokenObject>,
  ) {}

  /** A row's farm that has no farm row: no names, no token objects. */
  static unknown(row: TextRow): FarmInfo {
    return new FarmInfo({ pool: row.pool, contract: row.contract, pool_id: row.pool_id, entity: row.entity, name: '', stake_token: row.stake_token, reward_token: row.reward_token, total_stake: '0' }, new Map());
  }

  get address(): string {
    return this.row.pool!;
  }

  /** The token object as farms show it: `contract`, no `ledger` (spec: farm token objects). */
  token(side: 'stake' | 'reward'): Omit<TokenObject, 'ledger'> | null {
    const t = this.tokens.get(this.row[`${side}_token`] ?? '');
    if (!t) return null;
    const { ledger: _ledger, ...rest } = t;
    return rest;
  }

  /** Fields every farm event and position repeats: identity and the tokens as address, symbol, decimals. */
  get common(): Record<string, unknown> {
    const r = this.row;
    return {
      contract: r.contract,
      pool_id: Number(r.pool_id),
      name: r.name,
      entity: r.entity,
      stake_token: r.stake_token,
      reward_token: r.reward_token,
      stake_symbol: this.token('stake')?.symbol ?? '',
      reward_symbol: this.token('reward')?.symbol ?? '',
      stake_decimals: this.token('stake')?.decimals ?? 0,
      reward_decimals: this.token('reward')?.decimals ?? 0,
    };
  }
}

/** Reads farms by address with their tokens. */
export class FarmBook {
  constructor(
    readonly farms: DexTable,
    private readonly tokens: TokenBook,
  ) {}

  /** The farm named in a path (400 when malformed, 404 when unknown). */
  async require(raw: string): Promise<FarmInfo> {
    const address = parsePoolAddress(raw);
    const info = (await this.infos([address])).get(address);
    if (!info) throw ApiError.notFound(`no such farm '${address}'`);
    return info;
  }

  async infos(addresses: Iterable<string>): Promise<Map<string, FarmInfo>> {
    const wanted = [...new Set(addresses)];
    if (wanted.length === 0) return new Map();
    return this.withTokens(await this.farms.read(this.farms.query().whereIn('pool', wanted)));
  }

  async withTokens(rows: readonly TextRow[]): Promise<Map<string, FarmInfo>> {
    const hints = new Map<string, { symbol: string; lp: boolean }>();
    for (const row of rows) {
      // Without a token registry the symbol is the contract address, as the recorder names farms.
      if (row.stake_token) hints.set(row.stake_token, { symbol: row.stake_token.split('_')[0], lp: false });
      if (row.reward_token) hints.set(row.reward_token, { symbol: row.reward_token.split('_')[0], lp: false });
    }
    const objects = await this.tokens.objects(hints);
    return new Map(rows.map((row) => [row.pool!, new FarmInfo(row, objects)]));
  }
}
