export * from './constants.js'
export { startDaemon, type Daemon, type DaemonOptions } from './daemon.js'
export { createNodeHost } from './node-host.js'
