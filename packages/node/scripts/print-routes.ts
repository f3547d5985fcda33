/**
 * Prints the HTTP API's route table, one row per operation of the table (src/operations/table): route,
 * operation, CLI command, MCP tool, input, answer and error codes, as markdown on stdout. No node is
 * needed; a running node serves the same routes, with their schemas, as `GET /v1/openapi.json`.
 *
 *   npm run --silent routes
 */
import { renderRouteTable } from '../src/operations/table/doc.js'

process.stdout.write(`${renderRouteTable()}\n`)
