/** What the emulator reports of a thrown value. */

/** The message of a thrown value: an error's `message`, or the value as text. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The `code` of a thrown value (Node's `ERR_PARSE_ARGS_...`, say), or undefined. */
export function errorCode(error: unknown): unknown {
  return typeof error === "object" && error !== null && "code" in error ? error.code : undefined;
}
