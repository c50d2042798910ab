const utf8 = new TextDecoder('utf-8', { fatal: true });

/** A frame body as JSON, or why it is not. */
export function parseBody(body: Buffer): { ok: true; value: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, value: JSON.parse(utf8.decode(body)) as unknown };
  } catch (error) {
    return { ok: false, error: String(error) };
  }
}
