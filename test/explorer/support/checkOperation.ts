import { expect } from 'chai';
import type { Json } from '../../chain/support/Json';
import type { Obj } from './api';
import { blockCycle, ExpectedOperation, tezToMutezNumber } from './rawOperations';

/** One explorer operation object (fetched with prim=1) against what the node JSON says about that row. */
export function checkOperation(o: Obj, e: ExpectedOperation, block: Json, headLevel: number): void {
  const at = `${e.hash} op_n ${o.op_n} (${e.type})`;
  expect(o, at).to.include({ hash: e.hash, type: e.type, status: e.status, is_success: e.status === 'applied', is_internal: e.isInternal });
  expect(o, at).to.include({ is_contract: e.isContract, is_event: false, block: block.hash, height: block.header.level, time: block.header.timestamp });
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
  expect(o.baker, at).to.equal(e.baker);
  expect(o.accuser, at).to.equal(e.accuser);
  expect(o.offender, at).to.equal(e.offender);
  if (e.type === 'origination') expect(o.creator, at).to.equal(e.creator);
  expect(o.parameters?.entrypoint, at).to.equal(e.entrypoint);
  expect(o.parameters?.prim, at).to.deep.equal(e.parameters);
  if (e.revealedKey !== undefined) expect(o.data, at).to.equal(e.revealedKey);
  if (e.slots !== undefined) {
    expect(BigInt(o.data), at).to.equal(e.slots.reduce((mask, slot) => mask | (1n << BigInt(slot)), 0n));
    expect(o.power, at).to.equal(e.slots.length);
  }
  if (e.script !== undefined) expect(o.script, at).to.deep.equal(e.script);
  if (e.value !== undefined) expect(o.value, at).to.deep.equal(e.value);
  if (e.solution !== undefined) {
    expect(o.solution, at).to.equal(e.solution[0]);
    expect(o.proof, at).to.equal(e.solution[1]);
    expect(o.data, at).to.equal(e.solution.join(''));
  }
  if (e.revealedLevel !== undefined) expect(o.data.split(',')[0], at).to.equal(String(e.revealedLevel));
}
