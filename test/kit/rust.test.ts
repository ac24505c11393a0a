import { endToEnd } from './end-to-end.js';
import { missingToolchain } from './kit.js';

// Both flavours (different targets and link steps), each with one starter policy.
const skip = missingToolchain('rust');
endToEnd({ lang: 'rust', event: 'pre_tool_use', files: ['hook.rs', 'glue/basis_hook.rs'], skip });
endToEnd({ lang: 'rust', event: 'post_tool_use', flags: ['--flavour', 'nostd'], files: ['hook.rs', 'glue/basis_hook.rs'], skip });
