import { createRoute } from '@hono/zod-openapi'
import { MAX_BUNDLE_REQUEST_BYTES, MAX_REQUEST_BYTES } from '../constants.js'
import type { NodeOperations } from '../operations.js'
import { ExportBodySchema, ImportBodySchema, VerifyBodySchema } from '../schemas/requests.js'
import { BundleResponseSchema, DocumentReportSchema, IngestResultSchema } from '../schemas/responses.js'
import { BODY_ERRORS, ERRORS, json, limitBody, type ApiApp } from './common.js'

const verify = createRoute({
  method: 'post',
  path: '/v1/verify',
  summary: 'verify: check a memory view, bundle or inclusion proof offline, with nothing but the document',
  description: 'An invalid document is a 200 with `valid: false` and a reason per record; only a body that is not such a document at all is a 400.',
  middleware: [limitBody(MAX_BUNDLE_REQUEST_BYTES)] as const,
  request: { body: { content: json(VerifyBodySchema), required: true } },
  responses: { 200: { description: 'the verification report', content: json(DocumentReportSchema) }, ...BODY_ERRORS }
})

const exportRoute = createRoute({
  method: 'post',
  path: '/v1/export',
  summary: 'export: a bundle of memories with all their witnesses, anchors and requests',
  middleware: [limitBody(MAX_REQUEST_BYTES)] as const,
  request: { body: { content: json(ExportBodySchema), required: true } },
  responses: { 200: { description: 'the bundle', content: json(BundleResponseSchema) }, ...BODY_ERRORS, 404: ERRORS[404] }
})

const importRoute = createRoute({
  method: 'post',
  path: '/v1/import',
  summary: 'import: verify a bundle and store it; any bad record refuses the whole bundle',
  middleware: [limitBody(MAX_BUNDLE_REQUEST_BYTES)] as const,
  request: { body: { content: json(ImportBodySchema), required: true } },
  responses: { 200: { description: 'what was stored', content: json(IngestResultSchema) }, ...BODY_ERRORS, 422: ERRORS[422] }
})

export function registerTransferRoutes (app: ApiApp, node: NodeOperations): void {
  app.openapi(verify, async (c) => c.json(await node.verify(c.req.valid('json')), 200))

  app.openapi(exportRoute, async (c) => c.json(await node.exportBundle(c.req.valid('json').ids), 200))

  app.openapi(importRoute, async (c) => c.json(await node.importBundle(c.req.valid('json')), 200))
}
