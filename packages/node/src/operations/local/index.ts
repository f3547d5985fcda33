export { createLocalOperations, LocalOperations, type LocalOperationsInit } from './local-operations.js'
