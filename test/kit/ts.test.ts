import { endToEnd } from './end-to-end.js';

// TypeScript (type-checked against the contract's shapes, types/hook.d.ts) on the other engine,
// SpiderMonkey, and the other event: between them the JS and TS blocks build with both engines and
// both starter policies.
endToEnd({
  lang: 'ts',
  event: 'post_tool_use',
  flags: ['--engine', 'spidermonkey'],
  files: ['hook.ts', 'tsconfig.json', 'types/hook.d.ts'],
});
