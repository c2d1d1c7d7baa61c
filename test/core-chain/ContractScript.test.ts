import { createHash } from 'node:crypto';
import { packDataBytes, type MichelsonData } from '@taquito/michel-codec';
import { encodeExpr } from '@taquito/utils';
import { expect } from 'chai';
import { bumpCallStats, ContractScript } from '../../plugins/core-chain/ContractScript';
import type { Json } from '../chain/support/Json';
import { listFixtures, readFixtureJson } from '../support/fixtures';
import { decodeMicheline, encodeMicheline, featuresOf, PRIMITIVES } from '../../framework';

const contract = (...path: string[]): Json => readFixtureJson<Json>('tezos-rpc', 'context', 'contracts', ...path);

// Scripts recorded together with the node's `…/entrypoints` answer for the same contract.
const WITH_ENTRYPOINTS: Array<{ name: string; script: Json; entrypoints: Json }> = [
  {
    name: 'mainnet KT1LRboP…',
    script: contract('mainnet-KT1LRboPna9yQY9BrjtQYDS1DVxhKESK4VVd-script.json'),
    entrypoints: contract('mainnet-KT1LRboPna9yQY9BrjtQYDS1DVxhKESK4VVd-entrypoints.json'),
  },
  {
    name: 'airgap',
    script: contract('airgap-contract-script-optimized.json'),
    entrypoints: contract('airgap-entrypoints.json'),
  },
  {
    name: 'dexter',
    script: contract('legacy', 'mainnet-contract-dexter.json').script,
    entrypoints: contract('legacy', 'mainnet-entrypoints-dexter.json'),
  },
];

