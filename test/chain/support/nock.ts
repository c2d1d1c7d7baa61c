import './promiseWithResolvers';
import type NockModule from 'nock' with { 'resolution-mode': 'import' };

// nock 15 ships ESM only; the tests compile to CommonJS, so it is loaded through Node's require(esm).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const nock = (require('nock') as { default: typeof NockModule }).default;

// Importing nock patches Node's networking for the whole test process; keep it off outside the
// suites that ask for it, so other suites (database, HTTP server) run on untouched sockets.
if (nock.isActive()) nock.restore();

/** Mocha hooks for the calling suite: nock intercepts while it runs, mocks are cleared after each test. */
export function interceptHttpInSuite(): void {
  before(() => {
    if (!nock.isActive()) nock.activate();
  });
  afterEach(() => nock.cleanAll());
  after(() => {
    nock.cleanAll();
    nock.restore();
  });
}

export type Interceptor = NockModule.Interceptor;
export type Scope = NockModule.Scope;
export default nock;
