import { createHash } from 'node:crypto';
import { packDataBytes, type MichelsonData } from '@taquito/michel-codec';
import { expect } from 'chai';
import type { Json } from '../../chain/support/Json';
import type { Obj } from './api';
import { blockCycle, ExpectedOperation, tezToMutezNumber } from './rawOperations';

/** One explorer operation object (fetched with prim=1) against what the node JSON says about that row. */
export function checkOperation(o: Obj, e: ExpectedOperation, block: Json, headLevel: number): void {
  const at = `${e.hash} op_n ${o.op_n} (${e.type})`;
  expect(o, at).to.include({
    hash: e.hash,
    type: e.type,
    status: e.status,
    is_success: e.status === 'applied',
    is_internal: e.isInternal,
  });
  expect(o, at).to.include({
    is_contract: e.isContract,
    is_event: false,
    block: block.hash,
    height: block.header.level,
    time: block.header.timestamp,
  });
  expect(o.cycle, at).to.equal(blockCycle(block));
  expect(o.op_l, at).to.equal(e.opL);
  expect(o.confirmations, at).to.equal(headLevel - block.header.level);
  if (e.fee !== undefined) expect(tezToMutezNumber(o.fee), at).to.equal(e.fee);
  if (e.volume !== undefined) expect(tezToMutezNumber(o.volume), at).to.equal(e.volume);
  expect(BigInt(o.gas_used), at).to.equal(e.gasUsed);
  expect(BigInt(o.gas_limit), at).to.equal(e.gasLimit);
  expect(BigInt(o.storage_limit), at).to.equal(e.storageLimit);
  expect(BigInt(o.storage_paid), at).to.equal(e.storagePaid);
  expect(o.counter, at).to.equal(e.counter);
  expect(o.sender, at).to.equal(e.sender);
  expect(o.receiver, at).to.equal(e.type === 'delegation' ? o.previous_baker : e.receiver);
  expect(o.source, at).to.equal(e.source);
  // Always there, "" for none (the SDK's Op reads creator and baker as table columns; issue #51).
  expect(o.baker, at).to.equal(e.baker ?? '');
  expect(o.accuser, at).to.equal(e.accuser);
  expect(o.offender, at).to.equal(e.offender);
  if (e.type === 'origination') expect(o.creator, at).to.equal(e.creator);
  expect(o.creator, at).to.be.a('string');
  expect(o.parameters?.entrypoint, at).to.equal(e.entrypoint);
  expect(o.parameters?.prim, at).to.deep.equal(e.parameters);
  if (e.ticket) expect(o.parameters, at).to.deep.include(e.ticket);
  if (e.revealedKey !== undefined) expect(o.data, at).to.equal(e.revealedKey);
  if (e.slots !== undefined) {
    expect(BigInt(o.data), at).to.equal(e.slots.reduce((mask, slot) => mask | (1n << BigInt(slot)), 0n));
  }
  if (e.script !== undefined) expect(o.script, at).to.deep.equal(e.script);
  if (e.value !== undefined) expect(o.value, at).to.deep.equal(e.value);
  if (e.solution !== undefined) {
    expect(o.solution, at).to.equal(e.solution[0]);
    expect(o.proof, at).to.equal(e.solution[1]);
    expect(o.data, at).to.equal(e.solution.join(''));
  }
  if (e.revealedLevel !== undefined) expect(o.data.split(',')[0], at).to.equal(String(e.revealedLevel));
  expect(o.power, at).to.equal(e.power);
  expect(o.level, at).to.equal(e.level);
  if (e.limit !== undefined) expect(o.limit === null ? null : tezToMutezNumber(o.limit), at).to.equal(e.limit);
  else expect(o, at).not.to.have.property('limit');
  const events = o.events?.map((x: Obj) => ({ contract: x.contract, type: x.type, payload: x.payload, tag: x.tag }));
  expect(events, at).to.deep.equal(e.events);
  for (const x of o.events ?? []) expect(x.type_hash, at).to.equal(typeHash(x.type));
  for (const x of [...(o.ticket_updates ?? []), ...(o.events ?? [])])
    expect(x.id ?? x.row_id, `${at}: row id`)
      .to.be.a('number')
      .above(0);
  const tickets = o.ticket_updates?.map(({ id: _id, ...x }: Obj) => ({ ...x, amount: BigInt(x.amount) }));
  expect(tickets, at).to.deep.equal(e.ticketUpdates);
}

/**
 * The spec's event type hash, computed with Taquito's PACK: SHA-256 over the binary type without annotations, 8 bytes.
 */
function typeHash(type: unknown): string {
  const strip = (x: unknown): unknown =>
    Array.isArray(x)
      ? x.map(strip)
      : typeof x === 'object' && x !== null && 'prim' in x
        ? { prim: (x as Obj).prim, ...((x as Obj).args ? { args: (x as Obj).args.map(strip) } : {}) }
        : x;
  const packed = packDataBytes(strip(type) as MichelsonData).bytes.slice(2); // without PACK's 0x05 tag
  return createHash('sha256').update(Buffer.from(packed, 'hex')).digest().subarray(0, 8).toString('hex');
}
