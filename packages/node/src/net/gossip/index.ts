export * from './constants.js'
export {
  GossipHealthSchema, OFFLINE_HEALTH, gossipHealthOf, isGossipHealthSource, type GossipHealth, type GossipHealthSource
} from './gossip-health.js'
export { GossipValidator, type GossipDecision } from './gossip-validate.js'
export { GossipRouter, type PublishOutcome } from './gossip.js'
export { fastMsgIdFn, messageIdOf, messageIdToString, msgIdFn } from './message-id.js'
export {
  PeerPenalties, SCORE_THRESHOLDS, USEFUL_PEER_TAG, USEFUL_PEER_TAG_VALUE, UsefulPeers, createScoreParams
} from './scoring.js'
export { initialHome, isGossipTopic } from './shard-routing.js'
