/**
 * What plugins' simulators (`plugins/<name>/sandbox.ts`) build on: the extension hook, contract
 * models and the pieces of the chain they touch. Only simulators import this; plugins' indexing code
 * never does (the sandbox stays a leaf that only the CLI/app loads).
 */
export type { GenesisContext, ProtocolSimulator, SandboxExtension, TrafficSource } from './SandboxExtension';
export { protocolSimulators } from './SandboxExtension';
export type { AccountBook, Account } from './AccountBook';
export { BalanceUpdates } from './BalanceUpdates';
export type { BlockContext } from './BlockContext';
export { CallContext, type ContractModel, type ContractRole } from './contracts/ContractModel';
export { ContractRegistry, KNOWN_ADDRESSES } from './contracts/ContractRegistry';
export { Fa12Token } from './contracts/Fa12Token';
export { bigMapGet, LazyStorageDiff } from './contracts/LazyStorageDiff';
export { PositionBook } from './contracts/PositionBook';
export {
  entrypoints,
  namedPairT,
  pairT,
  script,
  shippedScript,
  tAddress,
  tBigMap,
  tBool,
  tBytes,
  tInt,
  tMutez,
  tNat,
  tString,
  tTimestamp,
  tUnit,
} from './contracts/scripts';
export { NULL_ADDRESS } from './Genesis';
export { asMicheline } from '../michelson/PlainMicheline';
export type { BigMapValue } from '../michelson/PlainTypes';
export type { LaunchStep } from './Launch';
export { modelOrigination } from './operations/OriginationFactory';
export { tokenTransferContent } from './operations/ContractCallFactory';
export { originatedAddress } from './Keys';
export {
  addressBytes,
  annotated,
  bool,
  combItems,
  int,
  intOf,
  left,
  pair,
  prim,
  right,
  some,
  str,
  stringOf,
  t,
  unit,
  type Micheline,
} from './Michelson';
export {
  ContentFailure,
  ManagerGroupBuilder,
  scriptRejected,
  type Applied,
  type ManagerContent,
} from './operations/ManagerGroup';
export { logAmount, pickSource, TEZ } from './operations/Sources';
export { LB_SUBSIDY } from './Rewards';
