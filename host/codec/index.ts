export { parseToolInput } from './input.js';
export { toRequest, type ChainState } from './request.js';
export { encodeRequest, decodeRequest, encodeResponse, decodeResponse, checkResponse, type Decoded } from './wire.js';
