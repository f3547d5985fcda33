import { IsnadError } from '../errors/index.js'

/** Where a command writes: data to stdout, logs and errors to stderr (STYLE: data on stdout). */
export interface Output {
  json: boolean
  stdout: (text: string) => void
  stderr: (text: string) => void
}

export function createOutput (json: boolean): Output {
  return {
    json,
    stdout: (text) => { process.stdout.write(text.endsWith('\n') ? text : text + '\n') },
    stderr: (text) => { process.stderr.write(text.endsWith('\n') ? text : text + '\n') }
  }
}

/** Prints `data` as JSON with --json, else the text rendering. */
export function emit (out: Output, data: unknown, text: () => string): void {
  out.stdout(out.json ? JSON.stringify(data, null, 2) : text())
}

/** Exit statuses: 0 ok, 1 an error or an invalid document, 2 a usage error. */
export const EXIT_OK = 0
export const EXIT_FAILURE = 1
export const EXIT_USAGE = 2

export function reportError (out: Output, err: unknown): number {
  const error = err instanceof IsnadError
    ? err
    : new IsnadError('IO_ERROR', err instanceof Error ? err.message : String(err))
  if (out.json) out.stderr(JSON.stringify({ error: error.toJSON() }))
  else out.stderr(`isnad: error ${error.code}: ${error.message}`)
  return error.code === 'USAGE' ? EXIT_USAGE : EXIT_FAILURE
}
