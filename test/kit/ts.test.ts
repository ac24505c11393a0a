import { endToEnd } from './end-to-end.js';

// TypeScript (type-checked against the WIT's declarations) on the other engine, SpiderMonkey, and the
// other event: between them the JS and TS blocks build with both engines and both starter policies.
endToEnd({
  lang: 'ts',
  event: 'post_tool_use',
  flags: ['--engine', 'spidermonkey'],
  files: ['hook.ts', 'tsconfig.json', 'types/hook.d.ts', 'types/interfaces/basis-hook-types.d.ts', 'types/interfaces/basis-hook-handler.d.ts'],
});
