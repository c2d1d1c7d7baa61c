import { ApiError, CatalogRows, explorerObject, michelineFromHex, requireColumn, RouteRegistry, ValueError } from '../../../framework';
import { ChainTables } from './ChainTables';

/** `/explorer/constant/{expr…}`: a registered global constant with its value as Micheline. */
export class ConstantRoutes {
  private readonly rows: CatalogRows;

  constructor(tables: ChainTables) {
    this.rows = tables.rows('constant', ['row_id', 'address', 'creator_id', 'creator', 'height', 'time', 'storage_size', 'value', 'features']);
  }

  register(r: RouteRegistry): void {
    const addressType = requireColumn(this.rows.table, 'address').type;
    explorerObject(r, '/explorer/constant/:hash', 'GetConstant', async (ctx) => {
      const raw = ctx.params.hash;
      try {
        addressType.parse(raw);
      } catch (e) {
        if (e instanceof ValueError) throw ApiError.malformedId(`invalid exprhash '${raw}'`);
        throw e;
      }
      const row = await this.rows.first(this.rows.query().where('address', raw));
      if (!row) throw ApiError.notFound('no such constant');
      const body = {
        row_id: row.row_id,
        address: row.address,
        creator_id: row.creator_id,
        creator: row.creator,
        height: row.height,
        time: row.time,
        storage_size: row.storage_size,
        value: michelineFromHex(row.value as string | null) ?? null,
        features: typeof row.features === 'string' && row.features !== '' ? row.features.split(',') : [],
      };
      return { body, height: row.height as number };
    }, { summary: 'a global constant', params: { table: 'constant', columns: { hash: 'address' } } });
  }
}
