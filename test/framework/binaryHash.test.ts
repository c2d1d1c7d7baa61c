import { b58DecodeAndCheckPrefix, PrefixV2 } from '@taquito/utils';
import { expect } from 'chai';
import { ValueError } from '../../framework/catalog/types/ColumnType';
import { columnType } from '../../framework/catalog/types/ColumnTypes';
import { readFixtureJson } from '../support/fixtures';

// Why: operation hashes are stored as their 32 raw bytes and named in base58check again at the edge
// (BinaryHashType, its own codec); every hash of a real mainnet block (the chain's own texts) must come
// back as it went in, its bytes be the payload an independent codec (taquito) decodes, and byte order be
// the text order range filters compared before.
describe('column types: hash(operation) as raw bytes', function () {
  const block = readFixtureJson<{ operations: Array<Array<{ hash: string }>> }>(
    'tezos-rpc',
    'blocks',
    'mainnet',
    'mainnet-11680082.json',
  );
  const hashes = block.operations.flat().map((o) => o.hash);
  const type = columnType('hash(operation)');

  it('stores the payload bytes and names them again in every encoding', function () {
    expect(hashes).to.have.length.above(100);
    for (const hash of hashes) {
      const bytes = type.toDb(hash);
      expect(bytes).to.deep.equal(Buffer.from(b58DecodeAndCheckPrefix(hash, [PrefixV2.OperationHash], true)));
      expect(type.parse(hash)).to.deep.equal(bytes);
      const hex = Buffer.from(bytes as Buffer).toString('hex');
      expect(type.fromDb(bytes)).to.equal(hash);
      expect(type.json(hex, 'compact')).to.equal(JSON.stringify(hash));
      expect(type.csv(hex)).to.equal(hash);
      expect(type.objectValue(hex)).to.equal(hash);
    }
  });

  it('orders bytes as the texts', function () {
    const sorted = [...hashes].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const byBytes = [...hashes].sort((a, b) => Buffer.compare(type.parse(a) as Buffer, type.parse(b) as Buffer));
    expect(byBytes).to.deep.equal(sorted);
  });

  it('refuses texts that are no operation hash', function () {
    const [hash] = hashes;
    const changed = hash.slice(0, 10) + (hash[10] === 'a' ? 'b' : 'a') + hash.slice(11);
    for (const bad of [
      changed,
      hash.slice(0, -1),
      `${hash}1`,
      'BLockGenesisGenesisGenesisGenesisGenesisf79b5d1CoW2',
      'o0',
    ])
      expect(() => type.parse(bad), bad).to.throw(ValueError, /not a valid operation hash/);
    // Written hashes are the node's: their checksum is not checked again, but a wrong one never reads back.
    expect(type.fromDb(type.toDb(changed))).to.not.equal(changed);
    expect(() => type.toDb('o0')).to.throw(/not an operation hash/);
  });
});
