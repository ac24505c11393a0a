export { interceptorTransport, type Interceptor, type InterceptorFn, type InterceptorOptions } from './interceptor.js';
