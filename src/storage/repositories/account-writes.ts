// The process's count of account writes, shared by the repositories of the account's tables.

let accountWrites = 0;

/**
 * How many writes to keys, accounts and top-ups this process has made (outside the charges, whose
 * outcomes carry the new balance): a reader that kept a key's row (the key cache of
 * accounts/authentication.ts) drops it when the count has moved since it read it.
 */
export function accountWritesMade(): number {
  return accountWrites;
}

/**
 * Counts a write of `write` once it is done (committed, unless an outer transaction holds it):
 * every write to keys, accounts and top-ups but a charge goes through it (the refund too).
 */
export async function counted<T>(write: Promise<T>): Promise<T> {
  try {
    return await write;
  } finally {
    accountWrites++;
  }
}
