import { endToEnd } from './end-to-end.js';

// The default language and engine (JavaScript on QuickJS, an npm package): never skipped.
endToEnd({ lang: 'js', event: 'pre_tool_use', files: ['hook.js', 'types/hook.d.ts'] });
