import { packDataBytes, type MichelsonData } from '@taquito/michel-codec';
import { encodeExpr } from '@taquito/utils';
import { expect } from 'chai';
import { SandboxChain } from '../../framework/sandbox';
import { globalConstantAddress, globalConstantSize } from '../../framework/sandbox/Michelson';
import { readFixtureJson } from '../support/fixtures';
import { blocksOf, contentsOf, type Content } from './chainWalk';

/** The `expr…` hash of a value's binary Micheline: its PACK bytes without the leading 0x05 tag. */
function exprOfBinary(value: unknown): string {
  const packed = packDataBytes(value as MichelsonData).bytes;
  expect(packed.startsWith('05')).to.equal(true);
  return encodeExpr(packed.slice(2));
}

interface Registration {
  value: unknown;
  result: {
    status: string;
    global_address?: string;
    storage_size?: string;
    balance_updates?: { kind: string; change: string }[];
    errors?: { id: string }[];
  };
}

describe('sandbox global constants', function () {
  it('addresses and sizes follow the real chain (hangzhounet registration)', function () {
    const block = readFixtureJson<{ operations: { contents: Content[] }[][] }>(
      'tezos-rpc',
      'blocks',
      'trimmed',
      'hangzhounet-register_global_constant.json',
    );
    const real = block.operations
      .flat()
      .flatMap((op) => op.contents)
      .filter((c) => c.kind === 'register_global_constant');
    expect(real).to.have.length.greaterThan(0);
    for (const c of real) {
      const result = (c.metadata as { operation_result: Registration['result'] }).operation_result;
      expect(globalConstantAddress(c.value as never)).to.equal(result.global_address);
      expect(String(globalConstantSize(c.value as never))).to.equal(result.storage_size);
      // Storage is burnt at 250 mutez per byte.
      expect(result.balance_updates?.find((u) => u.kind === 'contract')?.change).to.equal(
        String(-BigInt(result.storage_size as string) * 250n),
      );
    }
  });

  it('a value is registered once; resubmissions fail with the node error', function () {
    const chain = new SandboxChain({ seed: 'constants-2', profile: 'tiny' });
    chain.bake(160);
    const registered = new Set<string>();
    let refused = 0;
    for (const c of contentsOf(blocksOf(chain))) {
      if (c.kind !== 'register_global_constant') continue;
      const result = (c.metadata as { operation_result: Registration['result'] }).operation_result;
      const address = exprOfBinary(c.value);
      if (result.status === 'applied') {
        expect(registered.has(address), `${address} registered twice`).to.equal(false);
        expect(result.global_address).to.equal(address);
        expect(result.storage_size).to.equal(String(packDataBytes(c.value as MichelsonData).bytes.length / 2 - 1 + 65));
        registered.add(address);
      } else if (result.errors?.some((e) => e.id === 'proto.025-PsUshuai.Expression_already_registered')) {
        expect(registered.has(address), `${address} refused but never registered`).to.equal(true);
        refused++;
      }
    }
    expect(registered.size).to.be.greaterThan(5);
    expect(refused).to.be.greaterThan(0);
  });
});
