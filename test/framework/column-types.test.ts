import { expect } from 'chai';
import { ValueError } from '../../framework/catalog/types/ColumnType';
import { columnType } from '../../framework/catalog/types/ColumnTypes';
import { mutezToTez, tezToMutez } from '../../framework/catalog/types/MoneyType';
import { databaseErrorToApi } from '../../framework/storage/DatabaseErrors';

describe('column types', function () {
  it('money converts between mutez and tez exactly, at any magnitude', function () {
    for (const [mutez, tez] of [
      [0n, '0.000000'],
      [1n, '0.000001'],
      [-1n, '-0.000001'],
      [1_500_000n, '1.500000'],
      [9_223_372_036_854_775_807n, '9223372036854.775807'],
    ] as const) {
      expect(mutezToTez(mutez)).to.equal(tez);
      expect(tezToMutez(tez)).to.equal(mutez);
    }
    expect(tezToMutez('2')).to.equal(2_000_000n);
    expect(tezToMutez('2.5')).to.equal(2_500_000n);
    expect(() => tezToMutez('9223372036855')).to.throw(ValueError, /out of range/);
    expect(() => tezToMutez('1,5')).to.throw(ValueError);
  });

  it('int64 and uint64 enforce their ranges without passing through doubles', function () {
    expect(columnType('int64').parse('-9223372036854775808')).to.equal('-9223372036854775808');
    expect(() => columnType('int64').parse('9223372036854775808')).to.throw(ValueError);
    expect(() => columnType('uint64').parse('-1')).to.throw(ValueError);
    expect(() => columnType('int64').parse('1.0')).to.throw(ValueError);
  });

  it('hashes are checked by kind, addresses by every account prefix', function () {
    const block = 'BLockGenesisGenesisGenesisGenesisGenesisf79b5d1CoW2';
    const op = 'opQ6YSNmjZi2XkM7GTeLXTJyzYZzdKCfUo9qcqPaXXcC82p77Qx';
    expect(columnType('hash(block)').parse(block)).to.equal(block);
    expect(() => columnType('hash(block)').parse(op)).to.throw(ValueError);
    expect(columnType('hash').parse(op)).to.equal(op);
    for (const a of [
      'tz1VSUr8wwNhLAzempoch5d6hLRiTh8Cjcjb',
      'KT1M1ynE3YXkM7qLZoMppq6szMbBvxX9yQVL',
      'tz4Kg2ZRtD573EbJYt4j8s66LCzdTQaHhpEv',
    ]) {
      expect(columnType('address').parse(a)).to.equal(a);
    }
    expect(() => columnType('address').parse('tz1VSUr8wwNhLAzempoch5d6hLRiTh8Cjcjc')).to.throw(
      ValueError,
      /invalid address/,
    );
  });

  it('bool and enum accept only their labels', function () {
    expect(['1', 'true', 'T', 'on'].map((v) => columnType('bool').parse(v))).to.deep.equal([true, true, true, true]);
    expect(() => columnType('bool').parse('maybe')).to.throw(ValueError);
    expect(() => columnType('enum(a,b)').parse('c')).to.throw(ValueError, /not one of a, b/);
  });

  it('enums are stored as the position of their label and named at the edge in every encoding', function () {
    const type = columnType('enum(a,b,c)');
    expect([type.sqlType, type.parse('a'), type.parse('c')]).to.deep.equal(['smallint', 0, 2]);
    expect([type.toDb('b'), type.fromDb(1), type.literal('c')]).to.deep.equal([1, 'b', "'2'::smallint"]);
    // Compact and CSV rows hold the code, objects the label SQL gave them (select).
    expect([type.json('2', 'compact'), type.json('c', 'object'), type.csv('0')]).to.deep.equal(['"c"', '"c"', 'a']);
    expect([type.select('"x"', 'csv'), type.select('"x"', 'object')]).to.deep.equal([
      '"x"::text',
      `(array['a', 'b', 'c']::text[])["x" + 1]`,
    ]);
    expect(() => type.toDb('d')).to.throw(/'d' is not one of enum\(a,b,c\)/);
    expect(() => type.json('3', 'compact')).to.throw(/3 is no code/);
    const using = type.convertFrom('"x"', 'text');
    expect(using).to.equal(`(array_position(array['a', 'b', 'c']::text[], "x"::text) - 1)::smallint`);
    expect(type.convertFrom('"x"', 'bigint')).to.equal(undefined);
  });

  it('JSON encodings per type', function () {
    expect(columnType('bool').json('true', 'compact')).to.equal('1');
    expect(columnType('bool').json('false', 'object')).to.equal('false');
    expect(columnType('float64').json('NaN', 'compact')).to.equal('null');
    expect(columnType('datetime').json('1700000000000', 'compact')).to.equal('1700000000000');
    expect(columnType('datetime').json('2023-11-14T22:13:20Z', 'object')).to.equal('"2023-11-14T22:13:20Z"');
    expect(columnType('string').json('a"b\n', 'compact')).to.equal('"a\\"b\\n"');
    expect(columnType('money').json('-1234567', 'compact')).to.equal('-1.234567');
    expect(columnType('bigint').json('123456789012345678901234567890', 'compact')).to.equal(
      '"123456789012345678901234567890"',
    );
  });

  it("object values are what each type's object JSON parses to, integers beyond 2^53 exact", function () {
    const texts: Record<string, string[]> = {
      int64: ['0', '-5', '9007199254740993', '-9223372036854775808'],
      uint64: ['7', '18446744073709551615'],
      float64: ['1.5', '-0.25', 'NaN', 'Infinity'],
      money: ['-1234567', '0', '9223372036854775807'],
      bool: ['true', 'false'],
      datetime: ['2023-11-14T22:13:20Z'],
      string: ['a"b\n', '', '123'],
      address: ['tz1VSUr8wwNhLAzempoch5d6hLRiTh8Cjcjb'],
      'hash(block)': ['BLockGenesisGenesisGenesisGenesisGenesisf79b5d1CoW2'],
      bytes: ['00ff'],
      bigint: ['123456789012345678901234567890'],
      'fixed(4)': ['12.3400'],
      'enum(a,b)': ['b'],
      json: ['{"a":[1,"x",null]}', '12345678901234567890'],
    };
    for (const [declaration, raws] of Object.entries(texts)) {
      const type = columnType(declaration);
      for (const raw of raws) {
        const parsed: unknown = JSON.parse(type.json(raw, 'object'));
        const exact =
          typeof parsed === 'number' && Number.isInteger(parsed) && !Number.isSafeInteger(parsed) && /^-?\d+$/.test(raw)
            ? BigInt(raw)
            : parsed;
        expect(type.objectValue(raw), `${declaration} ${raw}`).to.deep.equal(exact);
      }
    }
    expect(columnType('int64').objectValue('9007199254740993')).to.equal(9007199254740993n);
  });

  it('database failures map to API errors: cancelled → 503, data exceptions → 400 without SQL, missing tables → 404, others → 500', function () {
    expect(
      databaseErrorToApi(Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' }))
        .status,
    ).to.equal(503);
    expect(
      databaseErrorToApi(Object.assign(new Error('invalid regular expression'), { code: '2201B' })).status,
    ).to.equal(400);
    const knexStyle = databaseErrorToApi(
      Object.assign(
        new Error('select "a" from "s"."t" where "a" ~ $1 - invalid regular expression: parentheses () not balanced'),
        { code: '2201B' },
      ),
    );
    expect([knexStyle.status, knexStyle.detail]).to.deep.equal([
      400,
      'invalid filter value: invalid regular expression: parentheses () not balanced',
    ]);
    expect(
      databaseErrorToApi(Object.assign(new Error('relation "x" does not exist'), { code: '42P01' })).status,
    ).to.equal(404);
    const internal = databaseErrorToApi(Object.assign(new Error('deadlock detected'), { code: '40P01' }));
    expect([internal.status, internal.detail]).to.deep.equal([500, 'database error']);
  });
});
