// nock 15 intercepts through @mswjs/interceptors, which calls Promise.withResolvers (Node ≥ 22).
// Node 20 lacks it; import this module before the first request a test intercepts.
type WithResolvers = <T>() => { promise: Promise<T>; resolve: (value: T) => void; reject: (reason?: unknown) => void };

const promiseCtor = Promise as unknown as { withResolvers?: WithResolvers };
if (typeof promiseCtor.withResolvers !== 'function') {
  Object.defineProperty(Promise, 'withResolvers', {
    configurable: true,
    writable: true,
    value: function withResolvers<T>() {
      let resolve!: (value: T) => void;
      let reject!: (reason?: unknown) => void;
      const promise = new Promise<T>((res, rej) => {
        resolve = res;
        reject = rej;
      });
      return { promise, resolve, reject };
    },
  });
}
