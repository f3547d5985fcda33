/**
 * Named defaults and limits of the key file format `isnad-key/v1` (docs/architecture.md, "Keys": keys live under
 * `keys/`, mode 0600, optionally passphrase-encrypted).
 */

/** The `format` field of every key file this module writes and accepts. */
export const KEYFILE_FORMAT = 'isnad-key/v1'
/** Key files are `<did:key method-specific id>.json`; anything else in the directory is not a key. */
export const KEYFILE_EXTENSION = '.json'
/** The small file that names the default key (its content: the did and a newline). */
export const DEFAULT_KEY_FILE = 'default'

/** @default 0o600 — key files and the default pointer: owner read/write only. */
export const KEYFILE_MODE = 0o600
/** @default 0o700 — the keys directory: owner only, so other users cannot even list the dids. */
export const KEY_DIRECTORY_MODE = 0o700

/** @default 65536 — a key file is a few hundred bytes; the limit keeps a hostile file from being read whole. */
export const MAX_KEYFILE_BYTES = 64 * 1024
/** @default 256 — the default pointer holds one did. */
export const MAX_DEFAULT_FILE_BYTES = 256
/** @default 256 — UTF-8 bytes of a key's label. */
export const MAX_LABEL_BYTES = 256

/**
 * @default 32768 — scrypt cost N = 2^15 (RFC 7914 §2). With r = 8 that is 32 MiB and roughly 0.1 s
 * per derivation: the interactive-login parameters recommended by the scrypt paper, affordable at
 * `isnad start` and expensive for an offline guesser.
 */
export const DEFAULT_SCRYPT_N = 2 ** 15
/** @default 8 — scrypt block size r (RFC 7914 §2). */
export const DEFAULT_SCRYPT_R = 8
/** @default 1 — scrypt parallelism p (RFC 7914 §2). */
export const DEFAULT_SCRYPT_P = 1
/**
 * @default 268435456 — the most memory a key file may ask scrypt for (256 MiB). A key file chooses
 * its own cost, so without this bound a planted file could make every `load` exhaust memory.
 */
export const MAX_SCRYPT_MEMORY_BYTES = 256 * 1024 * 1024
/** @default 16 */
export const MAX_SCRYPT_P = 16
/** @default 16 — fresh random salt per key file (RFC 7914 §2 recommends ≥ 16 bytes). */
export const SCRYPT_SALT_BYTES = 16
/** @default 64 — longest salt accepted when reading (files written elsewhere may use longer salts). */
export const MAX_SCRYPT_SALT_BYTES = 64

/** @default 32 — AES-256 key length; also the Ed25519 seed length. */
export const AES_KEY_BYTES = 32
/** @default 12 — the GCM nonce length NIST SP 800-38D recommends (96 bits). */
export const GCM_IV_BYTES = 12
/** @default 16 — full-length GCM tag; shorter tags weaken the authentication. */
export const GCM_TAG_BYTES = 16
/** @default 32 — the Ed25519 secret seed (RFC 8032 §5.1.5). */
export const SEED_BYTES = 32

/**
 * Prefix of the GCM additional authenticated data; the did follows. Domain-separated like the record
 * signing inputs (record-v1 §3.1), so a ciphertext is bound to this format and to one did: moving an
 * encrypted secret into another key's file makes decryption fail.
 */
export const KEYFILE_AAD_PREFIX = 'isnad-key/v1\0'
