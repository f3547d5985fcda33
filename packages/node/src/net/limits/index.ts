export * from './constants.js'
export { ConnectionPings, DEFAULT_CONNECTION_MONITOR, type ConnectionMonitorSettings } from './connection-pings.js'
export { ConnectionGuard } from './limits-connections.js'
export {
  CONNECTION_LIMITS, GOSSIP_RESOURCE_LIMITS, PROTOCOL_RATE_LIMITS, RateLimiter, rateLimitedHandler
} from './limits.js'
