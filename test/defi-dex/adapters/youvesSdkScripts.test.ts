import { expect } from 'chai';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { KnownCode } from '../../../framework';
import { ContractTypes } from '../../../framework/michelson/ContractTypes';
import {
  YOUVES_FLAT_FA12_CASH,
  YOUVES_FLAT_FA2_CASH,
  YOUVES_FLAT_NO_UPDATES,
} from '../../../plugins/defi-dex/adapters/youves-flat/types';

/*
 * The shipped types against the mainnet scripts of youves-sdk's script cache
 * (test/fixtures/defi-dex/youves-flat/youves-sdk-0.0.6-contracts.ts.txt, SOURCES.md): every script whose code hash
 * a shipped version lists has that version's parameter and storage types, and its storage snapshot (as the node
 * served it, optimized Micheline) decodes strictly through them; every code hash of a version is in the file.
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

const VERSIONS: readonly KnownCode[] = [YOUVES_FLAT_FA2_CASH, YOUVES_FLAT_FA12_CASH, YOUVES_FLAT_NO_UPDATES];

describe("defi: the shipped contract types on youves-sdk's mainnet scripts", () => {
  const all = scripts().map(([address, script]) => ({ address, script, types: ContractTypes.fromScript(script)! }));
  for (const v of VERSIONS) {
    it(`${v.name}: each listed build's script has its types and its storage decodes through them`, () => {
      const mine = all.filter((s) => v.codeHashes.includes(s.types.codeHash!));
      expect([...new Set(mine.map((s) => s.types.codeHash))].sort()).to.deep.equal([...v.codeHashes].sort());
      for (const { address, script, types } of mine) {
        expect([v.types.parameterType, v.types.storageType], address).to.deep.equal([
          types.parameterType,
          types.storageType,
        ]);
        expect(() => v.types.storage(script.storage, { strict: true }), address).not.to.throw();
      }
      // No other script of the file fits this version's storage.
      const others = all.filter((s) => !v.codeHashes.includes(s.types.codeHash!));
      const fitting = others.filter((s) => {
        try {
          v.types.storage(s.script.storage, { strict: true });
          return true;
        } catch {
          return false;
        }
      });
      expect(fitting.map((s) => s.address)).to.deep.equal([]);
    });
  }
});
