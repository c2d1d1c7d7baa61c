import { createHash } from 'node:crypto';

/** A Micheline node as the node's JSON prints it (the normalized model keeps it as `unknown`). */
interface Prim {
  prim: string;
  args?: unknown[];
  annots?: string[];
}

export function isPrim(node: unknown): node is Prim {
  return typeof node === 'object' && node !== null && !Array.isArray(node) && typeof (node as Prim).prim === 'string';
}

/**
 * Binary Micheline: the node's generic encoding of an expression (the bytes PACK writes after its
 * 0x05 tag when no type is involved). Written here because the codec's PACK validates instructions
 * and rewrites typed literals (`PUSH address "tz1…"` becomes bytes), which is not the generic form
 * the spec's hashes are defined over. Undefined when the expression is not Micheline or names a
 * primitive newer than the table.
 */
export function encodeMicheline(expr: unknown): Buffer | undefined {
  if (expr === undefined || expr === null) return undefined;
  const chunks: Buffer[] = [];
  let length = 0;
  const push = (b: Buffer): void => {
    chunks.push(b);
    length += b.length;
  };
  const u32 = (n: number): void => {
    const b = Buffer.alloc(4);
    b.writeUInt32BE(n);
    push(b);
  };
  /** A 4-byte length to fill in once what follows it is written: the task that fills it. */
  const sized = (): Task => {
    const prefix = Buffer.alloc(4);
    push(prefix);
    return { prefix, start: length };
  };
  const zarith = (text: string): void => {
    let v = BigInt(text);
    const negative = v < 0n;
    if (negative) v = -v;
    const out = [Number(v & 0x3fn) | (negative ? 0x40 : 0)];
    v >>= 6n;
    while (v > 0n) {
      out[out.length - 1] |= 0x80;
      out.push(Number(v & 0x7fn));
      v >>= 7n;
    }
    push(Buffer.from(out));
  };
  const text = (value: string): void => {
    const bytes = Buffer.from(value, 'utf8');
    u32(bytes.length);
    push(bytes);
  };
  // An explicit stack rather than recursion: values nested thousands deep (they exist on chain) must
  // not overflow the call stack. Tasks run last-in first-out, so a node's parts are pushed in reverse.
  type Task = { node: unknown } | { prefix: Buffer; start: number } | { annots: string[] };
  const tasks: Task[] = [{ node: expr }];
  const pushNodes = (nodes: unknown[]): void => {
    for (let i = nodes.length - 1; i >= 0; i--) tasks.push({ node: nodes[i] });
  };
  try {
    for (let task = tasks.pop(); task !== undefined; task = tasks.pop()) {
      if ('prefix' in task) task.prefix.writeUInt32BE(length - task.start);
      else if ('annots' in task) text(task.annots.join(' '));
      else write(task.node);
    }
    return Buffer.concat(chunks);
  } catch {
    return undefined;
  }

  function write(node: unknown): void {
    if (Array.isArray(node)) {
      push(Buffer.from([0x02]));
      tasks.push(sized());
      pushNodes(node);
    } else if (isPrim(node)) {
      const code = PRIMITIVE_CODES.get(node.prim);
      if (code === undefined) throw new Error(`unknown primitive ${node.prim}`);
      const args = node.args ?? [];
      const annots = node.annots ?? [];
      if (args.length <= 2) {
        push(Buffer.from([0x03 + 2 * args.length + (annots.length > 0 ? 1 : 0), code]));
        if (annots.length > 0) tasks.push({ annots });
      } else {
        push(Buffer.from([0x09, code]));
        tasks.push({ annots }, sized());
      }
      pushNodes(args);
    } else if (typeof node === 'object' && node !== null && typeof (node as { int?: unknown }).int === 'string') {
      push(Buffer.from([0x00]));
      zarith((node as { int: string }).int);
    } else if (typeof node === 'object' && node !== null && typeof (node as { string?: unknown }).string === 'string') {
      push(Buffer.from([0x01]));
      text((node as { string: string }).string);
    } else if (typeof node === 'object' && node !== null && typeof (node as { bytes?: unknown }).bytes === 'string') {
      const bytes = Buffer.from((node as { bytes: string }).bytes, 'hex');
      push(Buffer.from([0x0a]));
      u32(bytes.length);
      push(bytes);
    } else {
      throw new Error('not a Micheline expression');
    }
  }
}

/**
 * Michelson primitives by binary code (the protocol's encoding table; position = code; a test
 * checks it against the codec's).
 */
