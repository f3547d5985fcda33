export {
  agreementSummary, agreementTable, agreementVerdict, type AgreementRow, type RowVerdict, type SlowerAttempt
} from './agreement-table.js'
export {
  AGREEMENT_METRICS, AGREEMENT_TOLERANCE, compareRuns, deliveryGaps, publishableMemories, type Agreement, type AgreementMetric, type MetricDifference
} from './agreement.js'
export { plotFiles, reportHtml, resultsCsv, writeResults } from './report.js'
export { summaryCsv, SUMMARY_COLUMNS } from './summary-csv.js'
export { GLOSSARY, glossaryEntryOf, type GlossaryEntry } from './glossary.js'
export { readResultsFile } from './results-file.js'
