import { interceptorTransport } from '../../host/index.js';
import { answer } from './interceptor-answers.js';
import { runTransportSuite } from './suite.js';

runTransportSuite('in-process interceptor', {
  crashCode: 'interceptor_error',
  unsupported: {
    silent: 'an interceptor returns a value; there is no stdout to leave empty',
    oversized: 'an interceptor answer is an in-memory object; there is no output stream to cap',
  },
  create: (behaviour, limits) => interceptorTransport((req) => answer(behaviour, req), { timeout_ms: limits.timeout_ms }),
});
