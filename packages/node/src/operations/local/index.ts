export { createLocalOperations, LocalOperations, type LocalOperationsInit } from './local-operations.js'
export { keyOf } from './create-key.js'
