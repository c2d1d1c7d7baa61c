/** `text` up to `max` characters, saying when it was cut and how long it was: for logs and error messages. */
export function cutText(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length} characters)`;
}
