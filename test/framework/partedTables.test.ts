import { expect } from 'chai';
import { loadCatalogFile } from '../../framework/catalog/CatalogLoader';
import { storedColumns } from '../../framework/catalog/CatalogModel';
import type { Row } from '../../framework/storage/BulkWriter';
import { partOf } from '../../framework/storage/PartedTables';

// Why: op's narrow tables store positions and power in 2 bytes and kind as a code of the known kinds; a row
// whose value they cannot hold (a position from 2^15 on, a kind of a later protocol, an Emmy reward) must
// stay in op_main with every value, and every other attestation row must go to op_attest.
describe('parted tables: the narrow table a written op row fits', () => {
  const op = loadCatalogFile('tables.yaml').require('op');
  const parts = op.parts!;
  /** A Tenderbake attestation as core-chain writes it: every column, the unused ones empty. */
  const attestation = (changes: Row): Row => {
    const row: Row = {};
    for (const c of storedColumns(op)) row[c.name] = c.type.name === 'bool' ? false : c.sparse ? 0n : null;
    Object.assign(row, { type: 'endorsement', status: 'applied', is_success: true, op_l: 0, height: 5n });
    Object.assign(row, { hash: 'onzCRJhQ9zfgDpjmTcdcZBPzPSuBNCvhxkKmVkDDdWHLgTETN3t', sender_id: 7n, power: 96 });
    return Object.assign(row, { op_n: 3, op_p: 3, kind: 'attestation' }, changes);
  };
  const where = (changes: Row): string | undefined => partOf(parts, attestation(changes))?.table.storage;

  it('takes an attestation whose values the narrow types hold', () => {
    expect(where({})).to.equal('op_attest');
    expect(where({ op_n: 32767, op_p: 32767n, power: 32767 })).to.equal('op_attest');
    expect(where({ kind: 'attestations_aggregate', op_n: 150, op_p: 122 })).to.equal('op_attest');
    expect(where({ type: 'preendorsement', kind: 'preattestation' })).to.equal('op_preattest');
  });

  it('leaves every other row in op_main', () => {
    expect(where({ op_n: 32768 })).to.equal(undefined);
    expect(where({ op_p: 32768n })).to.equal(undefined);
    expect(where({ power: 32768 })).to.equal(undefined);
    expect(where({ power: -1 })).to.equal(undefined);
    expect(where({ kind: 'attestation_with_bls' })).to.equal(undefined);
    expect(where({ reward: 1n })).to.equal(undefined);
    expect(where({ deposit: 1n })).to.equal(undefined);
    expect(where({ data: '4294967295' })).to.equal(undefined);
    expect(where({ type: 'transaction', kind: 'transaction' })).to.equal(undefined);
  });
});
