import type { AccountBook } from '../AccountBook';
import { bytes, int, pair, str, type Micheline } from '../Michelson';
import { CallContext, type ContractModel } from './ContractModel';
import type { LazyStorageDiff } from './LazyStorageDiff';
import { bigMapGet } from './LazyStorageDiff';
import { entrypoints, pairT, script, tBigMap, tBytes, tNat, tString, tUnit } from './scripts';

interface RegistryState {
  records: number;
  count: bigint;
}

const PARAMETER = entrypoints(
  ['set', pairT(tString('%name'), tBytes('%data'))],
  ['del', tString()],
  ['reset', tUnit()],
  ['clone', tUnit()],
);
const STORAGE = pairT(tBigMap(tString(), tBytes(), '%records'), tNat('%count'));

/**
 * A user contract (name registry) originated during the chain's life. Its calls exercise the big map
 * actions indexers must follow: `set`/`del` update entries (and emit an event), `reset` removes the big
 * map and allocates a new one, `clone` originates a copy through an internal origination (big map copy).
 */
export class Registry implements ContractModel {
  readonly role = 'registry' as const;
  readonly code = script(PARAMETER, STORAGE);

  constructor(
    private readonly book: AccountBook,
    readonly address: string,
  ) {}

  static readonly storageType = STORAGE;

  init(diff: LazyStorageDiff, entries: [string, string][]): void {
    const records = diff.alloc(tString(), tBytes());
    for (const [k, v] of entries) diff.update(records, str(k), bytes(v));
    this.book.setState<RegistryState>(this.address, { records, count: BigInt(entries.length) });
  }

  initCopy(diff: LazyStorageDiff, sourceMap: number, count: bigint): void {
    this.book.setState<RegistryState>(this.address, { records: diff.copy(sourceMap), count });
  }

  get state(): RegistryState {
    return this.book.state<RegistryState>(this.address);
  }

  storage(): Micheline {
    return pair(int(this.state.records), int(this.state.count));
  }

  has(name: string): boolean {
    return bigMapGet(this.book, this.state.records, str(name)) !== undefined;
  }

  /** Applies a call; returns the parameter value and how many entries the storage gained. */
  apply(
    call: CallContext,
    diff: LazyStorageDiff,
    entrypoint: 'set' | 'del' | 'reset',
    name: string,
    data: string,
  ): { value: Micheline; grown: number } {
    const s = this.state;
    if (entrypoint === 'set') {
      const isNew = !this.has(name);
      diff.update(s.records, str(name), bytes(data));
      this.book.setState<RegistryState>(this.address, { ...s, count: s.count + (isNew ? 1n : 0n) });
      call.pushEvent(
        this.address,
        'record_set',
        pairT(tString('%name'), tBytes('%data')),
        pair(str(name), bytes(data)),
      );
      return { value: pair(str(name), bytes(data)), grown: isNew ? 1 : 0 };
    }
    if (entrypoint === 'del') {
      diff.update(s.records, str(name), undefined);
      this.book.setState<RegistryState>(this.address, { ...s, count: s.count - 1n });
      return { value: str(name), grown: 0 };
    }
    diff.remove(s.records);
    const records = diff.alloc(tString(), tBytes());
    this.book.setState<RegistryState>(this.address, { records, count: 0n });
    return { value: { prim: 'Unit' }, grown: 0 };
  }

  /** Some existing name, for `del`. */
  someName(pick: (n: number) => number): string | undefined {
    const map = this.book.bigMap(this.state.records);
    if (!map || map.entries.size === 0) return undefined;
    const keys = [...map.entries.values()];
    const k = keys[pick(keys.length)].key;
    return !Array.isArray(k) && 'string' in k ? k.string : undefined;
  }
}
