export * from './errors/index.js'
export * from './schema/index.js'
export * from './identity/index.js'
export * from './record/index.js'
