import { expect } from 'chai';
import type { HandlerRegistry, PluginClass } from '../../framework';
import type { RawBlock } from '../../framework/chain';
import { ACCOUNT_IDS } from '../../plugins/core-chain/BlockRun';
import { CoreChainPlugin } from '../../plugins/core-chain/plugin';
import type { Json } from '../chain/support/Json';
import { readFixtureJson } from '../support/fixtures';
import { indexBlocks } from '../support/IndexHarness';
import { startTestInstance } from '../support/TestInstance';
import { readTable } from './support/tableReader';

describe('core-chain: account ids for dependent plugins', () => {
  it('hands the ids of the block’s accounts to the handlers that run after it', async () => {
    const seen: Array<Map<string, bigint>> = [];
    class Probe {
      static readonly manifest = { name: 'probe', dependsOn: ['core-chain'] };
      setup() {
        return { handlers: (registry: HandlerRegistry) => this.handlers(registry) };
      }
      private handlers(registry: HandlerRegistry): void {
        registry.onBlock((_block, ctx) => void seen.push(ctx.shared.get(ACCOUNT_IDS) as Map<string, bigint>));
      }
    }
    const raw = readFixtureJson<Json>('tezos-rpc', 'blocks', 'mainnet', 'mainnet-11610082.json');
    const t = await startTestInstance({
      plugins: [CoreChainPlugin, Probe as unknown as PluginClass],
      enabled: ['core-chain', 'probe'],
    });
    try {
      await indexBlocks(t, [raw as unknown as RawBlock]);
      const accounts = await readTable(t, 'account', ['address']);
      expect(seen).to.have.length(1);
      expect([...seen[0]].map(([address, id]) => [address, String(id)])).to.have.deep.members(
        accounts.map((a) => [a.address, a.row_id]),
      );
    } finally {
      await t.close();
    }
  });
});
