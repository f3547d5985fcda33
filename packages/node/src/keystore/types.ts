import type { IsnadError } from '../errors/index.js'

/** What a keystore tells about a key without decrypting it. */
export interface KeyInfo {
  did: string
  label?: string
  /** When the key file was written (UTC ISO-8601). */
  created_at: string
  /** True when the seed is passphrase-encrypted (scrypt + AES-256-GCM). */
  encrypted: boolean
  /** True when `keys/default` names this key. */
  default: boolean
  /** Path of the key file. */
  file: string
}

/** A decrypted agent key, ready for signRecord. `secretKey` is the 32-byte RFC 8032 seed. */
export interface LoadedKey {
  did: string
  secretKey: Uint8Array
  publicKey: Uint8Array
}

export interface CreateKeyOptions {
  /** A name for people (`isnad id list`); at most MAX_LABEL_BYTES, no control characters. */
  label?: string
  /** Encrypts the seed when given; must not be empty. */
  passphrase?: string
  /** @default true when the store has no default key yet, so the first key becomes the default */
  makeDefault?: boolean
  /** 32 bytes to use instead of fresh randomness: tests, and importing an existing key. */
  seed?: Uint8Array
}

/** A key file that `scan` could not read; `error` is KEYFILE_INVALID or IO_ERROR. */
export interface InvalidKeyFile {
  file: string
  error: IsnadError
}

export interface Keystore {
  /** The keys directory. */
  readonly directory: string
  /** Writes a new key file; ALREADY_EXISTS when a file for the seed's did is already there. */
  create: (opts?: CreateKeyOptions) => Promise<KeyInfo>
  /**
   * Every readable key, oldest first. Unreadable `*.json` files are skipped so one corrupt file does
   * not hide the others; `scan` reports them, and `info`/`load` of such a key throw KEYFILE_INVALID.
   * Other files (README.md, `default`, leftover temp files) are not keys and are ignored.
   */
  list: () => Promise<KeyInfo[]>
  /** `list` plus the key files it skipped, so a CLI can warn about them. */
  scan: () => Promise<{ keys: KeyInfo[], invalid: InvalidKeyFile[] }>
  /** One key without decrypting it: DID_INVALID, UNKNOWN_KEY, KEYFILE_INVALID. */
  info: (did: string) => Promise<KeyInfo>
  /**
   * Decrypts a key and checks that its seed yields its did. An encrypted key without passphrase →
   * PASSPHRASE_REQUIRED; a wrong passphrase or an altered encrypted secret → PASSPHRASE_WRONG; a seed
   * of another did → KEYFILE_INVALID. A passphrase given for a plain key is ignored.
   */
  load: (did: string, passphrase?: string) => Promise<LoadedKey>
  /**
   * The did in `keys/default`, or null when there is none. It is not checked against the key files
   * (one may have been deleted by hand); `info`/`load` of it then say UNKNOWN_KEY.
   */
  defaultDid: () => Promise<string | null>
  /** Makes an existing key the default: UNKNOWN_KEY when there is no such key file. */
  setDefault: (did: string) => Promise<void>
}

export interface ScryptOptions {
  /** @default DEFAULT_SCRYPT_N (2^15) */
  N?: number
  /** @default DEFAULT_SCRYPT_R (8) */
  r?: number
  /** @default DEFAULT_SCRYPT_P (1) */
  p?: number
}

export interface KeystoreInit {
  /** The keys directory (`<home>/keys`); created with mode 0700 on the first write. */
  directory: string
  /** Cost of encrypting new keys. Lower it only in tests: reading always uses each file's own cost. */
  scrypt?: ScryptOptions
  /** @default () => new Date() — the clock for `created_at`. */
  now?: () => Date
}
