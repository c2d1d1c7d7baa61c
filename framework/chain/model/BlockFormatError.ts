/** The input is not a node block at all (no header, hash or level): nothing sensible can be indexed. */
export class BlockFormatError extends Error {
  override readonly name = 'BlockFormatError';
}
