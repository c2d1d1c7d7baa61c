import { expect } from 'chai';
import { SandboxChain } from '../../framework/sandbox';
import { builtinSandboxExtensions } from '../../framework/sandbox/SandboxExtension';
import {
  CallContext,
  Fa12Token,
  ManagerGroupBuilder,
  type ManagerContent,
  pair,
  pickSource,
  type SandboxExtension,
  str,
  int,
} from '../../framework/sandbox/extension';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Every operation (contents and internal results) of a chain's blocks, with the block level. */
function operations(chain: SandboxChain): Array<{ level: number; op: Json }> {
  const out: Array<{ level: number; op: Json }> = [];
  for (let l = 1; l <= chain.headLevel; l++) {
    const block = chain.block(l) as Json;
    for (const group of block.operations[3]) {
      for (const c of group.contents) {
        out.push({ level: l, op: c });
        for (const i of c.metadata.internal_operation_results ?? []) out.push({ level: l, op: i });
      }
    }
  }
  return out;
}

/** A protocol simulator written the way a plugin writes one: one token and its transfers. */
const TEST_EXTENSION: SandboxExtension = {
  name: 'test-token',
  register(contracts, book, errorPrefix) {
    contracts.add(new Fa12Token(book, contracts.derivedAddress('test-token'), 'TST', 0, errorPrefix), 'Test token');
  },
  bootstrap(g) {
    const token = g.contracts.require<Fa12Token>(g.contracts.derivedAddress('test-token'));
    g.originate(token, 0n, (diff) => {
      token.init(diff);
      for (const h of g.holders) token.mint(diff, h, 1_000n);
    });
  },
  traffic: [
    {
      name: 'test:token',
      weight: 1,
      build(ctx) {
        const token = ctx.contracts.require<Fa12Token>(ctx.contracts.derivedAddress('test-token'));
        const from = pickSource(ctx, (a) => token.balanceOf(a.address) > 0n, false);
        if (!from) return undefined;
        const to = ctx.book.bakers[0].address;
        const content: ManagerContent = {
          kind: 'transaction',
          fields: {
            amount: '0',
            destination: token.address,
            parameters: { entrypoint: 'transfer', value: pair(str(from.address), str(to), int(1)) },
          },
          gasLimit: 2800,
          storageLimit: 100,
          apply: () => ({
            result: token.transfer(new CallContext(ctx, from.address), from.address, from.address, to, 1n)
              .result as Record<string, unknown>,
          }),
        };
        return new ManagerGroupBuilder(ctx).build(from.address, [content]);
      },
    },
  ],
};

describe('sandbox extensions', function () {
  it('the built-in plugins contribute the DeFi simulators, in name order', () => {
    expect(builtinSandboxExtensions().map((e) => e.name)).to.deep.equal(['defi-dex', 'defi-farm', 'defi-lending']);
  });

  it('without extensions the chain has no DeFi contracts, no subsidy, and no DeFi calls', () => {
    const chain = new SandboxChain({ seed: 'no-ext', profile: 'tiny', extensions: [] });
    chain.bake(40);
    // Users still originate registries and ticketers (the chain's own traffic).
    const roles = chain
      .knownContracts()
      .map((c) => c.role)
      .filter((r) => r !== 'registry' && r !== 'ticketer');
    expect(roles).to.deep.equal(['fa1.2', 'fa1.2', 'fa1.2']);
    for (let l = 2; l <= chain.headLevel; l++)
      expect((chain.block(l) as Json).metadata.implicit_operations_results).to.deep.equal([]);
    const called = new Set(operations(chain).map(({ op }) => op.destination));
    const defaults = new SandboxChain({ seed: 'no-ext', profile: 'tiny' });
    const defi = defaults.knownContracts().filter((c) => c.role !== 'fa1.2');
    expect(defi.length).to.be.greaterThan(0);
    for (const c of defi) expect(called.has(c.address), c.name).to.equal(false);
  });

  it('a chain can keep only some `defi` traffic sources by name: the others’ contracts are there, never called', () => {
    // The DEX's early providers' deposits (`openings`) run whatever traffic is kept (docs/sandbox.md): the
    // filter is shown on the extensions without them.
    const extensions = builtinSandboxExtensions().map(({ openings: _early, ...e }) => e);
    const chain = new SandboxChain({ seed: 'only-lb', profile: 'tiny', traffic: ['defi-dex:lb'], extensions });
    chain.bake(60);
    const lb = chain.knownContracts().find((c) => c.role === 'lb_cpmm')!;
    const others = chain.knownContracts().filter((c) => !['fa1.2', 'registry', 'ticketer', 'lb_cpmm'].includes(c.role));
    expect(others.length).to.be.greaterThan(2);
    // Calls users sent (internal operations, which carry a nonce, are the pools' own token moves).
    const sent = operations(chain)
      .filter(({ op }) => op.kind === 'transaction' && op.nonce === undefined)
      .map(({ op }) => op.destination);
    expect(sent.filter((d) => d === lb.address).length, 'LB calls').to.be.greaterThan(3);
    for (const c of others) expect(sent.includes(c.address), c.name).to.equal(false);
    expect(() => new SandboxChain({ seed: 'x', profile: 'tiny', traffic: ['defi-dex:nope'] })).to.throw(
      /unknown sandbox traffic defi-dex:nope/,
    );
  });

  it('a plugin’s simulator adds its contracts and traffic through the hook', () => {
    const chain = new SandboxChain({ seed: 'ext', profile: 'tiny', extensions: [TEST_EXTENSION] });
    chain.bake(60);
    const token = chain.knownContracts().find((c) => c.name === 'Test token');
    expect(token).to.not.equal(undefined);
    const genesis = (chain.block(1) as Json).metadata.implicit_operations_results as Json[];
    expect(genesis.some((r) => r.originated_contracts?.includes(token!.address))).to.equal(true);
    const calls = operations(chain).filter(
      ({ op }) => op.destination === token!.address && op.parameters?.entrypoint === 'transfer',
    );
    expect(calls.length).to.be.greaterThan(0);
  });
});
