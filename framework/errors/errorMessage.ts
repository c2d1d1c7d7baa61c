/** What a caught value says: an Error's message, else the value as text (JavaScript may throw anything). */
export function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
