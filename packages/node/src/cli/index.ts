export { createProgram, runCli } from './program.js'