export const PRIMITIVES: readonly string[] = (
  'parameter storage code False Elt Left None Pair Right Some True Unit PACK UNPACK BLAKE2B SHA256 SHA512 ABS ADD AMOUNT AND ' +
  'BALANCE CAR CDR CHECK_SIGNATURE COMPARE CONCAT CONS CREATE_ACCOUNT CREATE_CONTRACT IMPLICIT_ACCOUNT DIP DROP DUP EDIV ' +
  'EMPTY_MAP EMPTY_SET EQ EXEC FAILWITH GE GET GT HASH_KEY IF IF_CONS IF_LEFT IF_NONE INT LAMBDA LE LEFT LOOP LSL LSR LT MAP ' +
  'MEM MUL NEG NEQ NIL NONE NOT NOW OR PAIR PUSH RIGHT SIZE SOME SOURCE SENDER SELF STEPS_TO_QUOTA SUB SWAP TRANSFER_TOKENS ' +
  'SET_DELEGATE UNIT UPDATE XOR ITER LOOP_LEFT ADDRESS CONTRACT ISNAT CAST RENAME bool contract int key key_hash lambda list ' +
  'map big_map nat option or pair set signature string bytes mutez timestamp unit operation address SLICE DIG DUG ' +
  'EMPTY_BIG_MAP APPLY chain_id CHAIN_ID LEVEL SELF_ADDRESS never NEVER UNPAIR VOTING_POWER TOTAL_VOTING_POWER KECCAK SHA3 ' +
  'PAIRING_CHECK bls12_381_g1 bls12_381_g2 bls12_381_fr sapling_state sapling_transaction_deprecated SAPLING_EMPTY_STATE ' +
  'SAPLING_VERIFY_UPDATE ticket TICKET_DEPRECATED READ_TICKET SPLIT_TICKET JOIN_TICKETS GET_AND_UPDATE chest chest_key ' +
  'OPEN_CHEST VIEW view constant SUB_MUTEZ tx_rollup_l2_address MIN_BLOCK_TIME sapling_transaction EMIT Lambda_rec ' +
  'LAMBDA_REC TICKET BYTES NAT Ticket IS_IMPLICIT_ACCOUNT INDEX_ADDRESS GET_ADDRESS_INDEX'
).split(' ');

const PRIMITIVE_CODES: ReadonlyMap<string, number> = new Map(PRIMITIVES.map((name, code) => [name, code]));

/** Reads binary Micheline (as `encodeMicheline` writes it) back to its JSON form; throws on malformed input. */
export function decodeMicheline(bytes: Buffer): unknown {
  let pos = 0;
  const need = (n: number): void => {
    if (pos + n > bytes.length) throw new Error('binary Micheline ends early');
  };
  const u8 = (): number => {
    need(1);
    return bytes[pos++];
  };
  const u32 = (): number => {
    need(4);
    const v = bytes.readUInt32BE(pos);
    pos += 4;
    return v;
  };
  const chunk = (): Buffer => {
    const n = u32();
    need(n);
    return bytes.subarray(pos, (pos += n));
  };
  const zarith = (): string => {
    let b = u8();
    const negative = (b & 0x40) !== 0;
    let value = BigInt(b & 0x3f);
    let shift = 6n;
    while (b & 0x80) {
      b = u8();
      value |= BigInt(b & 0x7f) << shift;
      shift += 7n;
    }
    return (negative ? -value : value).toString();
  };
  const prim = (): string => {
    const code = u8();
    const name = PRIMITIVES[code];
    if (name === undefined) throw new Error(`unknown primitive code ${code}`);
    return name;
  };
  const annots = (): string[] =>
    chunk()
      .toString('utf8')
      .split(' ')
      .filter((a) => a !== '');
  const node = (name: string, args: unknown[], annotations: string[]): unknown => ({
    prim: name,
    ...(args.length > 0 ? { args } : {}),
    ...(annotations.length > 0 ? { annots: annotations } : {}),
  });
  const expr = (): unknown => {
    const tag = u8();
    switch (tag) {
      case 0x00:
        return { int: zarith() };
      case 0x01:
        return { string: chunk().toString('utf8') };
      case 0x02: {
        const end = u32() + pos;
        const items: unknown[] = [];
        while (pos < end) items.push(expr());
        return items;
      }
      case 0x03:
        return node(prim(), [], []);
      case 0x04: {
        const name = prim();
        return node(name, [], annots());
      }
      case 0x05:
      case 0x07: {
        const name = prim();
        const args = tag === 0x05 ? [expr()] : [expr(), expr()];
        return node(name, args, []);
      }
      case 0x06:
      case 0x08: {
        const name = prim();
        const args = tag === 0x06 ? [expr()] : [expr(), expr()];
        return node(name, args, annots());
      }
      case 0x09: {
        const name = prim();
        const end = u32() + pos;
        const args: unknown[] = [];
        while (pos < end) args.push(expr());
        return node(name, args, annots());
      }
      case 0x0a:
        return { bytes: chunk().toString('hex') };
      default:
        throw new Error(`unknown Micheline tag ${tag}`);
    }
  };
  const value = expr();
  if (pos !== bytes.length) throw new Error('trailing bytes after binary Micheline');
  return value;
}

