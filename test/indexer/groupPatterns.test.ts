import { encodeAddress } from '@taquito/utils';
import { expect } from 'chai';
import { BlockNormalizer } from '../../framework/chain';
import type { RawBlock } from '../../framework/chain/model/RawBlock';
import { BlockDispatcher } from '../../framework/indexer/BlockDispatcher';
import type { GroupMatch, PatternStep } from '../../framework/indexer/groups/GroupPattern';
import { readFixtureJson } from '../support/fixtures';
import type { Json } from '../chain/support/Json';
import { carrierBlock, FA12_SCRIPT, nodeContext, TEMPLE_HASHES, templeContents } from './support/templeGroups';

const ROUTER_3ROUTE = 'KT1V5XKmeypanMS9pR65REpqmVejWBZURuuT';
const QUIPU_V2_DEX = 'KT1J8Hr3BP8bpbfmgGpRPoC9nAMSYtStZG43';
const KUSD = 'KT1K9gCRgaLRFKTErYt1wVxA3Frb9FjasjTV';
const SPICY_ROUTER = 'KT1PwoZxyv4XkPEGnTqWYvjA1UYiPTgAGyqL';

/** The internal results of a content, numbered like the rows (1…n in execution order). */
function internals(content: Json): Json[] {
  return content.metadata.internal_operation_results ?? [];
}

