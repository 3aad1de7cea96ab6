/**
 * The secret values the REST tests use, and a recorder of every error message the tests provoke, so that a
 * final test can assert that none of them leaks a secret.
 */
import { isVendorApiError, type VendorApiError } from "../../../rest/errors";

export const API_TOKEN = "static-token-7f3a9c1e5b";
export const CLIENT_ID = "client-id-public";
export const CLIENT_SECRET = "client-secret-Zq8wX2vL9p";
export const ACCESS_TOKEN_1 = "access-token-one-4k2j8h";
export const ACCESS_TOKEN_2 = "access-token-two-9m3n7b";

/** Every secret value of the tests. */
export const ALL_SECRETS = [API_TOKEN, CLIENT_SECRET, ACCESS_TOKEN_1, ACCESS_TOKEN_2] as const;

/** Collects the message of every error a test file provokes. */
export class ErrorLog {
  readonly messages: string[] = [];

  /** Awaits `promise`, expects it to reject with a `VendorApiError`, records and returns the error. */
  async rejectionOf(promise: Promise<unknown>): Promise<VendorApiError> {
    try {
      await promise;
    } catch (error) {
      if (!isVendorApiError(error)) throw error;
      this.messages.push(error.message);
      return error;
    }
    throw new Error("expected the call to reject, but it resolved");
  }

  /** Messages that contain any of `secrets` (empty when nothing leaked). */
  leaks(secrets: readonly string[] = ALL_SECRETS): string[] {
    return this.messages.filter((message) => secrets.some((secret) => message.includes(secret)));
  }
}