describe('core-chain ContractScript', () => {
  for (const c of WITH_ENTRYPOINTS) {
    it(`lists the ${c.name} entrypoints the node reports as leaves of the parameter type`, () => {
      const script = ContractScript.fromScript(c.script)!;
      const node: Record<string, Json> = c.entrypoints.entrypoints;
      // The node also lists named `or` branches; the leaves are what calls are counted against.
      const leaves = Object.entries(node)
        .filter(([, type]) => type.prim !== 'or')
        .map(([name]) => name);
      expect(script.entrypoints).to.include.members(leaves);
      for (const name of script.entrypoints) expect(node, name).to.have.property(name);
      expect(new Set(script.entrypoints).size).to.equal(script.entrypoints.length);
    });
  }

  it('encodes Micheline as the chain does: a registered constant’s address is the hash of the encoded value', () => {
    const block = readFixtureJson<Json>('tezos-rpc', 'blocks', 'trimmed', 'hangzhounet-register_global_constant.json');
    const content = block.operations[3][0].contents[0];
    expect(encodeExpr(encodeMicheline(content.value)!.toString('hex'))).to.equal(
      content.metadata.operation_result.global_address,
    );
  });

  it('writes types, code and data exactly as the codec packs them (no typed literals there)', () => {
    let sections = 0;
    for (const c of WITH_ENTRYPOINTS) {
      // parameter, storage, code (the instructions, `code[2]`) and the initial storage.
      for (const expr of [c.script.code[0], c.script.code[1], c.script.code[2], c.script.storage]) {
        expect(encodeMicheline(expr)!.toString('hex')).to.equal(packDataBytes(expr as MichelsonData).bytes.slice(2));
        sections++;
      }
    }
    expect(sections)
      .to.equal(WITH_ENTRYPOINTS.length * 4)
      .and.be.greaterThan(0);
  });

  it('hashes the code as the first 8 bytes of sha256 over its binary encoding', () => {
    const script = contract('mainnet-KT1LRboPna9yQY9BrjtQYDS1DVxhKESK4VVd-script.json');
    const expected = createHash('sha256').update(encodeMicheline(script.code)!).digest().subarray(0, 8).toString('hex');
    expect(ContractScript.fromScript(script)!.codeHash).to.equal(expected);
    expect(ContractScript.fromScript(script)!.ifaceHash).to.equal(
      createHash('sha256').update(encodeMicheline(script.code[0].args[0])!).digest().subarray(0, 8).toString('hex'),
    );
  });

  it('reads its own script column back to the same code and entrypoints', () => {
    const script = contract('legacy', 'mainnet-contract-dexter.json').script;
    const parsed = ContractScript.fromScript(script)!;
    const bytes = parsed.scriptBytes(encodeMicheline(script.storage))!;
    const back = ContractScript.fromBytes(bytes)!;
    expect(back.codeHash).to.equal(parsed.codeHash);
    expect(back.entrypoints).to.deep.equal(parsed.entrypoints);
    expect(ContractScript.fromBytes(bytes.subarray(0, 10))).to.equal(undefined);
  });

  it('recognises the token standards of known mainnet tokens', () => {
    // tzBTC, kUSD and the Sirius LQT token are FA1.2; KT1S95Dy… and KT1LRboP… are FA2; dexter is neither.
    for (const address of [
      'KT1PWx2mnDueood7fEmfbBDKx1D9BAnnXitn',
      'KT1K9gCRgaLRFKTErYt1wVxA3Frb9FjasjTV',
      'KT1AafHA1C1vk959wvHWBispY9Y2f3fxBUUo',
    ]) {
      expect(ContractScript.fromScript(contract('bcdhub', `script-${address}.json`))!.interfaces, address).to.equal(
        'FA1.2',
      );
    }
    expect(
      ContractScript.fromScript(contract('bcdhub', 'script-KT1S95Dyj2QrJpSnAbHRUSUZr7DhuFqssrog.json'))!.interfaces,
    ).to.equal('FA2');
    expect(
      ContractScript.fromScript(contract('mainnet-KT1LRboPna9yQY9BrjtQYDS1DVxhKESK4VVd-script.json'))!.interfaces,
    ).to.equal('FA2');
    expect(ContractScript.fromScript(contract('legacy', 'mainnet-contract-dexter.json').script)!.interfaces).to.equal(
      '',
    );
  });

  it('names features by the primitives the code uses', () => {
    const dexter = contract('legacy', 'mainnet-contract-dexter.json').script.code;
    const text = JSON.stringify(dexter);
    expect(featuresOf(dexter).split(',').includes('set_delegate')).to.equal(text.includes('"SET_DELEGATE"'));
    expect(featuresOf(dexter).split(',').includes('transfer_tokens')).to.equal(text.includes('"TRANSFER_TOKENS"'));
    expect(featuresOf(dexter).split(',').includes('lambda')).to.equal(/"(LAMBDA|EXEC|APPLY)"/.test(text));
  });

  it('maps a call of `default` on a single-entrypoint contract to id 0 and unknown names to null', () => {
    const single = ContractScript.fromScript({
      code: [
        { prim: 'parameter', args: [{ prim: 'unit' }] },
        { prim: 'storage', args: [{ prim: 'unit' }] },
        { prim: 'code', args: [[]] },
      ],
    })!;
    expect(single.entrypoints).to.deep.equal(['default']);
    expect(single.entrypointId(undefined)).to.equal(0);
    const dexter = ContractScript.fromScript(contract('legacy', 'mainnet-contract-dexter.json').script)!;
    expect(dexter.entrypointId('xtzToToken')).to.equal(dexter.entrypoints.indexOf('xtzToToken'));
    expect(dexter.entrypointId('no_such_entrypoint')).to.equal(null);
  });

  it('reads binary Micheline back to the node JSON of every recorded script and storage', () => {
    const samples: unknown[] = WITH_ENTRYPOINTS.flatMap((c) => [c.script.code, c.script.storage]);
    for (const file of listFixtures('tezos-rpc', 'context', 'contracts', 'bcdhub').filter((f) => f.includes('script-')))
      samples.push(readFixtureJson<Json>(file).code);
    for (const file of listFixtures('tezos-rpc', 'blocks')) {
      const block = readFixtureJson<Json>(file);
      for (const c of (block.operations ?? []).flat().flatMap((g: Json) => g.contents ?? []))
        if (c.kind === 'origination' && c.script?.code) samples.push(c.script.code, c.script.storage);
    }
    expect(samples.length).to.be.greaterThan(20);
    for (const expr of samples) expect(decodeMicheline(encodeMicheline(expr)!)).to.deep.equal(expr);
    expect(() => decodeMicheline(Buffer.from('0200000010', 'hex'))).to.throw(/ends early/);
    expect(() => decodeMicheline(Buffer.from('0300ff', 'hex'))).to.throw(/trailing/);
    expect(() => decodeMicheline(Buffer.from('03ff', 'hex'))).to.throw(/unknown primitive/);
  });

  it('decodes primitives with the codes the codec encodes them with', () => {
    // The codec checks instruction arities, so bare instructions are compared through real code (above).
    let checked = 0;
    PRIMITIVES.forEach((name, code) => {
      let bytes: string;
      try {
        bytes = packDataBytes({ prim: name } as MichelsonData).bytes;
      } catch {
        return;
      }
      checked++;
      expect(bytes, name).to.equal(`0503${code.toString(16).padStart(2, '0')}`);
    });
    expect(checked).to.be.greaterThan(40);
  });

  it('cannot encode primitives the codec does not know, and says so with undefined', () => {
    expect(encodeMicheline({ prim: 'NOT_A_PRIMITIVE' })).to.equal(undefined);
    expect(
      ContractScript.fromScript({
        code: [{ prim: 'parameter', args: [{ prim: 'unit' }] }, { prim: 'NOT_A_PRIMITIVE' }],
      })!.codeHash,
    ).to.equal(null);
    expect(encodeMicheline({ neither: 'int nor prim' })).to.equal(undefined);
  });

  it('counts calls per entrypoint in 4-byte big-endian counters', () => {
    let stats: Buffer = Buffer.alloc(0);
    stats = bumpCallStats(stats, 3, 2);
    stats = bumpCallStats(stats, 3, 2);
    stats = bumpCallStats(stats, 3, 0);
    expect(stats.toString('hex')).to.equal('00000001' + '00000000' + '00000002');
    expect(bumpCallStats(stats, 3, 7).equals(stats)).to.equal(true);
  });
});
