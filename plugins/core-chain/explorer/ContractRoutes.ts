import {
  ApiError,
  ContractCode,
  entrypointList,
  ExplorerArgs,
  explorerObject,
  michelineFromHex,
  parseAddress,
  QueryArgs,
  RouteRegistry,
  typedef,
  typedValue,
  viewList,
  whereIndexedEquality,
} from '../../../framework';
import { BlockLookup } from './BlockLookup';
import { ChainTables } from './ChainTables';
import { ContractObjects, ContractRow } from './ContractObjects';
import { OperationPages } from './OperationPages';

/** `/explorer/contract/{hash}`, its calls, its script (types and entrypoints) and its current storage. */
export class ContractRoutes {
  private readonly current;
  private readonly history;

  constructor(
    tables: ChainTables,
    private readonly contracts: ContractObjects,
    private readonly pages: OperationPages,
    private readonly blocks: BlockLookup,
  ) {
    this.current = tables.rows('contract', ['storage']);
    this.history = tables.rows('storage', ['storage', 'height']);
  }

  register(r: RouteRegistry): void {
    explorerObject(
      r,
      '/explorer/contract/:hash',
      'GetContract',
      async (ctx) => {
        const args = new ExplorerArgs(ctx.query, ['meta']);
        const [object] = await this.contracts.objects([await this.contract(ctx.params.hash)], args.flag('meta'));
        return { body: object };
      },
      { summary: 'a contract', params: { table: 'contract', columns: { hash: 'address' } } },
    );

    explorerObject(
      r,
      '/explorer/contract/:hash/calls',
      'ListContractCalls',
      async (ctx) => {
        const contract = await this.contract(ctx.params.hash);
        checkEntrypoints(ctx.query, ContractCode.fromScriptHex(contract.script));
        // By account id: the op table indexes its receivers by id (receiver_id), not by address.
        const id = Number(contract.account_id);
        const body = await this.pages.list(ctx.query, {
          scopes: [(q, order) => whereIndexedEquality(q.where({ is_contract: true }), 'receiver_id', id, order)],
          heightBounds: true,
        });
        return { body };
      },
      { summary: 'the calls of a contract', params: { table: 'contract', columns: { hash: 'address' } } },
    );

    explorerObject(
      r,
      '/explorer/contract/:hash/script',
      'GetContractScript',
      async (ctx) => {
        const args = new ExplorerArgs(ctx.query, ['prim']);
        const contract = await this.contract(ctx.params.hash);
        const code = scriptOf(contract);
        const prim = args.flag('prim');
        const views = viewList(code.code, prim);
        // The code (parameter, storage and code sections) and origination storage always; prim=1 adds
        // the Micheline of each entrypoint's and view's types.
        const body = {
          script: code.script,
          storage_type: typedef(code.storageType, 'storage'),
          entrypoints: Object.fromEntries(entrypointList(code.parameterType, prim).map((e) => [e.name, e])),
          ...(views.length > 0 ? { views } : {}),
        };
        // The code never changes after origination.
        return { body, height: Number(contract.first_seen) };
      },
      { summary: 'the script of a contract', params: { table: 'contract', columns: { hash: 'address' } } },
    );

    explorerObject(
      r,
      '/explorer/contract/:hash/storage',
      'GetContractStorage',
      async (ctx) => {
        const args = new ExplorerArgs(ctx.query, ['prim', 'block']);
        const contract = await this.contract(ctx.params.hash);
        const code = scriptOf(contract);
        const block = args.get('block');
        if (block === undefined) {
          const row = await this.current.first(this.current.query().where('address', contract.address));
          const prim = michelineFromHex(row?.storage);
          if (prim === undefined) throw ApiError.notFound('no storage');
          return { body: storageBody(code, prim, args.flag('prim')) };
        }
        // The storage the contract had after that block: its latest change at or below it.
        const height = await this.blocks.heightParam('block', block);
        if (height > (await this.blocks.headHeight())) throw ApiError.notFound(`no such block '${block}'`);
        const q = this.history.query().where('contract', contract.address).where('height', '<=', height);
        const row = await this.history.first(
          q.orderBy([
            { column: 'height', order: 'desc' },
            { column: 'row_id', order: 'desc' },
          ]),
        );
        const prim = michelineFromHex(row?.storage);
        if (prim === undefined) throw ApiError.notFound(`no storage of this contract at block ${height}`);
        return { body: storageBody(code, prim, args.flag('prim')), height };
      },
      { summary: 'the storage of a contract', params: { table: 'contract', columns: { hash: 'address' } } },
    );
  }

  private async contract(raw: string): Promise<ContractRow> {
    const address = parseAddress(raw);
    const rows = this.contracts.rows;
    const contract = await rows.first(rows.query().where('address', address));
    if (!contract) throw ApiError.notFound('no such contract');
    return contract;
  }
}

function storageBody(code: ContractCode, prim: unknown, withPrim: boolean): Record<string, unknown> {
  const value = typedValue(code.storageType, prim);
  return withPrim ? { value, prim } : { value };
}

/** Rollups and contracts whose origination the index did not see (migrations) have no code. */
function scriptOf(contract: ContractRow): ContractCode {
  const code = ContractCode.fromScriptHex(contract.script);
  if (!code) throw ApiError.notFound('no script');
  return code;
}

/** Entrypoint filters must name entrypoints the contract has (when its code is known): a typo is the caller's 400. */
function checkEntrypoints(query: QueryArgs, code: ContractCode | undefined): void {
  if (!code) return;
  const known = new Set(entrypointList(code.parameterType, false).map((e) => e.name));
  for (const [key, value] of Object.entries(query)) {
    if (!/^entrypoint(\.(eq|ne|in|nin))?$/.test(key) || value === undefined) continue;
    for (const name of (Array.isArray(value) ? value : [value]).flatMap((v) => v.split(','))) {
      if (!known.has(name) && name !== 'default') throw ApiError.malformedId(`missing entrypoint '${name}'`);
    }
  }
}
