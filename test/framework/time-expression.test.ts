import { expect } from 'chai';
import { parseTime, TimeParseError, truncateUtc } from '../../framework/time/TimeExpression';

describe('time expressions', function () {
  const now = new Date('2024-03-15T13:45:30.250Z');
  const cases: Array<[string, string]> = [
    ['2024-03-01T10:00:00Z', '2024-03-01T10:00:00.000Z'],
    ['2024-03-01T10:00:00+02:00', '2024-03-01T08:00:00.000Z'],
    ['2024-03-01T10:00:00.123Z', '2024-03-01T10:00:00.123Z'],
    ['2024-03-01T10:00', '2024-03-01T10:00:00.000Z'],
    ['2024-03-01 10:00:05', '2024-03-01T10:00:05.000Z'],
    ['2024-03-01', '2024-03-01T00:00:00.000Z'],
    ['2024-03', '2024-03-01T00:00:00.000Z'],
    ['2024', '2024-01-01T00:00:00.000Z'],
    ['1700000000', '2023-11-14T22:13:20.000Z'],
    ['1700000000123', '2023-11-14T22:13:20.123Z'],
    ['now', '2024-03-15T13:45:30.250Z'],
    ['now-24h', '2024-03-14T13:45:30.250Z'],
    ['now+90m', '2024-03-15T15:15:30.250Z'],
    ['now-1h-30m', '2024-03-15T12:15:30.250Z'],
    ['now/d', '2024-03-15T00:00:00.000Z'],
    ['now/d-7d', '2024-03-08T00:00:00.000Z'],
    ['now/M', '2024-03-01T00:00:00.000Z'],
    ['now/y-1y', '2023-01-01T00:00:00.000Z'],
    ['now/w', '2024-03-11T00:00:00.000Z'],
    ['today', '2024-03-15T00:00:00.000Z'],
    ['yesterday', '2024-03-14T00:00:00.000Z'],
    ['tomorrow', '2024-03-16T00:00:00.000Z'],
  ];
  for (const [input, iso] of cases) {
    it(`${input} → ${iso}`, function () {
      expect(parseTime(input, now).toISOString()).to.equal(iso);
    });
  }
  for (const bad of [
    '',
    'noon',
    '2024-13-01',
    '2024-02-30',
    'now-',
    'now-5x',
    'now/q',
    '12:00',
    '2024-03-01T25:00:00Z',
    '1e9',
  ]) {
    it(`rejects '${bad}'`, function () {
      expect(() => parseTime(bad, now)).to.throw(TimeParseError);
    });
  }
  it('weeks start on Monday, UTC', function () {
    expect(truncateUtc(new Date('2024-03-17T23:59:59Z'), 'w').toISOString()).to.equal('2024-03-11T00:00:00.000Z');
    expect(truncateUtc(new Date('2024-03-18T00:00:00Z'), 'w').toISOString()).to.equal('2024-03-18T00:00:00.000Z');
  });
});
