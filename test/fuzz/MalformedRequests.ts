import { seededRandom } from '../../framework/util/seededRandom';

/**
 * Malformed requests for every route template: hostile path segments and query strings drawn from a
 * seeded generator, so a CI run always sends the same requests and a failure names a reproducible one.
 */
const SEGMENTS = [
  '', '0', '-1', '1.5', '18446744073709551616', '99999999999999999999999', 'head', 'null', 'undefined', 'NaN', '%00', '%ZZ', '%',
  '..', '%2e%2e', "'; drop table op; --", '"', '<script>', 'tz1', 'KT1xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx', 'tz1burnburnburnburnburnburnburjAYjjX',
  'BLockGenesisGenesisGenesisGenesisGenesisf79b5d1CoW2', 'oooooooooooooooooooooooooooooooooooooooooooooooooo', 'exprxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx',
  'x'.repeat(5000), '💥', '%F0%9F%92%A5', 'a,b,c', 'proposal', '1e3', '0x10', ' 1', '1 ', '.json', 'x.csv', 'x.xml',
];
const VALUES = [
  '', '0', '-1', '1', '2147483648', '18446744073709551615', '18446744073709551616', '1.5', 'abc', 'true', 'yes', 'asc', 'desc', 'now', 'now-1d',
  '0000-01-01', '0099-12-31', '9999-12-31T23:59:59Z', '2024-02-31', '(', '[', '.*', '\\', '%00', 'a%00b', '%ZZ', ',', ',,', '1,2', '1,2,3',
  'tz1burnburnburnburnburnburnburjAYjjX', 'KT1', 'expr', "'", '"', '💥', 'x'.repeat(3000), 'null', '-9223372036854775809', '1h', '1z',
];
const PARAMS = [
  'limit', 'cursor', 'offset', 'order', 'columns', 'prim', 'meta', 'rights', 'verbose', 'storage', 'merge', 'unpack', 'since', 'block',
  'collapse', 'start_date', 'end_date', 'fill', 'filename', 'type', 'address', 'sender', 'receiver', 'entrypoint', 'hash', 'height', 'time',
  'row_id', 'id', 'nope', '', '.', 'a.b.c',
];
const MODES = ['', '.eq', '.ne', '.gt', '.gte', '.lt', '.lte', '.in', '.nin', '.rg', '.re', '.xx', '.'];

export class MalformedRequests {
  private readonly next: () => number;

  constructor(
    seed: number,
    private readonly templates: readonly string[],
    private readonly columnNames: readonly string[],
  ) {
    this.next = seededRandom(seed);
  }

  private pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.next() * list.length)];
  }

  /** The i-th request: a route template with its `:params` replaced, plus 0–4 hostile query arguments. */
  request(i: number): string {
    const template = this.templates[i % this.templates.length];
    const path = template.replace(/:(\w+)/g, () => encodeSegment(this.pick(SEGMENTS)));
    const args: string[] = [];
    const n = Math.floor(this.next() * 5);
    for (let k = 0; k < n; k++) {
      const name = this.next() < 0.5 ? this.pick(PARAMS) : this.pick(this.columnNames) + this.pick(MODES);
      args.push(`${encodeSegment(name)}=${encodeSegment(this.pick(VALUES))}`);
    }
    return args.length ? `${path}?${args.join('&')}` : path;
  }
}

/** Keeps deliberate %-escapes (bad ones included) and spells out what fetch would refuse to send. */
function encodeSegment(s: string): string {
  return s.replace(/[^A-Za-z0-9%._~,'!*()-]/gu, (c) => encodeURIComponent(c));
}
