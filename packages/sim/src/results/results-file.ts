import { readFile } from 'node:fs/promises'
import { z } from 'zod'
import { IsnadError } from 'isnad/engine'
import type { SimResults } from '../driver/index.js'
import { ScenarioSchema } from '../scenario/index.js'

/*
 * Reading a results.json back (`isnad sim report`, to re-render the report and plots of a past
 * run). The fields the report draws from are checked; the rest is kept as it was written.
 */

const HistogramSchema = z.strictObject({ true: z.array(z.number().int().min(0)).length(10), false: z.array(z.number().int().min(0)).length(10) })
const nullableNumber = z.number().nullable()

const RunSchema = z.looseObject({
  nodes: z.number().int().min(0),
  sybils: z.number().int().min(0),
  roles: z.record(z.string(), z.number()),
  observers: z.array(z.number()),
  timings: z.looseObject({ setupSeconds: z.number(), activitySeconds: z.number(), settleSeconds: z.number(), totalSeconds: z.number() }),
  driverLoad: z.looseObject({ eventLoopLagP50Ms: z.number(), eventLoopLagMaxMs: z.number(), cpuPercent: z.number() }),
  relinks: z.number(),
  notes: z.array(z.string()),
  metrics: z.looseObject({
    delivery: z.looseObject({ latencyCdf: z.array(z.tuple([z.number(), z.number()])) }),
    trust: z.array(z.looseObject({ policy: z.string(), histogram: HistogramSchema })),
    perNode: z.looseObject({}).nullable()
  })
})

const ResultsFileSchema = z.looseObject({
  format: z.literal('isnad-sim-results/1'),
  scenario: ScenarioSchema,
  runner: z.enum(['in-process', 'processes', 'docker', 'model']),
  engine: z.enum(['nodes', 'model']).optional(),
  defaultPolicy: z.string().optional(),
  policies: z.array(z.string()),
  generatedAt: z.string(),
  runs: z.array(RunSchema).min(1),
  sybilCurve: z.array(z.looseObject({ sybils: z.number(), policy: z.string(), sybilMeanTrust: nullableNumber, falseAnchoredShare: nullableNumber }))
})

export async function readResultsFile (path: string): Promise<SimResults> {
  let data: unknown
  try {
    data = JSON.parse(await readFile(path, 'utf8'))
  } catch (cause) {
    throw new IsnadError('JSON_INVALID', `cannot read ${path} as JSON`, { cause })
  }
  const parsed = ResultsFileSchema.safeParse(data)
  if (!parsed.success) {
    const problems = parsed.error.issues.slice(0, 5).map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
    throw new IsnadError('SCHEMA_INVALID', `${path} is not an isnad simulation results file: ${problems.join('; ')}`)
  }
  return parsed.data as unknown as SimResults
}
