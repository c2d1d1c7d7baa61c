import { expect } from 'chai';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { KnownCode } from '../../../framework';
import { ContractTypes } from '../../../framework/michelson/ContractTypes';
import { YOUVES_SAVINGS_V2 } from '../../../plugins/defi-farm/adapters/youves/types';
import { QUIPU_V1_TYPES } from '../../../plugins/defi-dex/adapters/quipuswap/types';
import { PLENTY_VOLATILE, PLENTY_VOLATILE_SYSTEM_FEE } from '../../../plugins/defi-dex/adapters/plenty/types';
import {
  YOUVES_FLAT_FA12_CASH,
  YOUVES_FLAT_FA2_CASH,
  YOUVES_FLAT_NO_UPDATES,
} from '../../../plugins/defi-dex/adapters/youves-flat/types';

/*
 * The shipped types against the mainnet scripts of youves-sdk's script cache
 * (test/fixtures/defi-dex/youves-flat/youves-sdk-0.0.6-contracts.ts.txt, SOURCES.md): every script whose code hash
 * a shipped version lists has that version's parameter and storage types, and its storage snapshot (as the node
 * served it, optimized Micheline) decodes strictly through them, and no other script's storage does.
 */
const FILE = path.resolve('test/fixtures/defi-dex/youves-flat/youves-sdk-0.0.6-contracts.ts.txt');
const PREFIX = 'export const contractInfo = ';
type Script = { code: unknown; storage: unknown };
const scripts = (): Array<[string, Script]> => {
  const text = fs.readFileSync(FILE, 'utf8');
  expect(text.startsWith(PREFIX)).to.equal(true);
  const info = JSON.parse(text.slice(PREFIX.length)) as Record<string, { script: Script }>;
  return Object.entries(info).map(([address, c]) => [address, c.script]);
};

const VERSIONS: readonly KnownCode[] = [
  YOUVES_FLAT_FA2_CASH,
  YOUVES_FLAT_FA12_CASH,
  YOUVES_FLAT_NO_UPDATES,
  PLENTY_VOLATILE,
  PLENTY_VOLATILE_SYSTEM_FEE,
  YOUVES_SAVINGS_V2,
];
/** QuipuSwap v1's `use` generation, not a KnownCode (`quipuswap/shipped.ts`): FA1.2 and FA2 pools by code hash. */
const QUIPU_V1 = [
  { hash: '59dd4b220b82cb64', types: QUIPU_V1_TYPES[0] },
  { hash: '69cc3a03bc9569e0', types: QUIPU_V1_TYPES[1] },
];

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;
/** A type as plain JSON (parsed types have no prototype), every n-ary `pair` as right-nested binary pairs. */
const binaryPairs = (t: Json): Json => nested(JSON.parse(JSON.stringify(t)));
function nested(t: Json): Json {
  if (t?.prim !== 'pair' || t.args.length <= 2) return t?.args ? { ...t, args: t.args.map(nested) } : t;
  const [head, ...rest] = t.args;
  return { ...t, args: [nested(head), nested({ prim: 'pair', args: rest })] };
}
const strictly = (read: () => unknown): boolean => {
  try {
    read();
    return true;
  } catch {
    return false;
  }
};

describe("defi: the shipped contract types on youves-sdk's mainnet scripts", () => {
  const all = scripts().map(([address, script]) => ({ address, script, types: ContractTypes.fromScript(script)! }));
  for (const v of VERSIONS) {
    it(`${v.name}: each listed build's script has its types and its storage decodes through them`, () => {
      const mine = all.filter((s) => v.codeHashes.includes(s.types.codeHash!));
      expect(mine.length).to.be.greaterThan(0);
      for (const { address, script, types } of mine) {
        expect([v.types.parameterType, v.types.storageType].map(binaryPairs), address).to.deep.equal(
          [types.parameterType, types.storageType].map(binaryPairs),
        );
        expect(() => v.types.storage(script.storage, { strict: true }), address).not.to.throw();
      }
      // No other script of the file fits this version's storage.
      const others = all.filter((s) => !v.codeHashes.includes(s.types.codeHash!));
      const fitting = others.filter((s) => strictly(() => v.types.storage(s.script.storage, { strict: true })));
      expect(fitting.map((s) => s.address)).to.deep.equal([]);
    });
  }

  for (const { hash, types } of QUIPU_V1) {
    it(`quipuswap v1 ${hash}: the scripts have the shipped types (combs nested) and their storages decode`, () => {
      const mine = all.filter((s) => s.types.codeHash === hash);
      expect(mine.length).to.be.greaterThan(0);
      for (const { address, script, types: real } of mine) {
        expect([types.parameterType, types.storageType].map(binaryPairs), address).to.deep.equal(
          [real.parameterType, real.storageType].map(binaryPairs),
        );
        expect(
          strictly(() => types.storage(script.storage, { strict: true })),
          address,
        ).to.equal(true);
      }
      const fitting = all.filter(
        (s) => s.types.codeHash !== hash && strictly(() => types.storage(s.script.storage, { strict: true })),
      );
      expect(fitting.map((s) => s.address)).to.deep.equal([]);
    });
  }
});
