/* Durable file primitives: one implementation of "written means it survives a crash". */
export { ensureDirectory, errnoOf, ioError, openForAppend, pathExists, syncDirectory, writeFileAtomic } from './durable-files.js'
