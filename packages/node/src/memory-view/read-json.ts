import { IsnadError } from '../errors/index.js'

/** JSON.parse with the project's error: JSON_INVALID naming what was being read. */
export function parseJson (text: string, what: string): unknown {
  try {
    return JSON.parse(text)
  } catch (cause) {
    throw new IsnadError('JSON_INVALID', `${what} is not valid JSON: ${(cause as Error).message}`)
  }
}
