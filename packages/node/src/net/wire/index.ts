export * from './constants.js'
export { FrameReader, isViolation, sendFrames, withDeadline } from './frames.js'
export {
  FetchRequestSchema, SyncHeaderSchema, SyncRequestSchema, WitnessEnvelopeSchema, decodeWire, decodeWitnessEnvelope, encodeWire, encodeWitnessEnvelope
} from './wire-messages.js'
