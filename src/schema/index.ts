export * from './limits.js'
export * from './primitives.js'
export * from './records.js'
export * from './view.js'
