import { Parser } from '@taquito/michel-codec';
import type { KnownCode } from '../../../framework';
import { ContractTypes } from '../../../framework/michelson/ContractTypes';

/*
 * Why: each adapter ships its protocol's real parameter and storage types (Michelson text copied from a
 * real script or the protocol's source, cited beside it), so a pool met with no node and no origination
 * seen is read with them (framework `KnownCode`): recognized and decoded at its first call.
 */

/** A Michelson type expression as the node's JSON (Micheline) prints it, for types written as objects. */
export interface TypeExpr {
  prim: string;
  args?: TypeExpr[];
  annots?: string[];
}

/** Types from Michelson text (the `parameter` and `storage` sections' contents). */
export function michelsonTypes(parameter: string, storage: string): ContractTypes {
  // Plain objects, as a node's JSON (the parser's have no prototype).
  const parse = (text: string): unknown => JSON.parse(JSON.stringify(new Parser().parseMichelineExpression(text)));
  return ContractTypes.fromJSON({ parameter: parse(parameter), storage: parse(storage), codeHash: null });
}

/** A version: its name in logs, types, the code hashes of the scripts at hand, the entrypoints that tell it. */
export function knownCode(
  name: string,
  sections: { parameter: string; storage: string },
  codeHashes: readonly string[],
  signature: readonly string[],
): KnownCode {
  return { name, types: michelsonTypes(sections.parameter, sections.storage), codeHashes, signature };
}
