import type { SandboxExtension } from '../../framework/sandbox/extension';
import { registerYupana, seedYupana, yupanaMarket } from './adapters/yupana/sandbox';
import { lendingCall } from './adapters/yupana/traffic';

/** The lending protocols' simulators: a Yupana-style market and 20% of the `defi` traffic. */
export const sandbox: SandboxExtension = {
  name: 'defi-lending',
  register: (contracts, book) => registerYupana(contracts, book),
  bootstrap: seedYupana,
  traffic: [{ name: 'defi-lending:yupana', weight: 1, build: (ctx) => lendingCall(ctx, yupanaMarket(ctx.contracts)) }],
};
