import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import type { OperationCaller, OperationInput, OperationName, OperationOutput, OperationSpec } from '../operations/index.js'
import { IsnadError } from '../errors/index.js'
import { createKeystore, type Keystore } from '../keystore/index.js'
// The paths module rather than the node's index: the index loads LocalNode (LevelDB, the anchor
// blocks), which a command loads only when it opens the node (see `call`).
import { DATA_DIR_NAME, nodePaths, resolveHome } from '../home/index.js'
import type { Output } from './output.js'

/** Options every command accepts (declared once on the root program). */
export interface GlobalOptions {
  home?: string
  json?: boolean
  passphraseFile?: string
}

export interface CommandContext {
  home: string
  out: Output
  keystore: () => Keystore
  /**
   * The table's operations on the daemon that holds this home's data directory, over its HTTP API,
   * or null when no live daemon advertises itself in `.memory/daemon.json` (a stale file is ignored).
   */
  daemon: () => Promise<OperationCaller | null>
  /**
   * One operation of the table, parsed by the table's parse and run where the node is: through the
   * daemon when one runs (it holds the data directory: docs/architecture.md), else over what the
   * operation's spec says it opens (`opens`: the node, read-only for an operation that only reads;
   * keys/ alone; the ledgers alone; nothing, and then never the daemon either), opened for this call
   * and closed after it. This is the one place
   * the CLI chooses between the two. A signing operation signs as `as`, else the home's default
   * key, unlocked with the input's passphrase, else --passphrase-file or $ISNAD_PASSPHRASE.
   */
  call: <N extends OperationName>(name: N, input: OperationInput<N>) => Promise<OperationOutput<N>>
  /** `--as <did>`, else the home's default key; UNKNOWN_KEY when there is none. */
  signerDid: (as?: string) => Promise<string>
  passphrase: () => Promise<string | undefined>
}

export function createContext (options: GlobalOptions, out: Output, env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): CommandContext {
  const home = resolveHome(options.home, env, cwd)
  noteHomeHere(options, env, cwd, home, out)
  const paths = nodePaths(home)
  let keystore: Keystore | undefined
  const getKeystore = (): Keystore => (keystore ??= createKeystore({ directory: paths.keys }))
  let daemon: Promise<OperationCaller | null> | undefined

  /** A passphrase comes from --passphrase-file or $ISNAD_PASSPHRASE, never from argv (ps shows argv). */
  const passphrase = async (): Promise<string | undefined> => {
    if (options.passphraseFile !== undefined) {
      const text = await readFile(options.passphraseFile, 'utf8').catch((cause: unknown) => {
        throw new IsnadError('IO_ERROR', `cannot read passphrase file ${options.passphraseFile}`, { cause })
      })
      return text.replace(/\r?\n$/, '')
    }
    return env.ISNAD_PASSPHRASE === undefined || env.ISNAD_PASSPHRASE === '' ? undefined : env.ISNAD_PASSPHRASE
  }

  const findOperations = async (): Promise<OperationCaller | null> => {
    // Loaded on first use, not on every CLI start-up (`--help`, `--version` never reach here).
    const { findDaemon, createHttpOperations, readApiToken } = await import('../api-access/index.js')
    const info = await findDaemon(paths.data)
    if (info === null) return null
    return createHttpOperations({ url: info.url, token: await readApiToken(paths.data) })
  }
  const signerDid = async (as?: string): Promise<string> => {
    const did = as ?? await getKeystore().defaultDid()
    if (did === null) {
      throw new IsnadError('UNKNOWN_KEY', `no default key in ${paths.keys}; run \`isnad init\` or \`isnad id new --default\``)
    }
    return did
  }
  const getDaemon = async (): Promise<OperationCaller | null> => await (daemon ??= findOperations())

  return {
    home,
    out,
    keystore: getKeystore,
    daemon: getDaemon,
    async call<N extends OperationName> (name: N, raw: OperationInput<N>): Promise<OperationOutput<N>> {
      const { OPERATION_SPECS, localCaller, parseOperationInput } = await import('../operations/index.js')
      const spec = OPERATION_SPECS[name] as unknown as OperationSpec
      const parsed = parseOperationInput(spec, raw) as Record<string, unknown>
      const given = spec.signs === true ? (parsed.passphrase as string | undefined) ?? await passphrase() : undefined
      const input = (spec.signs === true ? { ...parsed, as: await signerDid(parsed.as as string | undefined) } : parsed) as OperationInput<N>
      // An operation that opens nothing (`verify`) runs here, never through a daemon.
      const remote = spec.opens === 'nothing' ? null : await getDaemon()
      if (remote !== null) return await remote.call(name, given === undefined ? input : { ...input, passphrase: given })
      const { openLocalFor } = await import('./open-local.js')
      const local = await openLocalFor(spec, { home, keystore: getKeystore() })
      try {
        return await localCaller(local.node, given).call(name, input)
      } finally {
        await local.close()
      }
    },
    signerDid,
    passphrase
  }
}

/**
 * A home used to default to the current directory. When the current directory holds a node's data
 * but no --home or $ISNAD_HOME names it, say which home this command uses instead, and how to use the
 * one here, rather than silently showing an empty node.
 */
function noteHomeHere (options: GlobalOptions, env: NodeJS.ProcessEnv, cwd: string, home: string, out: Output): void {
  if (options.home !== undefined || (env.ISNAD_HOME !== undefined && env.ISNAD_HOME !== '')) return
  if (resolve(cwd) === home || !existsSync(resolve(cwd, DATA_DIR_NAME))) return
  out.stderr(`isnad: note: this directory holds a node's ${DATA_DIR_NAME}/, but the home is ${home}; pass --home . (or set ISNAD_HOME) to use the one here`)
}

/** The passphrase a command that encrypts cannot do without (`init --encrypt`, `id new --encrypt`). */
export async function requirePassphrase (ctx: CommandContext): Promise<string> {
  const passphrase = await ctx.passphrase()
  if (passphrase === undefined) {
    throw new IsnadError('PASSPHRASE_REQUIRED', 'encryption needs a passphrase: set $ISNAD_PASSPHRASE or pass --passphrase-file <path>')
  }
  return passphrase
}
