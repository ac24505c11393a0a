export { parseToolInput } from './input.js';
export { toRequest, type ChainState } from './request.js';
export { encodeRequest, decodeRequest, encodeResponse, decodeResponse, checkResponse, type Decoded } from './wire.js';
export { toWitRequest, fromWitDecision, witDecisionSize, WitHookRequest, WitDecision } from './wit.js';
