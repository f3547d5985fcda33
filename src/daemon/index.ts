export * from './constants.js'
export { startDaemon, type Daemon, type DaemonOptions } from './daemon.js'
export { startSpotChecks, SPOT_CHECK_DEFAULTS, type SpotCheckInit, type SpotCheckOptions } from './spot-checks.js'
