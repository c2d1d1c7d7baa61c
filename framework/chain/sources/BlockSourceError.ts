/** A block source cannot serve what was asked (unreadable archive file, empty archive, bad range). */
export class BlockSourceError extends Error {
  override readonly name = 'BlockSourceError';
}
