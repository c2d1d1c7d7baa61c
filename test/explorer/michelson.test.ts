import { b58Encode, PrefixV2 } from '@taquito/utils';
import { expect } from 'chai';
import { bigMapDiffBytes } from '../../plugins/core-chain/bigMapDiffBytes';
import { bigMapDiffObjects } from '../../plugins/core-chain/explorer/BigMapDiffObjects';
import { entrypointArgType as entrypointType, entrypointList, typedef, typedValue } from '../../framework';

const t = (prim: string, annot?: string, ...args: unknown[]): unknown => ({
  prim,
  ...(args.length ? { args } : {}),
  ...(annot ? { annots: [annot] } : {}),
});
const int = (n: number | string) => ({ int: String(n) });
const str = (s: string) => ({ string: s });
const P = (...args: unknown[]) => ({ prim: 'Pair', args });

// The address/bytes pair of @taquito/utils' documentation.
const TZ1_BYTES = '0000e96b9f8b19af9c7ffa0c0480e1977b295850961f';
const TZ1 = 'tz1gvF4cD2dDtqitL3ZTraggSR1Mju2BKFEM';

const FA12_PARAMETER = t(
  'or',
  undefined,
  t(
    'or',
    undefined,
    t('pair', '%transfer', t('address', ':from'), t('pair', undefined, t('address', ':to'), t('nat', ':value'))),
    t('pair', '%approve', t('address', '%spender'), t('nat', '%value')),
  ),
  t('unit', '%default'),
);

describe('explorer: Michelson values as JSON', function () {
  it('records: field annotations name keys, unnamed fields their position; combs in any spelling', function () {
    const type = t('pair', undefined, t('int', '%a'), t('string', '%b'), t('nat', '%c'));
    const expected = { a: '1', b: 'x', c: '3' };
    expect(typedValue(type, P(int(1), str('x'), int(3)))).to.deep.equal(expected);
    expect(typedValue(type, P(int(1), P(str('x'), int(3))))).to.deep.equal(expected);
    expect(typedValue(type, [int(1), str('x'), int(3)])).to.deep.equal(expected);
    expect(typedValue(t('pair', undefined, t('int'), t('string')), P(int(-5), str('y')))).to.deep.equal({
      0: '-5',
      1: 'y',
    });
    // FA1.2 names the transfer's fields by type annotations.
    const transfer = entrypointType(FA12_PARAMETER, 'transfer');
    expect(typedValue(transfer, P(str(TZ1), P({ bytes: TZ1_BYTES }, int(10))))).to.deep.equal({
      from: TZ1,
      to: TZ1,
      value: '10',
    });
    // A named inner pair is a nested record.
    const nested = t(
      'pair',
      undefined,
      t('pair', '%from', t('address', '%who'), t('nat', '%id')),
      t('mutez', '%amount'),
    );
    expect(typedValue(nested, P(P({ bytes: TZ1_BYTES }, int(7)), int(100)))).to.deep.equal({
      from: { who: TZ1, id: '7' },
      amount: '100',
    });
  });

  it('unions, options, lists, sets, maps and big maps', function () {
    const union = t(
      'or',
      undefined,
      t('nat', '%deposit'),
      t('or', undefined, t('unit', '%withdraw'), t('address', '%send')),
    );
    expect(typedValue(union, { prim: 'Right', args: [{ prim: 'Left', args: [{ prim: 'Unit' }] }] })).to.deep.equal({
      withdraw: null,
    });
    expect(typedValue(union, { prim: 'Left', args: [int(4)] })).to.deep.equal({ deposit: '4' });
    expect(typedValue(t('or', undefined, t('int'), t('string')), { prim: 'Right', args: [str('r')] })).to.deep.equal({
      R: 'r',
    });
    expect(typedValue(t('option', undefined, t('nat')), { prim: 'None' })).to.equal(null);
    expect(typedValue(t('option', undefined, t('nat')), { prim: 'Some', args: [int(9)] })).to.equal('9');
    expect(typedValue(t('list', undefined, t('bool')), [{ prim: 'True' }, { prim: 'False' }])).to.deep.equal([
      true,
      false,
    ]);
    expect(typedValue(t('set', undefined, t('string')), [str('a'), str('b')])).to.deep.equal(['a', 'b']);
    const elt = (k: unknown, v: unknown) => ({ prim: 'Elt', args: [k, v] });
    expect(
      typedValue(t('map', undefined, t('string'), t('nat')), [elt(str('k1'), int(1)), elt(str('k2'), int(2))]),
    ).to.deep.equal({ k1: '1', k2: '2' });
    const pairKeys = t('map', undefined, t('pair', undefined, t('address'), t('nat')), t('nat'));
    expect(typedValue(pairKeys, [elt(P(str(TZ1), int(0)), int(5))])).to.deep.equal([
      { key: { 0: TZ1, 1: '0' }, value: '5' },
    ]);
    expect(typedValue(t('big_map', undefined, t('string'), t('bytes')), int(42))).to.equal(42);
  });

  it('scalars: timestamps RFC3339, addresses and keys base58 from bytes, entrypoint suffixes kept', function () {
    expect(typedValue(t('timestamp'), int(0))).to.equal('1970-01-01T00:00:00Z');
    expect(typedValue(t('timestamp'), int(1_700_000_000))).to.equal(
      new Date(1_700_000_000_000).toISOString().replace('.000Z', 'Z'),
    );
    expect(typedValue(t('timestamp'), str('2024-01-01T00:00:00Z'))).to.equal('2024-01-01T00:00:00Z');
    expect(typedValue(t('address'), { bytes: TZ1_BYTES })).to.equal(TZ1);
    const hash = 'ab'.repeat(20);
    const kt1 = b58Encode(hash, PrefixV2.ContractHash);
    expect(typedValue(t('address'), { bytes: `01${hash}00${Buffer.from('mint').toString('hex')}` })).to.equal(
      `${kt1}%mint`,
    );
    expect(typedValue(t('key_hash'), { bytes: TZ1_BYTES.slice(2) })).to.equal(TZ1);
    expect(typedValue(t('bytes'), { bytes: 'cafe' })).to.equal('cafe');
  });

  it('values that do not fit their type, and opaque values, stay Micheline', function () {
    expect(typedValue(t('nat'), str('not a number'))).to.deep.equal(str('not a number'));
    const lambda = [{ prim: 'DROP' }, { prim: 'UNIT' }];
    expect(typedValue(t('lambda', undefined, t('unit'), t('unit')), lambda)).to.deep.equal(lambda);
    // One bad field does not spoil its record.
    expect(typedValue(t('pair', undefined, t('nat', '%n'), t('string', '%s')), P(str('x'), str('ok')))).to.deep.equal({
      n: str('x'),
      s: 'ok',
    });
  });
});