/** The expression with every annotation removed (event type hashes are defined over the bare type). */
export function withoutAnnotations(expr: unknown): unknown {
  // A copy built with an explicit stack (see walkMicheline): each task fills one slot of its parent.
  const root: unknown[] = [undefined];
  const tasks: Array<{ node: unknown; into: unknown[]; at: number }> = [{ node: expr, into: root, at: 0 }];
  const copyInto = (nodes: unknown[], into: unknown[]): void => {
    nodes.forEach((node, at) => tasks.push({ node, into, at }));
  };
  for (let task = tasks.pop(); task !== undefined; task = tasks.pop()) {
    const { node, into, at } = task;
    if (Array.isArray(node)) copyInto(node, (into[at] = new Array<unknown>(node.length)) as unknown[]);
    else if (!isPrim(node)) into[at] = node;
    else if (node.args === undefined) into[at] = { prim: node.prim };
    else {
      const args = new Array<unknown>(node.args.length);
      into[at] = { prim: node.prim, args };
      copyInto(node.args, args);
    }
  }
  return root[0];
}

/** The spec's 8-byte hash: the first 8 bytes of SHA-256 over the binary encoding, as hex. */
export function hash8(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest().subarray(0, 8).toString('hex');
}

/** Hex hash8 of an expression, or null when it cannot be encoded. */
export function exprHash(expr: unknown): string | null {
  const bytes = encodeMicheline(expr);
  return bytes ? hash8(bytes) : null;
}

/** `code` and `storage` as the node's binary `script` field: each a 4-byte big-endian length, then the bytes. */
export function scriptBytes(code: Buffer, storage: Buffer): Buffer {
  const out = Buffer.alloc(8 + code.length + storage.length);
  out.writeUInt32BE(code.length, 0);
  code.copy(out, 4);
  out.writeUInt32BE(storage.length, 4 + code.length);
  storage.copy(out, 8 + code.length);
  return out;
}

/** The section `parameter`, `storage` or `code` of a script's code list. */
export function section(code: unknown, name: string): unknown {
  if (!Array.isArray(code)) return undefined;
  const s = code.find((c) => isPrim(c) && c.prim === name);
  return isPrim(s) ? s.args?.[0] : undefined;
}

/**
 * Entrypoints in the order of the parameter type's `or` leaves, depth first from the left (the
 * order entrypoint ids and call counters use). A leaf without a field annotation is named by its
 * position; a parameter that is not an `or` is the single entrypoint `default`.
 */
export function entrypointsOf(parameterType: unknown): string[] {
  if (!isPrim(parameterType)) return [];
  if (parameterType.prim !== 'or') return [fieldName(parameterType) ?? 'default'];
  const out: string[] = [];
  walkMicheline(parameterType, (t) => {
    if (isPrim(t) && t.prim === 'or' && t.args?.length === 2) return t.args;
    out.push((isPrim(t) ? fieldName(t) : undefined) ?? `@${out.length}`);
    return undefined;
  });
  return out;
}

/**
 * Visits an expression's nodes depth first, left to right, each before its children: the ones `visit`
 * returns. An explicit stack, not recursion: chain values and types can be nested thousands deep.
 */
export function walkMicheline(expr: unknown, visit: (node: unknown) => readonly unknown[] | undefined): void {
  const stack: unknown[] = [expr];
  while (stack.length > 0) {
    const children = visit(stack.pop());
    if (children) for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
  }
}

function fieldName(t: Prim): string | undefined {
  const annot = t.annots?.find((a) => a.startsWith('%'));
  return annot === undefined ? undefined : annot.slice(1);
}

/** The type of one entrypoint (leaf or annotated branch), annotations kept; undefined if absent. */
export function entrypointType(parameterType: unknown, name: string): unknown {
  let found: unknown;
  walkMicheline(parameterType, (t) => {
    if (found !== undefined || !isPrim(t)) return undefined;
    if (fieldName(t) === name) found = t;
    return t.prim === 'or' && found === undefined ? t.args : undefined;
  });
  return found;
}

