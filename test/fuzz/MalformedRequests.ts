import { seededRandom } from '../../framework/util/seededRandom';

/**
 * Hostile requests for every route of /openapi.json, drawn from a seeded generator so a CI run always
 * sends the same requests and a failure names a reproducible one: any method, path parameters valid
 * or hostile, hostile query arguments, headers and bodies.
 */
const BURN = 'tz1burnburnburnburnburnburnburjAYjjX';
const PROTO_NAMES = [
  '__proto__',
  'constructor',
  'toString',
  'valueOf',
  'hasOwnProperty',
  'prototype',
  '__lookupGetter__',
];
const SEGMENTS = [
  '',
  '0',
  '-1',
  '1.5',
  '18446744073709551616',
  '99999999999999999999999',
  'head',
  'null',
  'undefined',
  'NaN',
  '%00',
  '%ZZ',
  '%',
  '..',
  '%2e%2e',
  "'; drop table op; --",
  '"',
  '<script>',
  'tz1',
  BURN,
  'KT1xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx',
  'BLockGenesisGenesisGenesisGenesisGenesisf79b5d1CoW2',
  'oooooooooooooooooooooooooooooooooooooooooooooooooo',
  'exprxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx',
  'x'.repeat(5000),
  '💥',
  '%F0%9F%92%A5',
  'a,b,c',
  'proposal',
  '1e3',
  '0x10',
  ' 1',
  '1 ',
  '.json',
  'x.csv',
  'x.xml',
  // Invalid UTF-8 once percent-decoded: a lone continuation byte, an overlong form, a surrogate.
  '%FF',
  '%C3%28',
  '%E0%80%80',
  '%ED%A0%80',
  'a%80b',
  ...PROTO_NAMES,
];
const VALUES = [
  '',
  '0',
  '-1',
  '1',
  '2147483648',
  '18446744073709551615',
  '18446744073709551616',
  '1.5',
  'abc',
  'true',
  'yes',
  'asc',
  'desc',
  'now',
  'now-1d',
  '0000-01-01',
  '0099-12-31',
  '9999-12-31T23:59:59Z',
  '2024-02-31',
  '(',
  '[',
  '.*',
  '\\',
  '%00',
  'a%00b',
  '%ZZ',
  ',',
  ',,',
  '1,2',
  '1,2,3',
  BURN,
  'KT1',
  'expr',
  "'",
  '"',
  '💥',
  'x'.repeat(3000),
  'null',
  '-9223372036854775809',
  '1h',
  '1z',
  '%FF',
  '%C3%28',
  '%ED%A0%80',
  Array.from({ length: 200 }, (_, i) => i).join(','),
  ...PROTO_NAMES,
];
const PARAMS = [
  'limit',
  'cursor',
  'offset',
  'order',
  'columns',
  'prim',
  'meta',
  'rights',
  'verbose',
  'storage',
  'merge',
  'unpack',
  'since',
  'block',
  'collapse',
  'start_date',
  'end_date',
  'fill',
  'filename',
  'type',
  'address',
  'sender',
  'receiver',
  'entrypoint',
  'hash',
  'height',
  'time',
  'row_id',
  'id',
  'nope',
  '',
  '.',
  'a.b.c',
  '%FF',
  ...PROTO_NAMES,
  ...PROTO_NAMES.map((p) => `${p}.in`),
];
const MODES = ['', '.eq', '.ne', '.gt', '.gte', '.lt', '.lte', '.in', '.nin', '.rg', '.re', '.xx', '.', '.__proto__'];
const METHODS = ['GET', 'GET', 'GET', 'GET', 'GET', 'GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
const HEADERS: ReadonlyArray<[string, string]> = [
  ...[
    'identity;q=0, *;q=0',
    '*;q=0',
    'gzip;q=0, identity;q=0',
    'identity;q=0',
    'br',
    'zstd',
    'x-nope',
    '*',
    'gzip;q=abc, ,;;',
    'deflate, gzip;q=1.0, *;q=0.5',
  ].map((v): [string, string] => ['Accept-Encoding', v]),
  ...['application/xml', '*/*;q=0', 'text/csv', 'garbage/;;;q=x', ''].map((v): [string, string] => ['Accept', v]),
  ['Accept-Charset', 'iso-8859-1;q=0, *;q=0'],
  ['Accept-Language', '*;q=0'],
  ['Range', 'bytes=0-0,5-'],
  ['If-None-Match', '*'],
  ['If-Modified-Since', 'not a date'],
  ['X-Request-Id', 'x'.repeat(300)],
  ['X-Request-Id', '../../etc/passwd'],
  ['Origin', 'http://evil.example'],
  ['Origin', 'null'],
  ['Access-Control-Request-Method', 'DELETE'],
  ['Access-Control-Request-Method', 'GET'],
  ['Access-Control-Request-Headers', 'x-a, authorization'],
  ['Content-Type', 'text/plain'],
  ['Content-Type', 'application/json; charset=latin1'],
  ['Content-Type', 'multipart/form-data; boundary='],
  ['Content-Encoding', 'gzip'],
  ['X-Forwarded-For', 'not an ip, ::::'],
  ['X-Forwarded-Proto', 'gopher'],
  ['Authorization', 'Bearer'],
  ['Authorization', `Bearer ${'k'.repeat(10_000)}`],
  ['X-API-Key', '__proto__'],
  ['X-Huge', 'h'.repeat(100_000)],
  ['Cookie', `a=${'c'.repeat(60_000)}`],
];
const deep = (n: number): string => '['.repeat(n) + ']'.repeat(n);
const BODIES: ReadonlyArray<string | Uint8Array> = [
  '',
  '{}',
  '[]',
  'null',
  'not json',
  '{"a":',
  deep(3000),
  `[{"address":"${BURN}","tz16":${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}}]`,
  `[{"address":"${BURN}","alias":{"name":"a\\u0000b","kind":"user"}}]`,
  '{"\\u0000":1}',
  `[{"address":"${BURN}","__proto__":{"name":"x"},"constructor":{"name":"y"}}]`,
  '{"__proto__":{"admin":true},"alias":{"name":"p","kind":"user"}}',
  `[{"address":"${BURN}","alias":{"name":"ok","kind":"user"}}]`,
  new Uint8Array([0x5b, 0x22, 0xff, 0xfe, 0x22, 0x5d]),
  new Uint8Array([0x7b, 0x22, 0xc3, 0x28, 0x22, 0x3a, 0x31, 0x7d]),
  JSON.stringify([{ address: BURN, alias: { name: 'x'.repeat(200_000), kind: 'user' } }]),
];

export interface HostileRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
}

