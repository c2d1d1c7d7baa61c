import { expect } from 'chai';
import * as v8 from 'node:v8';
import { withoutUndefined } from '../../framework/chain/model/jsonRead';

// V8's own answer to "does this object still have fast properties?" (not a dictionary).
v8.setFlagsFromString('--allow-natives-syntax');
const hasFastProperties = new Function('o', 'return %HasFastProperties(o)') as (o: object) => boolean;

describe('withoutUndefined (normalized blocks)', () => {
  it('returns the object itself when no property is undefined', () => {
    const o = { level: 1, hash: 'B', round: 0 };
    expect(withoutUndefined(o)).to.equal(o);
  });

  it('leaves out undefined properties, keeping the others in their order', () => {
    const out = withoutUndefined({ level: 1, hash: undefined, round: 0, payload: undefined, power: 7 });
    expect(Object.keys(out)).to.deep.equal(['level', 'round', 'power']);
    expect(out).to.deep.equal({ level: 1, round: 0, power: 7 });
  });

  it('answers an object with fast properties, not a dictionary-mode one', () => {
    const out = withoutUndefined({ level: 1, hash: undefined, round: 0, payload: undefined, power: 7 });
    expect(hasFastProperties(out)).to.equal(true);
  });
});
