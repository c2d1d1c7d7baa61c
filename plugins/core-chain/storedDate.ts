/** A stored timestamp as the driver hands it back (a Date, else text or epoch milliseconds), as a Date. */
export function storedDate(v: unknown): Date {
  return v instanceof Date ? v : new Date(typeof v === 'number' ? v : String(v));
}
