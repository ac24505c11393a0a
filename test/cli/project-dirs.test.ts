import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { expandProjectDirs } from '../../host/cli/project-dirs.js';

describe('expandProjectDirs', () => {
  it('expands $X_PROJECT_DIR and ${X_PROJECT_DIR}, nothing else; an unset one is named', () => {
    const env = { CLAUDE_PROJECT_DIR: '/repo', GEMINI_PROJECT_DIR: '/g', HOME: '/home/u' };
    expect(expandProjectDirs('$CLAUDE_PROJECT_DIR/hooks.json', env)).toEqual({ path: '/repo/hooks.json' });
    expect(expandProjectDirs('${GEMINI_PROJECT_DIR}/a/$CLAUDE_PROJECT_DIR', env)).toEqual({ path: '/g/a//repo' });
    expect(expandProjectDirs('$HOME/hooks.json', env)).toEqual({ path: '$HOME/hooks.json' });
    expect(expandProjectDirs('$CLAUDE_PROJECT_DIRECTORY/x', env)).toEqual({ path: '$CLAUDE_PROJECT_DIRECTORY/x' });
    expect(expandProjectDirs('$QWEN_PROJECT_DIR/hooks.json', env)).toEqual({ unset: 'QWEN_PROJECT_DIR' });
  });

  it('property: a path without a project-directory variable comes back unchanged', () => {
    fc.assert(
      fc.property(fc.string().filter((s) => !/_PROJECT_DIR/.test(s)), (s) => {
        expect(expandProjectDirs(s, { CLAUDE_PROJECT_DIR: '/repo' })).toEqual({ path: s });
      }),
    );
  });
});