describe('indexer: operation-group patterns', () => {
  it('matches router → pool → token transfer over internal operations and decodes the transfer', async () => {
    const block = carrierBlock(['xtz-kusd-swap']);
    const d = new BlockDispatcher();
    d.contracts.watches.add({ address: QUIPU_V2_DEX, role: 'dex', height: block.level });
    const seen: GroupMatch<'router' | 'pool' | 'out'>[] = [];
    d.onOperationGroup(
      [
        { name: 'router', destination: ROUTER_3ROUTE, entrypoint: 'execute' },
        { name: 'pool', destination: { role: 'dex' }, entrypoint: 'swap' },
        { name: 'out', destination: { interface: 'FA1.2' }, entrypoint: 'transfer' },
      ],
      (m) => void seen.push(m),
    );
    await d.dispatch(block, nodeContext({ [KUSD]: FA12_SCRIPT }));

    // Oracle from the recording: the first internal swap on the DEX, then the first kUSD transfer after it.
    const content = templeContents('xtz-kusd-swap')[0];
    const ints = internals(content);
    const swapAt = ints.findIndex((i) => i.destination === QUIPU_V2_DEX && i.parameters?.entrypoint === 'swap');
    const outAt = ints.findIndex(
      (i, n) => n > swapAt && i.destination === KUSD && i.parameters?.entrypoint === 'transfer',
    );
    expect(swapAt).to.be.greaterThan(-1);
    expect(outAt).to.be.greaterThan(swapAt);

    expect(seen).to.have.length(1);
    const m = seen[0];
    expect([m.hash, m.level, m.opL, m.opP, m.signer, m.status]).to.deep.equal([
      TEMPLE_HASHES['xtz-kusd-swap'],
      block.level,
      3,
      0,
      content.source,
      'applied',
    ]);
    expect(m.steps.router?.op.opI).to.equal(0);
    expect(m.steps.pool?.op.opI).to.equal(swapAt + 1);
    expect(m.steps.out?.op.opI).to.equal(outAt + 1);
    expect(m.steps.pool?.roles).to.deep.equal(['dex']);
    expect(m.steps.router?.amount).to.equal(BigInt(content.amount));
    expect(m.matched.map((s) => s.contract)).to.deep.equal([ROUTER_3ROUTE, QUIPU_V2_DEX, KUSD]);

    // The kUSD transfer decodes with the FA1.2 type: TZIP-7's type annotations name the fields.
    const raw = ints[outAt];
    const [from, [to, value]] = [raw.parameters.value.args[0], raw.parameters.value.args[1].args];
    expect(m.steps.out?.decoded).to.equal(true);
    expect(m.steps.out?.parameters).to.deep.equal({
      from: encodeAddress(from.bytes),
      to: encodeAddress(to.bytes),
      value: BigInt(value.int),
    });
    // The real storage is no nat: a value that does not fit its type stays Micheline.
    expect(m.steps.out?.storage).to.deep.equal(raw.result.storage);
    // A contract without known types keeps raw Micheline.
    expect(m.steps.pool?.decoded).to.equal(false);
    expect(m.steps.pool?.parameters).to.deep.equal(ints[swapAt].parameters.value);
  });

  it('finds every non-overlapping match of a group, with an optional step present or absent', async () => {
    const block = carrierBlock(['xtz-kusd-swap']);
    const d = new BlockDispatcher();
    const seen: GroupMatch<'swap' | 'refund'>[] = [];
    d.onOperationGroup(
      [
        { name: 'swap', destination: QUIPU_V2_DEX, entrypoint: 'swap' },
        { name: 'refund', destination: QUIPU_V2_DEX, entrypoint: 'refund', optional: true },
      ],
      (m) => void seen.push(m),
    );
    await d.dispatch(block, nodeContext({}));
    const swaps = internals(templeContents('xtz-kusd-swap')[0])
      .map((i, n) => ({ n: n + 1, i }))
      .filter(({ i }) => i.destination === QUIPU_V2_DEX && i.parameters?.entrypoint === 'swap');
    expect(swaps).to.have.length(2);
    expect(seen.map((m) => m.steps.swap?.op.opI)).to.deep.equal(swaps.map((s) => s.n));
    expect(seen.map((m) => m.steps.refund)).to.deep.equal([undefined, undefined]);
  });

  it('matches steps that are all internal (SpicySwap router → pair → token transfer)', async () => {
    const block = carrierBlock(['wtz-arbitraging']);
    const d = new BlockDispatcher();
    const seen: GroupMatch<'route' | 'pair' | 'pay'>[] = [];
    d.onOperationGroup(
      [
        { name: 'route', destination: SPICY_ROUTER, entrypoint: 'swap_exact_for_tokens' },
        { name: 'pair', entrypoint: 'start_swap' },
        { name: 'pay', entrypoint: 'transfer' },
      ],
      (m) => void seen.push(m),
    );
    await d.dispatch(block, nodeContext({}));
    const contents = templeContents('wtz-arbitraging');
    const c = contents.findIndex((x) => x.destination === SPICY_ROUTER);
    const ints = internals(contents[c]);
    const pairAt = ints.findIndex((i) => i.parameters?.entrypoint === 'start_swap');
    const payAt = ints.findIndex((i, n) => n > pairAt && i.parameters?.entrypoint === 'transfer');
    expect(seen).to.have.length(1);
    const { pair, pay } = seen[0].steps;
    expect([pair?.op.opC, pair?.op.opI, pair?.op.isInternal, pair?.contract, pair?.sender]).to.deep.equal([
      c,
      pairAt + 1,
      true,
      ints[pairAt].destination,
      SPICY_ROUTER,
    ]);
    expect([pay?.op.opI, pay?.contract, pay?.sender]).to.deep.equal([
      payAt + 1,
      ints[payAt].destination,
      ints[pairAt].destination,
    ]);
  });

  it('skips failed and backtracked groups unless asked, on a recorded mainnet block', async () => {
    const raw = readFixtureJson<Json>('tezos-rpc', 'blocks', 'legacy-pre-ithaca', 'mainnet', 'mainnet-1621538.json');
    const block = new BlockNormalizer().normalize(raw as RawBlock);
    const calls = (g: Json): boolean =>
      g.contents.some(
        (c: Json) =>
          c.parameters?.entrypoint === 'approve' || internals(c).some((i) => i.parameters?.entrypoint === 'approve'),
      );
    const applied = (g: Json): boolean =>
      g.contents.every((c: Json) => c.metadata.operation_result.status === 'applied');
    const groups: Json[] = raw.operations[3].filter(calls);
    const expectApplied = groups.filter(applied).map((g) => g.hash);
    const expectFailed = groups.filter((g) => !applied(g)).map((g) => g.hash);
    expect(expectApplied.length).to.be.greaterThan(0);
    expect(expectFailed.length).to.be.greaterThan(0);

    const d = new BlockDispatcher();
    const defaults: string[] = [];
    const all: Array<[string, string]> = [];
    d.onOperationGroup([{ name: 'approve', entrypoint: 'approve' }], (m) => void defaults.push(m.hash));
    d.onOperationGroup([{ name: 'approve', entrypoint: 'approve' }], (m) => void all.push([m.hash, m.status]), {
      includeFailed: true,
    });
    await d.dispatch(block, nodeContext({}));
    expect([...new Set(defaults)]).to.deep.equal(expectApplied);
    expect([...new Set(all.map(([h]) => h))]).to.deep.equal(groups.map((g) => g.hash));
    const failedStatuses = all.filter(([h]) => expectFailed.includes(h)).map(([, s]) => s);
    expect(failedStatuses.length).to.be.greaterThan(0);
    expect(failedStatuses).to.not.include('applied');
  });

  it('matches by interface only contracts whose code the node shows, and asks the node once per contract', async () => {
    const block = carrierBlock(['xtz-kusd-swap', 'temple-wallet-sirs-xtz-swap']);
    const d = new BlockDispatcher();
    const seen: string[] = [];
    d.onOperationGroup(
      [{ name: 'fa12', destination: { interface: 'FA1.2' }, entrypoint: 'transfer' }],
      (m) => void seen.push(m.steps.fa12!.contract),
    );
    const asked: string[] = [];
    await d.dispatch(block, nodeContext({ [KUSD]: FA12_SCRIPT }, asked));
    // Oracle: kUSD transfers in the recording (one match per transfer, each in its own non-overlapping match).
    const kusdTransfers = templeContents('xtz-kusd-swap')
      .flatMap((c) => [c, ...internals(c)])
      .filter((o) => o.destination === KUSD && o.parameters?.entrypoint === 'transfer');
    expect(seen).to.deep.equal(kusdTransfers.map(() => KUSD));
    expect(asked.length).to.equal(new Set(asked).size);
  });

  it('looks up no contract code for a group in which a required step has no operation of its kind and entrypoint', async () => {
    const names = ['xtz-kusd-swap', 'temple-wallet-sirs-xtz-swap'];
    const called = new Set(
      names
        .flatMap(templeContents)
        .flatMap((c) => [c, ...internals(c)])
        .map((o) => o.parameters?.entrypoint),
    );
    // Oracle from the recordings: FA1.2 transfers are called, `mint` never.
    expect(called.has('transfer')).to.equal(true);
    expect(called.has('mint')).to.equal(false);
    const dispatch = async (steps: PatternStep<'fa12' | 'mint'>[]): Promise<{ seen: number; asked: string[] }> => {
      const d = new BlockDispatcher();
      let seen = 0;
      d.onOperationGroup(steps, () => void seen++);
      const asked: string[] = [];
      await d.dispatch(carrierBlock(names), nodeContext({ [KUSD]: FA12_SCRIPT }, asked));
      return { seen, asked };
    };
    const transfer: PatternStep<'fa12'> = { name: 'fa12', destination: { interface: 'FA1.2' }, entrypoint: 'transfer' };
    const mint: PatternStep<'mint'> = { name: 'mint', entrypoint: 'mint' };
    // The transfers alone: the groups' contracts are looked up, and kUSD's transfers match.
    const alone = await dispatch([transfer]);
    expect(alone.seen).to.be.greaterThan(0);
    expect(alone.asked.length).to.be.greaterThan(0);
    // A required mint after them: no group can match, and no code is asked for.
    expect(await dispatch([transfer, mint])).to.deep.equal({ seen: 0, asked: [] });
    // The same mint as an optional step: the transfers match again.
    expect((await dispatch([transfer, { ...mint, optional: true }])).seen).to.equal(alone.seen);
  });

  it('rejects patterns without a required step or with duplicate names', () => {
    const d = new BlockDispatcher();
    expect(() => d.onOperationGroup([{ name: 'a', optional: true }], () => {})).to.throw(/required step/);
    expect(() => d.onOperationGroup([{ name: 'a' }, { name: 'a' }], () => {})).to.throw(/distinct names/);
  });
});
