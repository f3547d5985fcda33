export * from './constants.js'
export { startDaemon, type Daemon, type DaemonOptions } from './daemon.js'
