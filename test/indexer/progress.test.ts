import { expect } from 'chai';
import { IndexerStatus } from '../../framework/indexer/IndexerStatus';
import { ProgressReporter } from '../../framework/indexer/ProgressReporter';
import { silentLogger } from '../../framework/util/Logger';

describe('indexer progress', function () {
  it('reports status, share, rates over the last interval and the ETA', function () {
    const status = new IndexerStatus();
    status.status = 'syncing';
    status.firstLevel = 1;
    status.setNodeHeight(1000);
    const reporter = new ProgressReporter(status, silentLogger, { isTTY: false } as NodeJS.WriteStream, 1000);
    const t0 = Date.now();
    reporter.line(t0);
    status.countIndexed(250, 5000);
    status.setIndexed(250);
    expect(reporter.line(t0 + 10_000)).to.equal('syncing 25.0% 250/1000  25.0 blocks/s  500 ops/s  ETA 30s');
    status.countIndexed(750, 1500);
    status.setIndexed(1000);
    expect(reporter.line(t0 + 15_000)).to.equal('syncing 100.0% 1000/1000  150.0 blocks/s  300 ops/s  ETA 0s');
  });

  it('the status object says how far the indexer is', function () {
    const status = new IndexerStatus();
    expect(status.toJSON()).to.deep.equal({
      mode: 'serve',
      status: 'stopped',
      blocks: -1,
      finalized: 0,
      indexed: -1,
      progress: 0,
    });
    status.mode = 'sync';
    status.status = 'syncing';
    status.firstLevel = 100;
    status.setNodeHeight(199);
    status.setIndexed(149);
    // Final: two blocks built on it (Tenderbake); here every indexed block is that deep.
    expect(status.toJSON()).to.deep.equal({
      mode: 'sync',
      status: 'syncing',
      blocks: 199,
      finalized: 149,
      indexed: 149,
      progress: 0.5,
    });
    status.setIndexed(199);
    expect(status.toJSON()).to.deep.include({ indexed: 199, finalized: 197 });
  });
});
