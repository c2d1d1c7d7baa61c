/** Injection tokens for values that are not classes (extension points: framework/extensions/). */
export const CONFIG = Symbol.for('tzidx.InstanceConfig');
export const LOGGER = Symbol.for('tzidx.Logger');
