/** The sandbox chain: a deterministic simulated Tezos node (see docs/sandbox.md). */
export {
  SandboxChain,
  SANDBOX_PROTOCOL,
  GENESIS_PROTOCOL,
  type SandboxChainOptions,
  type HeadEvent,
} from './SandboxChain';
export { SandboxNode, type RpcResponse } from './SandboxNode';
export { SandboxRpcTransport } from './SandboxRpcTransport';
export { startSandboxServer, type SandboxServerOptions, type SandboxServer } from './SandboxHttpServer';
export {
  PROFILES,
  PROFILE_NAMES,
  resolveProfile,
  type SandboxProfile,
  type SandboxProfileName,
  type ManagerFamily,
} from './profiles';
export type { StoredBlock } from './BlockStore';
export type { LedgerView } from './LedgerView';
export type { StakeDistribution, StakeShare } from './StakeSnapshots';
export type { KnownContract } from './contracts/ContractRegistry';
export type { ContractRole } from './contracts/ContractModel';
