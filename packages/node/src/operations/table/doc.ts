import type { z } from 'zod'
import { pathParamsOf } from './spec.js'
import { OPERATIONS } from './index.js'
import type { OperationSpec } from './spec.js'

/*
 * The HTTP API's route table as markdown, written from the table of operations so it cannot miss a
 * route (`npm run --silent routes` prints it: scripts/print-routes.ts). protocols/http-api.md points at it
 * and at the OpenAPI document rather than carrying a copy a new operation would have to refresh.
 */

function isOptional (schema: z.ZodType): boolean {
  const type = (schema as { _zod: { def: { type: string } } })._zod.def.type
  return type === 'optional' || type === 'default'
}

/** `{ summary, tags?, as? }`: the fields outside the path, `?` marking the optional ones. */
function inputOf (spec: OperationSpec): string {
  const params = pathParamsOf(spec)
  const shape = spec.input.shape as Record<string, z.ZodType>
  if (spec.http.bodyField !== undefined) return `the ${spec.http.bodyField} itself`
  const fields = Object.entries(shape).filter(([name]) => !params.includes(name)).map(([name, field]) => `${name}${isOptional(field) ? '?' : ''}`)
  if (fields.length === 0) return ''
  const list = `{ ${fields.join(', ')} }`
  if (spec.http.in === 'query') return `query ${list}`
  return spec.http.optionalBody === true ? `${list} (optional)` : list
}

function escape (text: string): string {
  return text.replaceAll('|', '\\|')
}

function rowOf (spec: OperationSpec): string {
  const route = `\`${spec.http.method.toUpperCase()} ${spec.http.path}\``
  const mcp = 'tool' in spec.mcp ? `\`${spec.mcp.tool}\`` : '—'
  const status = spec.http.status === 201 ? '201 ' : ''
  const errors = spec.errors.map((code) => `\`${code}\``).join(' ')
  return `| ${route} | \`${spec.name}\` | \`${spec.cli.command}\` | ${mcp} | ${escape(inputOf(spec))} | ${status}${escape(spec.summary)} | ${errors} |`
}

/** One row per operation, in the table's order. */
export function renderRouteTable (operations: readonly OperationSpec[] = OPERATIONS): string {
  return [
    '| route | operation | CLI | MCP tool | input | answer | errors |',
    '|---|---|---|---|---|---|---|',
    ...operations.map(rowOf)
  ].join('\n')
}
