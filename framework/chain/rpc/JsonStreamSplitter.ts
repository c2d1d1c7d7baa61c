/**
 * Cuts a stream of concatenated or newline-delimited JSON objects/arrays (the `/monitor/*` chunked
 * answers) into complete JSON texts, whatever the chunk boundaries. Top-level values must be objects
 * or arrays; anything else between values is a `SyntaxError`.
 */
export class JsonStreamSplitter {
  private buffer = '';
  private scanned = 0;
  private start = -1;
  private depth = 0;
  private inString = false;
  private escaped = false;

  /** Feeds more text; returns the JSON texts completed by it, in order. */
  push(text: string): string[] {
    this.buffer += text;
    const complete: string[] = [];
    for (let i = this.scanned; i < this.buffer.length; i++) {
      const ch = this.buffer[i];
      if (this.depth === 0) {
        if (ch === ' ' || ch === '\n' || ch === '\r' || ch === '\t') continue;
        if (ch !== '{' && ch !== '[') throw new SyntaxError(`unexpected ${JSON.stringify(ch)} between JSON values`);
        this.start = i;
        this.depth = 1;
      } else if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (ch === '\\') this.escaped = true;
        else if (ch === '"') this.inString = false;
      } else if (ch === '"') {
        this.inString = true;
      } else if (ch === '{' || ch === '[') {
        this.depth++;
      } else if ((ch === '}' || ch === ']') && --this.depth === 0) {
        complete.push(this.buffer.slice(this.start, i + 1));
      }
    }
    // Keep only the unfinished value, so memory stays bounded by one head.
    if (this.depth === 0) {
      this.buffer = '';
      this.scanned = 0;
    } else {
      this.buffer = this.buffer.slice(this.start);
      this.start = 0;
      this.scanned = this.buffer.length;
    }
    return complete;
  }

  /** True while a value has started but not ended (at stream end: truncated JSON). */
  get hasPartialValue(): boolean {
    return this.depth > 0;
  }
}
