import { expect } from 'chai';
import { ExponentialBackoff, JsonStreamSplitter, seededRandom } from '../../framework/chain';
import { readFixtureJson } from '../support/fixtures';
import type { Json } from './support/Json';

describe('chain/JsonStreamSplitter', () => {
  // Strings with braces, brackets, escaped quotes and backslashes must not confuse the scanner.
  const values: unknown[] = [
    { tricky: 'a } ] { [ "quoted" \\ end', nested: { list: [1, { x: '}' }] } },
    [1, 2, { y: '\\"' }],
    readFixtureJson<Json>('tezos-rpc', 'blocks', 'mainnet', 'mainnet-11680082.json').header,
  ];
  const text = values.map((v) => JSON.stringify(v)).join('\n') + '  \r\n' + JSON.stringify(values[0]);
  const expected = [...values, values[0]];

  it('finds the same values whatever the chunk boundaries', () => {
    for (let cut = 0; cut <= text.length; cut++) {
      const splitter = new JsonStreamSplitter();
      const out = [...splitter.push(text.slice(0, cut)), ...splitter.push(text.slice(cut))].map(
        (t) => JSON.parse(t) as unknown,
      );
      expect(out, `cut at ${cut}`).to.deep.equal(expected);
      expect(splitter.hasPartialValue).to.equal(false);
    }
  });

  it('finds the same values when fed one character at a time', () => {
    const splitter = new JsonStreamSplitter();
    const out: unknown[] = [];
    for (const ch of text) out.push(...splitter.push(ch).map((t) => JSON.parse(t) as unknown));
    expect(out).to.deep.equal(expected);
  });

  it('reports a value left open and rejects garbage between values', () => {
    const splitter = new JsonStreamSplitter();
    expect(splitter.push('{"a":1}{"b":')).to.deep.equal(['{"a":1}']);
    expect(splitter.hasPartialValue).to.equal(true);
    expect(() => new JsonStreamSplitter().push('{"a":1} oops')).to.throw(SyntaxError);
  });
});

describe('chain/ExponentialBackoff', () => {
  it('grows by the factor up to the cap, never above it, jitter included', () => {
    const backoff = new ExponentialBackoff({
      baseMs: 100,
      maxMs: 3_000,
      factor: 2,
      jitter: 0.4,
      random: seededRandom(42),
    });
    for (let attempt = 0; attempt < 40; attempt++) {
      const ceiling = Math.min(3_000, 100 * 2 ** attempt);
      const delay = backoff.delay(attempt);
      expect(delay).to.be.at.most(ceiling);
      expect(delay).to.be.at.least(Math.floor(ceiling * 0.6));
    }
  });

  it('is exact without jitter and reproducible with the same seed', () => {
    const plain = new ExponentialBackoff({ baseMs: 50, maxMs: 1_000, jitter: 0 });
    expect([0, 1, 2, 3, 4, 5, 6].map((n) => plain.delay(n))).to.deep.equal([50, 100, 200, 400, 800, 1_000, 1_000]);
    const a = new ExponentialBackoff({ random: seededRandom(9) });
    const b = new ExponentialBackoff({ random: seededRandom(9) });
    const c = new ExponentialBackoff({ random: seededRandom(10) });
    const series = (x: ExponentialBackoff): number[] => [0, 1, 2, 3, 4].map((n) => x.delay(n));
    expect(series(a)).to.deep.equal(series(b));
    expect(series(c)).to.not.deep.equal(series(new ExponentialBackoff({ random: seededRandom(9) })));
  });
});
