import { expect } from 'chai';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Browser } from 'puppeteer-core' with { 'resolution-mode': 'import' };
import { BUILTIN_PLUGIN_DIR } from '../../framework/app/TzidxApp';
import { discoverPlugins } from '../../framework/plugins/PluginDiscovery';
import { SandboxChain } from '../../framework/sandbox';
import { indexSandbox } from '../support/IndexHarness';
import { BACKEND } from '../support/TestDatabase';
import { startTestInstance, TestInstance } from '../support/TestInstance';

/** Debian's chromium (CI installs it, see .ci/run); CHROMIUM_PATH overrides. */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const SCREENSHOT = path.resolve(__dirname, '..', '..', 'screenshots', 'docs.png');

describe(`/docs in a real headless Chromium (${BACKEND})`, function () {
  this.timeout(180_000);
  let t: TestInstance;
  let browser: Browser;
  let profile: string;
  let chain: SandboxChain;

  before(async function () {
    if (!fs.existsSync(CHROMIUM)) {
      const why = `no Chromium at ${CHROMIUM} (apt-get install -y chromium, or set CHROMIUM_PATH)`;
      // CI installs it (.ci/run): there a missing browser is a failure, not a skip.
      if (process.env.CI) throw new Error(why);
      console.log(`      SKIPPED: ${why}`);
      this.skip();
    }
    t = await startTestInstance({ plugins: discoverPlugins([BUILTIN_PLUGIN_DIR]) });
    chain = new SandboxChain({ seed: 'docs', profile: 'tiny' });
    chain.bake(12);
    await indexSandbox(t, chain);
    profile = fs.mkdtempSync(path.join(os.tmpdir(), 'tzidx-chromium-'));
    // An ES module: loaded natively (module node16 keeps import() as is).
    const { default: puppeteer } = await import('puppeteer-core');
    browser = await puppeteer.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        `--user-data-dir=${profile}`,
      ],
    });
  });
  after(async () => {
    await browser?.close();
    await t?.close();
    if (profile) fs.rmSync(profile, { recursive: true, force: true });
  });

  it('loads offline without console errors, shows every enabled table and the status, and "try it" returns data', async () => {
    const page = await browser.newPage();
    await page.setViewport({ width: 1280, height: 1600 });
    const problems: string[] = [];
    const origin = new URL(t.url).origin;
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`console: ${m.text()}`);
    });
    page.on('pageerror', (e) => problems.push(`page error: ${(e as Error).message}`));
    page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()}`));
    await page.setRequestInterception(true);
    page.on('request', (r) => {
      // Offline: everything the page loads comes from this server.
      if (!r.url().startsWith(origin) && !r.url().startsWith('data:')) {
        problems.push(`external request: ${r.url()}`);
        void r.abort();
      } else void r.continue();
    });

    await page.goto(`${t.url}/docs`, { waitUntil: 'networkidle0' });
    await page.waitForSelector('.opblock-tag', { timeout: 60_000 });
    // Page-side code as strings: this project compiles without the DOM types. Each plugin's section opens
    // on a click: open them one at a time, read what they list, close them again.
    const tags = (await page.evaluate(`[...document.querySelectorAll('.opblock-tag')].map((e) => e.id)`)) as string[];
    expect(tags.length, 'plugin sections').to.be.greaterThan(5);
    let text = '';
    for (const id of tags) {
      const tag = `document.getElementById(${JSON.stringify(id)})`;
      await page.evaluate(`${tag}.click()`);
      await page.waitForFunction(`${tag}.parentElement.querySelector('.opblock') !== null`, { timeout: 30_000 });
      text += (await page.evaluate(`${tag}.parentElement.innerText`)) as string;
      await page.evaluate(`${tag}.click()`);
    }
    for (const code of t.app.catalog.tables.keys()) expect(text, `table ${code}`).to.include(`/tables/${code}`);
    for (const code of t.app.catalog.series.keys()) expect(text, `series ${code}`).to.include(`/series/${code}`);
    await page.waitForFunction(`document.getElementById('st-indexed').textContent !== '…'`);
    expect(await page.$eval('#st-indexed', (e) => e.textContent)).to.equal(String(chain.headLevel));
    expect(await page.$eval('#st-plugins', (e) => e.textContent))
      .to.include('core-chain')
      .and.include('bigmaps');

    fs.mkdirSync(path.dirname(SCREENSHOT), { recursive: true });
    await page.screenshot({ path: SCREENSHOT as `${string}.png` });

    // "Try it out" on /tables/block: the answer holds the chain's blocks.
    await page.click('#operations-tag-core-chain');
    const op = '#operations-core-chain-table_block';
    await page.waitForSelector(op);
    await page.click(`${op} .opblock-summary-control`);
    await page.waitForSelector(`${op} .try-out__btn`);
    await page.click(`${op} .try-out__btn`);
    await page.waitForSelector(`${op} .execute`);
    await page.click(`${op} .execute`);
    const row = `${op} .live-responses-table tbody tr.response`;
    await page.waitForSelector(row, { timeout: 30_000 });
    const status = await page.$eval(`${row} .response-col_status`, (e) => e.textContent?.trim());
    expect(status).to.equal('200');
    const body = await page.$eval(`${row} .response-col_description`, (e) => e.textContent ?? '');
    for (const level of [1, chain.headLevel]) expect(body).to.include(chain.at(level)!.hash);

    const tryIt = SCREENSHOT.replace(/\.png$/, '-try-it.png') as `${string}.png`;
    await page.screenshot({ path: tryIt });
    console.log(`      screenshots: ${SCREENSHOT}, ${tryIt}`);
    expect(problems).to.deep.equal([]);
  });
});
