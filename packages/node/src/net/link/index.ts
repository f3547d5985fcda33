export {
  DUPACK_THRESHOLD, MAX_RETRANSMISSIONS, MAX_RTO_MS, MIN_RTO_MS, SEGMENT_BYTES, createLinkSchedule, retransmissionDelayMs, retransmissionTimeoutMs, shapesTraffic, streamSeed, type LinkConditions, type LinkSchedule
} from './link-conditions.js'
export { shapedTransport } from './link-shaping.js'
