import { expect } from 'chai';
import { asDate, asRecord, asStringRecord, member } from '../../framework/chain/model/jsonRead';
import { errorMessage } from '../../framework/errors/errorMessage';

describe('JSON guards (typed reads of foreign JSON)', () => {
  it('member reads an object member and answers undefined for anything else', () => {
    const key = { string: 'name' };
    expect(member(key, 'string')).to.equal('name');
    expect(member(member({ script: { code: [1] } }, 'script'), 'code')).to.deep.equal([1]);
    for (const v of [undefined, null, 'x', 7, ['string']]) expect(member(v, 'string')).to.equal(undefined);
    expect(member(['a'], 'length')).to.equal(undefined);
  });

  it('asStringRecord keeps the string members only; asRecord refuses arrays and null', () => {
    expect(asStringRecord({ '': '74657a6f73', n: 1, o: {} })).to.deep.equal({ '': '74657a6f73' });
    expect(asStringRecord(null)).to.deep.equal({});
    expect(asRecord([])).to.equal(undefined);
    expect(asRecord(null)).to.equal(undefined);
  });

  it('asDate takes Dates, RFC 3339 text and unix ms; anything else is the invalid Date', () => {
    const d = new Date('2024-03-01T12:00:00Z');
    expect(asDate(d)).to.equal(d);
    expect(asDate('2024-03-01T12:00:00Z').getTime()).to.equal(d.getTime());
    expect(asDate(d.getTime()).getTime()).to.equal(d.getTime());
    expect(() => asDate(null).toISOString()).to.throw(RangeError);
  });

  it('errorMessage says what any thrown value says', () => {
    expect(errorMessage(new TypeError('bad'))).to.equal('bad');
    expect(errorMessage('plain')).to.equal('plain');
  });
});
