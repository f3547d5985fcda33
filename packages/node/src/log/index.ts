/* The daemon's log: one JSON object per line on stderr. */
export {
  createLogger, DEFAULT_LOG_LEVEL, errorFields, formatLine, isLogLevel, LOG_LEVEL_ENV, LOG_LEVELS, parseLogLevel, silentLogger,
  type LogFields, type Logger, type LoggerInit, type LogLevel
} from './logger.js'
