import { encodeAddress, encodeOpHash } from '@taquito/utils';
import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { BlockDispatcher } from '../../../framework/indexer/BlockDispatcher';
import { quipuswapV3Adapter } from '../../../plugins/defi-dex/adapters/quipuswap-v3/adapter';
import { QuipuV3Pool } from '../../../plugins/defi-dex/adapters/quipuswap-v3/sim/sandbox';
import { carrierBlockOf, FA12_SCRIPT, watchingContext } from '../../indexer/support/templeGroups';
import { externalCall, fa12Transfer } from '../support/rpcGroups';
import { RecordingSink } from '../support/RecordingSink';

const label = (s: string) => createHash('sha256').update(s).digest('hex');
const kt1 = (name: string) => encodeAddress(`01${label(name).slice(0, 40)}00`);
const FACTORY = 'KT1JNNMMGyNNy36Zo6pcgRTMLUZyqRrttMZ4';
const POOL = kt1('v3 pool');
const X = kt1('token x');
const Y = kt1('token y');
const USER = 'tz1fQ6o1fximHquvgWTqcZ6TLGUQPAiEksss';
const OPERATOR = 'tz1TZzBSrAMS3e92KSNa3dV1MXsV7Ktuh3RF';
const TICKS = 901;
const POSITIONS = 902;

type Json = Record<string, unknown>;
const str = (s: string) => ({ string: s });
const int = (n: bigint | number) => ({ int: String(n) });
const pair = (...args: unknown[]): Json =>
  args.length === 2 ? { prim: 'Pair', args } : { prim: 'Pair', args: [args[0], pair(...args.slice(1))] };
/**
 * The pool storage in the sandbox model's layout (the real field names): liquidity, √price, tick, ticks, positions,
 * next id, constants.
 */
const storage = (liquidity: bigint, maps: [unknown, unknown] = [int(TICKS), int(POSITIONS)]) =>
  pair(
    int(liquidity),
    int(1n << 80n),
    int(0),
    maps[0],
    maps[1],
    int(1),
    pair(int(30), { prim: 'Left', args: [str(X)] }, { prim: 'Left', args: [str(Y)] }, str(FACTORY), int(10)),
  );
const code = new QuipuV3Pool({} as never, POOL, { address: X } as never, { address: Y } as never).code;

describe('defi-dex: QuipuSwap V3 pools deployed by the factory (hand-built groups)', () => {
  it('declares the pool at the factory`s origination, then follows it: supplies are the sums of its own token moves', async () => {
    const origination = {
      kind: 'origination',
      source: FACTORY,
      balance: '0',
      script: { code, storage: storage(0n, [[], []]) },
      result: {
        status: 'applied',
        originated_contracts: [POOL],
        consumed_milligas: '1000',
        storage_size: '1000',
        paid_storage_size_diff: '1000',
      },
    };
    const deploy = externalCall(
      USER,
      FACTORY,
      1,
      { parameters: { entrypoint: 'deploy_pool', value: int(0) }, storage: int(0) },
      0n,
      [origination],
    );
    const call = (
      n: number,
      signer: string,
      entrypoint: string,
      value: unknown,
      liquidity: bigint,
      internals: Json[],
      diff: unknown[] = [],
    ) =>
      externalCall(
        signer,
        POOL,
        n,
        { parameters: { entrypoint, value }, storage: storage(liquidity), lazy_storage_diff: diff },
        0n,
        internals,
      );
    const deadline = str('2030-01-01T00:00:00Z');
    const max = pair(int(10_000), int(10_000));
    // An operator of USER's position removes part of it: the position's owner comes from the positions diff.
    const positionDiff = [
      {
        kind: 'big_map',
        id: String(POSITIONS),
        diff: {
          action: 'update',
          updates: [
            {
              key_hash: 'exprtZBwZUeYYYfUs9B9Rg2ywHezVHnCCnmF9WsDQVrs582dSK63dC',
              key: int(0),
              value: pair(int(-10), int(10), str(USER), int(600)),
            },
          ],
        },
      },
    ];
    const groups = [
      [deploy],
      [
        call(
          2,
          USER,
          'set_position',
          pair(int(-10), int(10), int(-1048575), int(-1048575), int(1000), deadline, max, int(0)),
          1000n,
          [fa12Transfer(POOL, X, USER, POOL, 700n), fa12Transfer(POOL, Y, USER, POOL, 5000n)],
        ),
      ],
      [
        call(3, USER, 'x_to_y', pair(int(1000), deadline, int(1), str(USER), int(0)), 1000n, [
          fa12Transfer(POOL, X, USER, POOL, 1000n),
          fa12Transfer(POOL, Y, POOL, USER, 950n),
        ]),
      ],
      [
        call(
          4,
          OPERATOR,
          'update_position',
          pair(int(0), int(-400), str(OPERATOR), str(OPERATOR), deadline, pair(int(0), int(0)), int(0)),
          600n,
          [fa12Transfer(POOL, X, POOL, OPERATOR, 320n), fa12Transfer(POOL, Y, POOL, OPERATOR, 322n)],
          positionDiff,
        ),
      ],
    ];
    const block = carrierBlockOf(
      groups.map((contents, i) => ({ hash: encodeOpHash(label(`v3 group ${i}`)), contents })),
    );
    const d = new BlockDispatcher();
    const sink = new RecordingSink();
    quipuswapV3Adapter.register(d, sink);
    const script = { code, storage: storage(0n) };
    await d.dispatch(block, watchingContext(d, block, { [POOL]: script, [X]: FA12_SCRIPT, [Y]: FA12_SCRIPT }));

    const [declared, ...actions] = sink.calls;
    expect(
      declared.call === 'pool' && [
        declared.decl.entity,
        declared.decl.tokens,
        declared.decl.lp,
        declared.decl.feesBps,
        declared.decl.creator,
        declared.supply.reserves,
      ],
    ).to.deep.equal([
      'quipu_v3',
      [
        { standard: 'fa1.2', contract: X },
        { standard: 'fa1.2', contract: Y },
      ],
      null,
      '30',
      USER,
      [0n, 0n],
    ]);
    const pool = { contract: POOL, pairId: 0 };
    expect(
      actions.map((a) => (a.call === 'action' ? [a.pool, a.action, a.supply.reserves, a.supply.lpSupply] : a.call)),
    ).to.deep.equal([
      [
        pool,
        {
          kind: 'deposit',
          sender: USER,
          router: undefined,
          receiver: USER,
          owner: USER,
          amounts: [700n, 5000n],
          shares: 1000n,
        },
        [700n, 5000n],
        1000n,
      ],
      [
        pool,
        {
          kind: 'trade',
          sender: USER,
          router: undefined,
          receiver: USER,
          tokenIn: 0,
          tokenOut: 1,
          amountIn: 1000n,
          amountOut: 950n,
          fees: { lp: { amount: 3n, bps: '30', token: 0 } },
        },
        [1700n, 4050n],
        1000n,
      ],
      [
        pool,
        {
          kind: 'withdraw',
          sender: OPERATOR,
          router: undefined,
          receiver: OPERATOR,
          owner: USER,
          amounts: [320n, 322n],
          shares: 400n,
        },
        [1380n, 3728n],
        600n,
      ],
    ]);
  });
});
