import { encodeMicheline, entrypointsOf, hash8, interfacesOf, section } from './Michelson';
import { entrypointArgType } from './MichelsonTypes';
import { plainValue, PlainOptions } from './PlainValue';

/** The persisted form of ContractTypes (a watch row keeps it so restarts need no node). */
export interface ContractTypesJson {
  parameter: unknown;
  storage: unknown;
  codeHash: string | null;
}

/**
 * What protocol adapters need of a contract's code: its parameter and storage types (to decode calls
 * and storage into plain values), the code hash core-chain shows (`code_hash`), its entrypoints and
 * the token standards it follows (to recognise a contract by signature).
 */
export class ContractTypes {
  readonly entrypoints: readonly string[];
  readonly interfaces: readonly string[];

  private constructor(
    readonly parameterType: unknown,
    readonly storageType: unknown,
    readonly codeHash: string | null,
  ) {
    this.entrypoints = entrypointsOf(parameterType);
    this.interfaces = interfacesOf(parameterType);
  }

  /** From a script's code list (`[parameter, storage, code, …]`); undefined when it has none. */
  static fromCode(code: unknown): ContractTypes | undefined {
    const parameter = section(code, 'parameter');
    if (!Array.isArray(code) || parameter === undefined) return undefined;
    const bytes = encodeMicheline(code);
    return new ContractTypes(parameter, section(code, 'storage'), bytes ? hash8(bytes) : null);
  }

  /** From an origination's or the node's `script` (`{code, storage}`). */
  static fromScript(script: unknown): ContractTypes | undefined {
    return typeof script === 'object' && script !== null
      ? ContractTypes.fromCode((script as { code?: unknown }).code)
      : undefined;
  }

  static fromJSON(j: ContractTypesJson): ContractTypes {
    return new ContractTypes(j.parameter, j.storage, j.codeHash);
  }

  toJSON(): ContractTypesJson {
    return { parameter: this.parameterType, storage: this.storageType, codeHash: this.codeHash };
  }

  /** The call's argument as plain values; undefined when the entrypoint is not the contract's. */
  parameters(entrypoint: string | undefined, value: unknown, options?: PlainOptions): unknown {
    const type = entrypointArgType(this.parameterType, entrypoint ?? 'default');
    return type === undefined ? undefined : plainValue(type, value, options);
  }

  storage(value: unknown, options?: PlainOptions): unknown {
    return plainValue(this.storageType, value, options);
  }
}
