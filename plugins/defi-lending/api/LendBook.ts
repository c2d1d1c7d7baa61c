import { ApiError } from '../../../framework';
// The DEX API's table reader, token book and pool-address parser serve lending markets unchanged: shared, not copied.
import { DexTable, TextRow } from '../../defi-dex/api/DexTable';
import { parsePoolAddress } from '../../defi-dex/api/PoolBook';
import { TokenBook, TokenObject } from '../../defi-dex/api/TokenBook';

type Side = 'debt' | 'collateral';

/** A market row with its two token objects: what every lending record needs for names, symbols and decimals. */
export class LendInfo {
  constructor(
    readonly row: TextRow,
    private readonly tokens: ReadonlyMap<string, TokenObject>,
  ) {}

  /** A row's market that has no market row: no names, no token objects. */
  static unknown(row: TextRow): LendInfo {
    return new LendInfo({ pool: row.pool, contract: row.contract, pool_id: row.pool_id, entity: row.entity, name: '', debt_token: row.debt_token, collateral_token: row.collateral_token }, new Map());
  }

  get address(): string {
    return this.row.pool!;
  }

  /** The token object as lending shows it: `contract`, no `ledger` (spec: lending token objects). */
  token(side: Side): Omit<TokenObject, 'ledger'> | null {
    const t = this.tokens.get(this.row[`${side}_token`] ?? '');
    if (!t) return null;
    const { ledger: _ledger, ...rest } = t;
    return rest;
  }

  /** Fields every lending event and position repeats: identity and the tokens as address, symbol, decimals. */
  get common(): Record<string, unknown> {
    const r = this.row;
    return {
      contract: r.contract,
      pool_id: Number(r.pool_id),
      name: r.name,
      entity: r.entity,
      debt_token: r.debt_token,
      collateral_token: r.collateral_token,
      debt_decimals: this.token('debt')?.decimals ?? 0,
      collateral_decimals: this.token('collateral')?.decimals ?? 0,
      debt_symbol: this.token('debt')?.symbol ?? '',
      collateral_symbol: this.token('collateral')?.symbol ?? '',
    };
  }
}

/** Reads lending markets by address with their tokens. */
export class LendBook {
  constructor(
    readonly pools: DexTable,
    private readonly tokens: TokenBook,
  ) {}

  /** The market named in a path (400 when malformed, 404 when unknown). */
  async require(raw: string): Promise<LendInfo> {
    const address = parsePoolAddress(raw);
    const info = (await this.infos([address])).get(address);
    if (!info) throw ApiError.notFound(`no such lending pool '${address}'`);
    return info;
  }

  async infos(addresses: Iterable<string>): Promise<Map<string, LendInfo>> {
    const wanted = [...new Set(addresses)];
    if (wanted.length === 0) return new Map();
    return this.withTokens(await this.pools.read(this.pools.query().whereIn('pool', wanted)));
  }

  async withTokens(rows: readonly TextRow[]): Promise<Map<string, LendInfo>> {
    const hints = new Map<string, { symbol: string; lp: boolean }>();
    for (const row of rows) {
      // Without a token registry the symbol is the contract address, as the recorder names markets.
      for (const key of [row.debt_token, row.collateral_token]) if (key) hints.set(key, { symbol: key.split('_')[0], lp: false });
    }
    const objects = await this.tokens.objects(hints);
    return new Map(rows.map((row) => [row.pool!, new LendInfo(row, objects)]));
  }
}
