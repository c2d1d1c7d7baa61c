import { encodeOpHash } from '@taquito/utils';
import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { BlockDispatcher } from '../../../framework/indexer/BlockDispatcher';
import { SandboxChain } from '../../../framework/sandbox';
import type { ContractModel } from '../../../framework/sandbox/extension';
import { SPICY_ROUTER } from '../../../plugins/defi-dex/adapters/spicy/types';
import { SPICY_LABELS } from '../../../plugins/defi-dex/adapters/spicy/sim/sandbox';
import { spicyAdapter } from '../../../plugins/defi-dex/adapters/spicy/adapter';
import { carrierBlockOf, watchingContext } from '../../indexer/support/templeGroups';
import { RecordingSink } from '../support/RecordingSink';
import { externalCall } from '../support/rpcGroups';

const hash = (s: string) => encodeOpHash(createHash('sha256').update(s).digest('hex'));

describe('defi-dex: a Spicy pair originated by the router is claimed at its origination', () => {
  it('declares the pair with its creator and the storage it was originated with, before any call', async () => {
    // The pair's code and storage: the sandbox model's, whose types are a Spicy pair's.
    const chain = new SandboxChain({ seed: 'spicy-origination', profile: 'tiny' });
    chain.bakeTo(1);
    const model = chain.contracts.require<ContractModel>(chain.contracts.derivedAddress(SPICY_LABELS.ctezKusd));
    const storage = model.storage() as {
      prim: string;
      args: Array<{ prim: string; args: Array<{ string?: string; bytes?: string }> } | { int: string }>;
    };
    const pairAddress = 'KT1Xk1XJD2M8GYFUXRN12oMvDAysECDWwGdS';
    const user = 'tz1bGsPjPqEscSKoFMDJ1dz6Nwcjrw9Yp5wU';
    const origination = {
      kind: 'origination',
      source: SPICY_ROUTER,
      nonce: 0,
      balance: '0',
      script: { code: model.code, storage },
      result: {
        status: 'applied',
        originated_contracts: [pairAddress],
        consumed_milligas: '1000',
        storage_size: '1000',
        paid_storage_size_diff: '1000',
      },
    };
    const create = externalCall(user, SPICY_ROUTER, 1, {
      parameters: { entrypoint: 'default', value: { prim: 'Unit' } },
      storage: { int: '0' },
    });
    (create.metadata as { internal_operation_results: unknown[] }).internal_operation_results = [origination];
    const block = carrierBlockOf([{ hash: hash('spicy pair creation'), contents: [create] }]);
    const d = new BlockDispatcher();
    const sink = new RecordingSink();
    spicyAdapter.register(d, sink);
    await d.dispatch(block, watchingContext(d, block, {}));

    // The oracle: the raw storage's fields (token0, token1, reserve0, reserve1, total_supply, …).
    const fields: unknown[] = [];
    let node: unknown = storage;
    while ((node as { prim?: string }).prim === 'Pair') {
      const args = (node as { args: unknown[] }).args;
      fields.push(...args.slice(0, -1));
      node = args[args.length - 1];
    }
    const int = (v: unknown) => BigInt((v as { int: string }).int);
    const decls = sink.calls.filter((c) => c.call === 'pool');
    expect(decls).to.have.length(1);
    const decl = decls[0].call === 'pool' ? decls[0] : undefined;
    expect([
      decl?.decl.contract,
      decl?.decl.entity,
      decl?.decl.creator,
      decl?.decl.lp,
      decl?.decl.feesBps,
    ]).to.deep.equal([pairAddress, 'spicy_v1', user, { standard: 'fa2', contract: pairAddress, tokenId: 0n }, '30']);
    expect(decl?.decl.tokens.map((tk) => tk.standard)).to.deep.equal(['fa1.2', 'fa1.2']);
    expect([...(decl?.supply.reserves ?? []), decl?.supply.lpSupply]).to.deep.equal([
      int(fields[2]),
      int(fields[3]),
      int(fields[4]),
    ]);
  });
});