/** A type written without annotations, n-ary pairs as right combs: two types are alike when their shapes are equal. */
export function typeShape(t: unknown): string {
  // Written with an explicit stack of nodes and text (see walkMicheline); an n-ary pair is a comb
  // from its i-th argument on.
  type Item = unknown | { text: string } | { comb: unknown[]; from: number };
  const out: string[] = [];
  const stack: Item[] = [t];
  const push = (...items: Item[]): void => {
    for (let i = items.length - 1; i >= 0; i--) stack.push(items[i]);
  };
  while (stack.length > 0) {
    const item = stack.pop();
    if (isText(item)) out.push(item.text);
    else if (isComb(item)) {
      const last = item.from + 2 === item.comb.length;
      const rest = last ? item.comb[item.from + 1] : { comb: item.comb, from: item.from + 1 };
      push({ text: '(pair ' }, item.comb[item.from], { text: ' ' }, rest, { text: ')' });
    } else if (!isPrim(item)) out.push('?');
    else if (item.args === undefined || item.args.length === 0) out.push(item.prim);
    else if (item.prim === 'pair' && item.args.length > 2) push({ comb: item.args, from: 0 });
    else push({ text: `(${item.prim}` }, ...item.args.flatMap((a) => [{ text: ' ' }, a]), { text: ')' });
  }
  return out.join('');
}

const isText = (item: unknown): item is { text: string } =>
  typeof (item as { text?: unknown } | null)?.text === 'string' && !isPrim(item);
const isComb = (item: unknown): item is { comb: unknown[]; from: number } =>
  Array.isArray((item as { comb?: unknown } | null)?.comb);

const INTERFACES: ReadonlyArray<{ name: string; entrypoints: Record<string, string> }> = [
  {
    name: 'FA1.2',
    entrypoints: {
      transfer: '(pair address (pair address nat))',
      approve: '(pair address nat)',
      getAllowance: '(pair (pair address address) (contract nat))',
      getBalance: '(pair address (contract nat))',
      getTotalSupply: '(pair unit (contract nat))',
    },
  },
  {
    name: 'FA2',
    entrypoints: {
      transfer: '(list (pair address (list (pair address (pair nat nat)))))',
      balance_of: '(pair (list (pair address nat)) (contract (list (pair (pair address nat) nat))))',
      update_operators: '(list (or (pair address (pair address nat)) (pair address (pair address nat))))',
    },
  },
];

/** Token standards whose every entrypoint the parameter type declares with the standard's type. */
export function interfacesOf(parameterType: unknown): string[] {
  return INTERFACES.filter((i) =>
    Object.entries(i.entrypoints).every(([name, type]) => typeShape(entrypointType(parameterType, name)) === type),
  ).map((i) => i.name);
}

// Primitives (instructions, types, sections) that mark a feature of a script.
const FEATURE_BY_PRIM: Readonly<Record<string, string>> = {
  CREATE_CONTRACT: 'contract_factory',
  SET_DELEGATE: 'set_delegate',
  LAMBDA: 'lambda',
  LAMBDA_REC: 'lambda',
  EXEC: 'lambda',
  APPLY: 'lambda',
  TRANSFER_TOKENS: 'transfer_tokens',
  CHAIN_ID: 'chain_id',
  ticket: 'ticket',
  TICKET: 'ticket',
  TICKET_DEPRECATED: 'ticket',
  READ_TICKET: 'ticket',
  SPLIT_TICKET: 'ticket',
  JOIN_TICKETS: 'ticket',
  sapling_state: 'sapling',
  sapling_transaction: 'sapling',
  sapling_transaction_deprecated: 'sapling',
  SAPLING_VERIFY_UPDATE: 'sapling',
  SAPLING_EMPTY_STATE: 'sapling',
  view: 'view',
  VIEW: 'view',
  constant: 'global_constant',
  chest: 'timelock',
  OPEN_CHEST: 'timelock',
  EMIT: 'event',
};

/** Features used anywhere in an expression (code or constant value), sorted, comma-separated. */
export function featuresOf(expr: unknown): string {
  const found = new Set<string>();
  walkMicheline(expr, (node) => {
    if (Array.isArray(node)) return node;
    if (!isPrim(node)) return undefined;
    const feature = FEATURE_BY_PRIM[node.prim];
    if (feature) found.add(feature);
    return node.args;
  });
  return [...found].sort().join(',');
}
