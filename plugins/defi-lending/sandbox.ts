import * as path from 'node:path';
import { protocolSimulators, type SandboxExtension } from '../../framework/sandbox/extension';

/**
 * The lending protocols' simulators, each in its adapter folder's `sim/` (found there, in their order): a
 * Yupana-style market and ctez ovens, with their shares of the `defi` traffic.
 */
export const sandbox: SandboxExtension = protocolSimulators('defi-lending', path.join(__dirname, 'adapters'));
