import type { RpcResponse, RpcTransport } from '../../framework/chain/rpc/RpcTransport';
import { SandboxChain, SandboxRpcTransport } from '../../framework/sandbox';

/** Why: hostile chain values must go through the real indexer path, so tests edit real sandbox blocks. */
export type RawJson = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * The sandbox node, with some blocks replaced by edited copies (by level and by hash). An edit may put
 * `{"placeholder": n}` objects in the block; they are replaced by `texts[n]` in the answer, so values
 * nested deeper than JSON.stringify can write reach the indexer as a node would send them.
 */
export class CraftedNode implements RpcTransport {
  private readonly inner: SandboxRpcTransport;
  private readonly bodies = new Map<string, string>();

  constructor(chain: SandboxChain, edits: Record<number, (block: RawJson) => void>, texts: readonly string[] = []) {
    this.inner = new SandboxRpcTransport(chain);
    for (const [level, edit] of Object.entries(edits)) {
      const block = JSON.parse(chain.blockJson(chain.at(Number(level))!)) as RawJson;
      edit(block);
      const body = JSON.stringify(block).replace(/\{"placeholder":(\d+)\}/g, (_, i: string) => texts[Number(i)]);
      this.bodies.set(level, body);
      this.bodies.set(block.hash as string, body);
    }
  }

  async get(path: string): Promise<RpcResponse> {
    const id = /^\/chains\/main\/blocks\/([^/?]+)$/.exec(path)?.[1];
    const body = id === undefined ? undefined : this.bodies.get(id);
    return body === undefined ? this.inner.get(path) : { status: 200, body };
  }

  monitorHeads(signal: AbortSignal): AsyncIterable<unknown> {
    return this.inner.monitorHeads(signal);
  }
}

/** A block's applied transaction to `destination` (the first one). */
export function transactionTo(block: RawJson, destination: string): RawJson {
  const ops = (block.operations as RawJson[][]).flat().flatMap((g) => g.contents as RawJson[]);
  const op = ops.find((c) => c.kind === 'transaction' && c.destination === destination);
  if (!op) throw new Error(`no transaction to ${destination} in block ${block.header.level}`);
  return op;
}

/** Micheline text `depth` levels deep (`Some (Some … 1)`, or another prim and leaf): past JSON.stringify. */
export function deepMichelineText(depth: number, prim = 'Some', leaf = '{"int":"1"}'): string {
  return `{"prim":"${prim}","args":[`.repeat(depth) + leaf + ']}'.repeat(depth);
}
