import { expect } from 'chai';
import type { TestInstance } from './TestInstance';

/**
 * The two probes most route tests use: the JSON of a 200 answer, and the first error of an answer
 * with the given status. `instance` is a getter because the instance starts in `before()`.
 */
export function probes(instance: () => TestInstance) {
  return {
    async json(path: string): Promise<unknown> {
      const res = await instance().get(path);
      expect(res.status, path).to.equal(200);
      return res.json();
    },
    async error(path: string, status: number): Promise<{ code: number; detail: string }> {
      const res = await instance().get(path);
      expect(res.status, path).to.equal(status);
      return ((await res.json()) as { errors: Array<{ code: number; detail: string }> }).errors[0];
    },
  };
}
