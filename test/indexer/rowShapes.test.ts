import { expect } from 'chai';
import { parseCatalog } from '../../framework/catalog/CatalogLoader';
import { rowShape } from '../../framework/indexer/RowShapes';

// `constructor` is a name every plain object inherits: a row that lacks it must not copy Object.
const CATALOG = `version: 1
plugins:
  p:
    tables:
      t:
        kind: append
        height_column: height
        columns:
          - { name: row_id, type: uint64 }
          - { name: height, type: uint64 }
          - { name: sender, type: address, nullable: true }
          - { name: amount, type: money, nullable: true }
          - { name: constructor, type: string, nullable: true }
`;

describe('row shapes: the indexer copies appended rows and patches entities by their columns', function () {
  const table = parseCatalog(CATALOG).require('t');
  const shape = rowShape(table);

  it('a copy holds every stored column, the row id, and nothing the table cannot store', function () {
    const row = { height: 7, sender: 'tz1a', amount: 5n, note: 'not a column', row_id: 99n };
    const copy = shape.copy(row, 3n);
    expect(copy).to.deep.equal({ height: 7, sender: 'tz1a', amount: 5n, constructor: undefined, row_id: 3n });
    expect(copy).to.not.equal(row);
    expect(row.row_id).to.equal(99n);
    expect(shape.copy({ height: 1, constructor: 'own' }, 4n).constructor).to.equal('own');
  });

  it('the same table gets the same compiled shape', function () {
    expect(rowShape(table)).to.equal(shape);
  });

  it('assign sets what Object.assign sets, for column-only patches and for any other patch', function () {
    const patches: Record<string, unknown>[] = [
      { sender: 'tz1b', amount: 9n },
      { amount: null },
      { sender: undefined },
      { sender: 'tz1c', extra: 1 },
      { constructor: 'c' },
      {},
    ];
    for (const patch of patches) {
      const ours: Record<string, unknown> = { row_id: 1n, height: 2, sender: 'tz1a', amount: 3n, constructor: null };
      const reference = { ...ours };
      shape.assign(ours, patch);
      Object.assign(reference, patch);
      expect(ours, JSON.stringify(Object.keys(patch))).to.deep.equal(reference);
      expect(Object.keys(ours)).to.deep.equal(Object.keys(reference));
    }
  });
});
