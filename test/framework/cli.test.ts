import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { expect } from 'chai';
import { parse } from 'yaml';
import { DEFAULTS } from '../../framework/config/InstanceConfig';
import type { PluginManifest } from '../../framework/plugins/Plugin';

const BIN = path.resolve(__dirname, '..', '..', 'framework', 'cli', 'tzidx.js');

function tzidx(args: string[], env: Record<string, string> = {}): { code: number | null; out: string; err: string } {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    encoding: 'utf8',
    env: { ...process.env, DATABASE_URL: '', ...env },
    timeout: 180_000, // a hang guard: a loaded machine takes far longer than an idle one
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe('tzidx CLI', function () {
  it('--help lists the commands; every command has its own --help', function () {
    const top = tzidx(['--help']);
    expect(top.code).to.equal(0);
    for (const cmd of ['start', 'serve', 'migrate', 'plugins', 'sandbox']) {
      expect(top.out).to.contain(`  ${cmd}`);
      const sub = tzidx([cmd, '--help']);
      expect(sub.code, cmd).to.equal(0);
      expect(sub.out).to.contain(`tzidx ${cmd}`).and.contain('--data-dir');
    }
  });

  it('unknown commands, unknown flags and bad values fail with a message and exit code 2', function () {
    expect(tzidx(['frobnicate']).code).to.equal(2);
    const flag = tzidx(['migrate', '--colour']);
    expect([flag.code, flag.err]).to.satisfy(([c, e]: [number, string]) => c === 2 && /colour/.test(e));
    const port = tzidx(['migrate', '--port', 'x']);
    expect(port.code).to.equal(2);
    expect(port.err).to.match(/invalid port/);
    const plugin = tzidx(['plugins', '--plugins', 'core-chain,nope']);
    expect(plugin.code).to.equal(2);
    expect(plugin.err).to.match(/unknown plugin 'nope'/);
  });

  it('sandbox rejects unknown profiles and bad numbers', function () {
    const r = tzidx(['sandbox', '--profile', 'huge']);
    expect(r.code).to.equal(2);
    expect(r.err).to.match(/unknown profile 'huge'/);
    expect(tzidx(['sandbox', '--reorg-rate', 'often']).code).to.equal(2);
  });

  it('plugins lists the built-in plugins and marks the enabled ones', function () {
    const r = tzidx(['plugins', '--plugins', 'governance']);
    expect(r.code).to.equal(0);
    expect(r.out).to.match(/^\* governance /m);
    expect(r.out).to.match(/^\* core-chain /m);
    expect(r.out).to.match(/^ {2}markets /m);
  });

  it('bad ports are named as given; --version prints the package version; sandbox --help lists --port once', function () {
    for (const cmd of ['start', 'serve', 'sandbox']) {
      const r = tzidx([cmd, '--port', 'abc']);
      expect(r.code, cmd).to.equal(2);
      expect(r.err, cmd).to.contain("invalid port 'abc'").and.not.contain('NaN');
    }
    const pkg = JSON.parse(fs.readFileSync(path.resolve(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as {
      version: string;
    };
    for (const args of [['--version'], ['-v'], ['start', '--version']]) {
      const r = tzidx(args);
      expect([r.code, r.out.trim()], args.join(' ')).to.deep.equal([0, `tzidx ${pkg.version}`]);
    }
    const help = tzidx(['sandbox', '--help']).out;
    expect(help.match(/^\s+--port /gm), help).to.have.length(1);
    expect(help).to.contain('RPC port');
  });

  it('plugins marks as empty the enabled plugins that declare nothing: no tables, routes or contributions', function () {
    // Two plugins beside the built-in ones: routes and no tables (not empty), and nothing at all (empty).
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tzidx-plugins-'));
    const write = (name: string, contributes: string[], contribution: string): void => {
      fs.mkdirSync(path.join(dir, name));
      const manifest = JSON.stringify({ name, contributes });
      const source = `exports.P = class { static manifest = ${manifest}; setup() { return ${contribution}; } };`;
      fs.writeFileSync(path.join(dir, name, 'plugin.js'), source);
    };
    write('routes-only', ['routes'], '{ routes: () => {} }');
    write('nothing', [], '{}');
    try {
      const yaml = parse(fs.readFileSync(DEFAULTS.catalogFile, 'utf8')) as {
        plugins: Record<string, { tables?: object; routes?: object }>;
      };
      const lines = tzidx(['plugins'], { TZIDX_PLUGIN_PATHS: dir }).out.trim().split('\n');
      const marks = new Map(lines.map((line) => [/^. (\S+)/.exec(line)![1], line[0]]));
      for (const [name, mark] of marks) {
        const file = fs.existsSync(path.join(dir, name))
          ? path.join(dir, name, 'plugin.js')
          : path.resolve(__dirname, '..', '..', 'plugins', name, 'plugin.js');
        // eslint-disable-next-line @typescript-eslint/no-require-imports -- the plugin named by the CLI's output
        const exported: unknown[] = Object.values(require(file) as Record<string, unknown>);
        // The plugin class is the export with a static manifest (a module may export constants beside it).
        const cls = exported.find(
          (v): v is { manifest: PluginManifest } => typeof v === 'function' && 'manifest' in v,
        )!;
        const { tables, routes } = yaml.plugins[name] ?? {};
        const declared = [
          ...Object.keys(tables ?? {}),
          ...Object.keys(routes ?? {}),
          ...(cls.manifest.tableClasses ?? []),
          ...(cls.manifest.contributes ?? ['unknown']),
        ];
        expect(mark, name).to.equal(declared.length > 0 ? '*' : '-');
      }
      expect(marks.get('routes-only')).to.equal('*');
      expect(marks.get('nothing')).to.equal('-');
      expect(marks.get('core-chain')).to.equal('*');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('migrate creates the schemas in the data dir, and a second run changes nothing', function () {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tzidx-cli-'));
    try {
      const first = tzidx(['migrate', '--data-dir', dir]);
      expect(first.code, first.err).to.equal(0);
      // Every table tables.yaml declares, counted from the file itself.
      const catalog = parse(fs.readFileSync(DEFAULTS.catalogFile, 'utf8')) as {
        plugins: Record<string, { tables?: object }>;
      };
      const tables = Object.values(catalog.plugins).reduce((n, p) => n + Object.keys(p.tables ?? {}).length, 0);
      expect(first.out).to.match(new RegExp(`"created":${tables}\\b`));
      const second = tzidx(['migrate', '--data-dir', dir]);
      expect(second.code, second.err).to.equal(0);
      expect(second.out).to.match(new RegExp(`"created":0,"altered":0,"unchanged":${tables}\\b`));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
