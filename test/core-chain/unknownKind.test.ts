import { expect } from 'chai';
import { BUILTIN_PLUGIN_DIR } from '../../framework/app/TzidxApp';
import type { RawBlock } from '../../framework/chain/model/RawBlock';
import { discoverPlugins } from '../../framework/plugins/PluginDiscovery';
import { readFixtureJson } from '../support/fixtures';
import { indexBlocks } from '../support/IndexHarness';
import { BACKEND } from '../support/TestDatabase';
import { startTestInstance } from '../support/TestInstance';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe(`core-chain: an operation kind newer than this build (${BACKEND})`, function () {
  it('is indexed generically as type unknown with the node kind in kind and data, not dropped, listed when asked', async function () {
    const block = readFixtureJson<Json>('tezos-rpc', 'blocks', 'mainnet', 'mainnet-11680082.json');
    const managers = block.operations[3] as Json[];
    const group = structuredClone(managers.find((g) => g.contents[0].kind === 'transaction')!);
    const before = managers.reduce((n, g) => n + g.contents.length, 0);
    group.contents[0].kind = 'teleport_tez';
    managers.push(group);
    const t = await startTestInstance({ plugins: discoverPlugins([BUILTIN_PLUGIN_DIR]) });
    try {
      await indexBlocks(t, [block as unknown as RawBlock]);
      const rows = (await (
        await t.get('/tables/op?type=unknown&columns=type,kind,data,hash,op_l')
      ).json()) as unknown[][];
      expect(rows).to.deep.equal([['unknown', 'teleport_tez', 'teleport_tez', group.hash, 3]]);
      // Listed only when asked for: a client of the original cannot decode the type.
      const managerRows = async (filter: string) =>
        (
          (await (
            await t.get(`/tables/op?op_l=3&is_internal=0&columns=row_id&limit=1000${filter}`)
          ).json()) as unknown[][]
        ).length;
      expect(await managerRows('')).to.equal(before);
      expect(await managerRows('&type.in=unknown,transaction,reveal,delegation,origination')).to.be.greaterThan(
        await managerRows('&type.in=transaction,reveal,delegation,origination'),
      );
    } finally {
      await t.close();
    }
  });
});
