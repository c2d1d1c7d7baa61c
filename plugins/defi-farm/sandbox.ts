import * as path from 'node:path';
import { protocolSimulators, type SandboxExtension } from '../../framework/sandbox/extension';

/**
 * The farm protocols' simulators, each in its adapter folder's `sim/` (found there): a Plenty LP farm, a QuipuSwap
 * TFarm and a Youves savings pool, each with a share of the `defi` traffic.
 */
export const sandbox: SandboxExtension = protocolSimulators('defi-farm', path.join(__dirname, 'adapters'));
