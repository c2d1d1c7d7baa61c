import { expect } from 'chai';
import { PluginError, resolvePlugins } from '../../framework/plugins/PluginResolver';
import { discoverPlugins } from '../../framework/plugins/PluginDiscovery';
import { BUILTIN_PLUGIN_DIR } from '../../framework/app/TzidxApp';
import { contributionMismatch } from '../../framework/plugins/Plugin';
import { manifestPlugin } from '../support/TestInstance';

const names = (ps: Array<{ manifest: { name: string } }>): string[] => ps.map((p) => p.manifest.name);

describe('plugin resolution', function () {
  const core = manifestPlugin('core');
  const dex = manifestPlugin('dex', ['core']);
  const farm = manifestPlugin('farm', ['dex', 'core']);
  const lone = manifestPlugin('lone');

  it('orders plugins after their dependencies and pulls dependencies in', function () {
    expect(names(resolvePlugins([farm, lone, dex, core], ['farm']))).to.deep.equal(['core', 'dex', 'farm']);
    expect(names(resolvePlugins([farm, lone, dex, core], undefined))).to.deep.equal(['core', 'dex', 'farm', 'lone']);
  });

  it('rejects unknown names, naming what is available', function () {
    expect(() => resolvePlugins([core, dex], ['core', 'nope'])).to.throw(
      PluginError,
      /unknown plugin 'nope'; available: core, dex/,
    );
    expect(() => resolvePlugins([dex], ['dex'])).to.throw(PluginError, /unknown plugin 'core' \(required by 'dex'\)/);
  });

  it('rejects dependency cycles, naming the cycle', function () {
    const a = manifestPlugin('a', ['b']);
    const b = manifestPlugin('b', ['c']);
    const c = manifestPlugin('c', ['a']);
    expect(() => resolvePlugins([a, b, c], ['a'])).to.throw(PluginError, 'plugin dependency cycle: a -> b -> c -> a');
  });

  it('rejects two plugins with one name', function () {
    expect(() => resolvePlugins([core, manifestPlugin('core')], undefined)).to.throw(
      PluginError,
      /two plugins are named 'core'/,
    );
  });

  it("refuses a setup() that returns what the manifest's contributes leaves out, when it says anything", function () {
    const routes = { routes: () => undefined };
    expect(contributionMismatch({ name: 'p', contributes: ['routes'] }, routes)).to.equal(undefined);
    expect(contributionMismatch({ name: 'p', contributes: ['handlers', 'routes'] }, routes)).to.equal(undefined);
    expect(contributionMismatch({ name: 'p' }, routes)).to.equal(undefined);
    expect(contributionMismatch({ name: 'p', contributes: [] }, routes)).to.equal(
      "plugin p: setup() returns routes, which its manifest's contributes [] leaves out",
    );
    expect(contributionMismatch({ name: 'p', contributes: ['handlers'] }, { ...routes, checks: () => [] })).to.contain(
      'returns routes, checks, which',
    );
  });

  it('discovers the built-in plugins by convention', function () {
    expect(names(discoverPlugins([BUILTIN_PLUGIN_DIR]))).to.include.members([
      'core-chain',
      'governance',
      'bigmaps',
      'markets',
      'defi-dex',
      'defi-farm',
      'defi-lending',
      'baking',
    ]);
  });
});
