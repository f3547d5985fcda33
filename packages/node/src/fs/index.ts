/* Durable file primitives: one implementation of "written means it survives a crash". */
export { ensureDirectory, errnoOf, ioError, openForAppend, pathExists, syncDirectory, withFile, writeFileAtomic, type FileUse } from './durable-files.js'
