/**
 * @default 4096 — did:key → public key entries kept by signerKeyOf. A node sees few signing keys and
 * many signatures; past the bound the oldest entry goes.
 */
export const SIGNER_KEY_CACHE_SIZE = 4096

/**
 * @default 1024 — seeds whose public key publicKeyOfSeedCached keeps. A node signs with a handful
 * of local agent keys; past the bound the oldest entry goes.
 */
export const SEED_PUBLIC_KEY_CACHE_SIZE = 1024
