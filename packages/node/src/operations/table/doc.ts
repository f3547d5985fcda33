import type { z } from 'zod'
import { pathParamsOf } from './spec.js'
import { OPERATIONS } from './index.js'
import type { OperationSpec } from './spec.js'

/*
 * protocols/http-api.md §3's route table, written from the table of operations so the document
 * cannot miss a route (scripts/generate-http-api-doc.ts writes it; a test checks the committed copy).
 */

export const ROUTES_BEGIN = '<!-- routes:begin (generated from src/operations/table by `npm run schemas`: do not edit) -->'
export const ROUTES_END = '<!-- routes:end -->'

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

/** The markdown between the markers: one row per operation, in the table's order. */
export function renderRouteTable (operations: readonly OperationSpec[] = OPERATIONS): string {
  return [
    ROUTES_BEGIN,
    '| route | operation | CLI | MCP tool | input | answer | errors |',
    '|---|---|---|---|---|---|---|',
    ...operations.map(rowOf),
    ROUTES_END
  ].join('\n')
}

/** `document` with its generated route table replaced by the current one. */
export function withRouteTable (document: string): string {
  const begin = document.indexOf(ROUTES_BEGIN)
  const end = document.indexOf(ROUTES_END)
  if (begin < 0 || end < begin) throw new Error('protocols/http-api.md has no generated route table markers')
  return document.slice(0, begin) + renderRouteTable() + document.slice(end + ROUTES_END.length)
}