describe('explorer: Michelson types and entrypoints', function () {
  it('typedefs spell out records, unions and options', function () {
    expect(
      typedef(t('pair', undefined, t('nat', '%id'), t('option', '%owner', t('address'))), 'storage'),
    ).to.deep.equal({
      name: 'storage',
      type: 'struct',
      args: [
        { name: 'id', type: 'nat' },
        { name: 'owner', type: 'address', optional: true },
      ],
    });
    expect(typedef(t('big_map', undefined, t('string'), t('bytes')), 'records')).to.deep.equal({
      name: 'records',
      type: 'big_map',
      args: [
        { name: 'key', type: 'string' },
        { name: 'value', type: 'bytes' },
      ],
    });
  });

  it('entrypoints in id order with their branch, argument and the type a call is decoded with', function () {
    const list = entrypointList(FA12_PARAMETER, false);
    expect(list.map((e) => [e.id, e.name, e.branch])).to.deep.equal([
      [0, 'transfer', 'LL'],
      [1, 'approve', 'LR'],
      [2, 'default', 'R'],
    ]);
    expect(list[1].type).to.deep.equal([
      { name: 'spender', type: 'address' },
      { name: 'value', type: 'nat' },
    ]);
    expect(entrypointType(FA12_PARAMETER, 'approve')).to.deep.equal(
      t('pair', '%approve', t('address', '%spender'), t('nat', '%value')),
    );
    expect(entrypointType(FA12_PARAMETER, 'nope')).to.equal(undefined);
    expect(entrypointList(t('nat'), true)).to.deep.equal([
      { id: 0, name: 'default', branch: '', type: [{ name: 'default', type: 'nat' }], prim: t('nat') },
    ]);
    expect(entrypointType(t('nat'), 'default')).to.deep.equal(t('nat'));
  });
});

describe('explorer: big map changes read back from the op table encoding', function () {
  it('updates, key removals, map removals, copies and allocations', function () {
    const key = str('k');
    const value = { bytes: '00' };
    const hex = bigMapDiffBytes([
      { action: 'update', bigMapId: 5, key, value },
      { action: 'remove', bigMapId: 5, key },
      { action: 'remove', bigMapId: 6 },
      { action: 'copy', bigMapId: 7, sourceBigMapId: 5 },
      { action: 'alloc', bigMapId: -1, keyType: t('string'), valueType: t('bytes') },
      { action: 'update', key, value },
    ]);
    expect(bigMapDiffObjects(hex)).to.deep.equal([
      { action: 'update', bigmap_id: 5, key, value },
      { action: 'remove', bigmap_id: 5, key },
      { action: 'remove', bigmap_id: 6 },
      { action: 'copy', bigmap_id: 7, source_big_map: 5 },
      { action: 'alloc', bigmap_id: -1, key_type: t('string'), value_type: t('bytes') },
      { action: 'update', bigmap_id: null, key, value },
    ]);
    expect(bigMapDiffObjects('ff')).to.equal(undefined);
  });
});
