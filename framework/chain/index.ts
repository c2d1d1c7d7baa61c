// Public API of the chain-input layer: node RPC client, block sources and the normalized block model.

export type { ChainLogger } from './support/ChainLogger';
export { silentChainLogger } from './support/ChainLogger';
export { abortableSleep, type SleepFn } from './support/abortableSleep';

export type { RpcResponse, RpcTransport } from './rpc/RpcTransport';
export { UndiciRpcTransport, type UndiciRpcTransportOptions } from './rpc/UndiciRpcTransport';
export { RpcRequester, type RpcRequesterOptions } from './rpc/RpcRequester';
export { TezosRpcClient, type TezosRpcClientOptions } from './rpc/TezosRpcClient';
export { ExponentialBackoff, type BackoffOptions } from './rpc/ExponentialBackoff';
export { seededRandom } from '../util/seededRandom';
export { JsonStreamSplitter } from './rpc/JsonStreamSplitter';
export type { BlockId } from './rpc/rpcArguments';
export {
  RpcAbortedError,
  RpcArgumentError,
  RpcError,
  RpcHttpError,
  RpcInvalidJsonError,
  RpcNetworkError,
  RpcNotFoundError,
  RpcTimeoutError,
  RpcUnexpectedResponseError,
  type RpcErrorKind,
} from './rpc/RpcError';
export type {
  AttestationRight,
  BakingRight,
  BallotCounts,
  BallotEntry,
  ContractScript,
  MonitorHead,
  ProposalCount,
  RightsQuery,
  RpcBlockHeader,
  RpcContract,
  VoterListing,
  VotingPeriodInfo,
} from './rpc/RpcTypes';

export type { BlockRef, BlockSource } from './sources/BlockSource';
export { BlockSourceError } from './sources/BlockSourceError';
export { RpcBlockSource, type RpcBlockSourceOptions } from './sources/RpcBlockSource';
export { ArchiveBlockSource, type ArchiveBlockSourceOptions } from './sources/ArchiveBlockSource';
export { ArchiveIndex, type ArchiveEntry } from './sources/ArchiveIndex';
export { selectCanonicalChain } from './sources/canonicalChain';
export { compareFitness } from './sources/fitness';

export type {
  Micheline,
  RawBalanceUpdate,
  RawBlock,
  RawBlockHeader,
  RawBlockMetadata,
  RawContentMetadata,
  RawInternalOperation,
  RawOperationContent,
  RawOperationGroup,
  RawOperationResult,
} from './model/RawBlock';
export { BlockNormalizer, type BlockNormalizerOptions, type GroupContext } from './model/BlockNormalizer';
export { BlockFormatError } from './model/BlockFormatError';
export type { FeatureVote, NormalizedBlock } from './model/NormalizedBlock';
export type { ConsensusInfo, NormalizedOperation, OperationData } from './model/NormalizedOperation';
export type { BalanceUpdate, Staker } from './model/BalanceUpdate';
export { KNOWN_BALANCE_UPDATE_KINDS } from './model/BalanceUpdate';
export type { BigMapDiff, SaplingDiff } from './model/BigMapDiff';
export type { ContractEvent } from './model/ContractEvent';
export type { TicketUpdate } from './model/TicketUpdate';
export type { NormalizeWarning, WarningSink } from './model/NormalizeWarning';
export type { OperationStatus } from './model/OperationStatus';
export {
  CLIENT_OPERATION_TYPES,
  clientOperationType,
  OPERATION_KINDS,
  STAKING_ENTRYPOINTS,
  type KindInfo,
  type OperationPass,
  type OperationType,
  UNKNOWN_OPERATION_TYPE,
} from './model/OperationType';
export { protocolEra, type ProtocolEra } from './model/ProtocolEra';
export { bigMapDiffsFromLazyStorage, bigMapDiffsFromLegacy } from './model/storageDiffs';
export { blindedAddress } from './model/blindedAddress';
