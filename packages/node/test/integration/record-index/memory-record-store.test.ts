import { createMemoryRecordStore } from '../../../src/record-index/index.js'
import { describeRecordStore } from './record-store.suite.js'

describeRecordStore('MemoryRecordStore', async () => ({ store: createMemoryRecordStore() }), { propertyRuns: 200 })