/** A route of /openapi.json: its path (`/explorer/block/{id}`) and valid values of its path parameters. */
export interface RouteTemplate {
  path: string;
  valid: Readonly<Record<string, readonly string[]>>;
  /** It has a GET operation (not only writes). */
  get: boolean;
}

export class MalformedRequests {
  private readonly next: () => number;

  constructor(
    seed: number,
    private readonly routes: readonly RouteTemplate[],
    private readonly columnNames: readonly string[],
    private readonly apiKey: string,
  ) {
    this.next = seededRandom(seed);
  }

  private pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.next() * list.length)];
  }

  /** The i-th request: a route, its `{params}` valid or hostile, 0–4 hostile query arguments, 0–2 hostile headers. */
  request(i: number): HostileRequest {
    const route = this.routes[i % this.routes.length];
    const path = route.path.replace(/\{(\w+)\}/g, (_, name: string) => {
      const valid = route.valid[name] ?? [];
      if (valid.length > 0 && this.next() < 0.5) return encodeURIComponent(this.pick(valid));
      return encodeSegment(this.pick(SEGMENTS));
    });
    const args: string[] = [];
    for (let k = Math.floor(this.next() * 5); k > 0; k--) {
      const name = this.next() < 0.5 ? this.pick(PARAMS) : this.pick(this.columnNames) + this.pick(MODES);
      args.push(`${encodeSegment(name)}=${encodeSegment(this.pick(VALUES))}`);
    }
    const method = this.pick(METHODS);
    const headers: Record<string, string> = {};
    for (let k = Math.floor(this.next() * 3); k > 0; k--) {
      const [name, value] = this.pick(HEADERS);
      headers[name] = value;
    }
    const writes = method === 'POST' || method === 'PUT' || method === 'PATCH';
    if (writes) {
      headers['Content-Type'] ??= 'application/json';
      // Most writes carry the key, so their bodies get past the access check to the body reader.
      if (this.next() < 0.8) headers.Authorization = `Bearer ${this.apiKey}`;
    }
    const query = args.length ? `?${args.join('&')}` : '';
    return { method, path: path + query, headers, ...(writes ? { body: this.pick(BODIES) } : {}) };
  }
}

/** Keeps deliberate %-escapes (bad ones included) and spells out what fetch would refuse to send. */
function encodeSegment(s: string): string {
  return s.replace(/[^A-Za-z0-9%._~,'!*()-]/gu, (c) => encodeURIComponent(c));
}
