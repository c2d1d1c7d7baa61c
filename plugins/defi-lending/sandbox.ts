import type { SandboxExtension } from '../../framework/sandbox/extension';
import { ctezCall, registerCtez, seedCtez } from './adapters/ctez/sim/sandbox';
import { registerYupana, seedYupana, yupanaMarket } from './adapters/yupana/sim/sandbox';
import { lendingCall } from './adapters/yupana/sim/traffic';

/** The lending protocols' simulators: a Yupana-style market and ctez ovens, with their shares of the `defi` traffic. */
export const sandbox: SandboxExtension = {
  name: 'defi-lending',
  register: (contracts, book, errorPrefix) => {
    registerYupana(contracts, book);
    registerCtez(contracts, book, errorPrefix);
  },
  bootstrap: (g) => {
    seedYupana(g);
    seedCtez(g);
  },
  traffic: [
    { name: 'defi-lending:yupana', weight: 1, build: (ctx) => lendingCall(ctx, yupanaMarket(ctx.contracts)) },
    { name: 'defi-lending:ctez', weight: 0.3, build: ctezCall },
  ],
};
