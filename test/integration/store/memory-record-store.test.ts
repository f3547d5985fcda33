import { createMemoryRecordStore } from '../../../src/store/index.js'
import { describeRecordStore } from './record-store.suite.js'

describeRecordStore('MemoryRecordStore', async () => ({ store: createMemoryRecordStore() }), { propertyRuns: 200 })
