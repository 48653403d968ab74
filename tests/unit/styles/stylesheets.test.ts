// One way to load styles (src/styles/index.ts): every sheet of src/styles/ is listed there once,
// everything listed exists, no sheet loads another (@import), nothing else imports a sheet, and
// no sheet is over 800 lines. Shown failing first, on a made-up folder.
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { importEdges, readProductFiles } from '../../helpers/architecture.ts';

const STYLES = 'src/styles';
const LIST = `${STYLES}/index.ts`;
const MAX_SHEET_LINES = 800;
/** An import of a sheet, static or lazy, with or without a query (`?url`). */
const SHEET_IMPORT = /(?:import|from)\s*\(?\s*['"][^'"\n]+\.css(?:\?[^'"\n]*)?['"]/;

/** The sheets a list module imports, in its order (`import './base.css';`). */
const listedIn = (list: string) =>
  [...list.matchAll(/^import '\.\/([^']+\.css)';$/gm)].map((match) => match[1]!);

/** What is wrong with a folder of sheets (name → text) and its list; nothing, when all is well. */
function stylesheetProblems(sheets: Readonly<Record<string, string>>, list: string): string[] {
  const listed = listedIn(list);
  const problems: string[] = [];
  for (const name of Object.keys(sheets).sort()) {
    const times = listed.filter((each) => each === name).length;
    if (times !== 1) problems.push(`${name} is listed ${times} times`);
  }
  for (const name of new Set(listed))
    if (sheets[name] === undefined) problems.push(`${name} is listed but missing`);
  for (const [name, text] of Object.entries(sheets)) {
    if (/@import\b/.test(text)) problems.push(`${name} loads another sheet (@import)`);
    const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
    if (lines > MAX_SHEET_LINES) problems.push(`${name}: ${lines} lines`);
  }
  return problems;
}

describe('the list of stylesheets', () => {
  it('finds a sheet not listed, one listed twice or missing, an @import, a sheet too long', () => {
    const sheets = {
      'base.css': 'body {\n}\n',
      'nearby.css': '.nearby {\n}\n',
      'forms.css': "@import './base.css';\n",
      'moderation.css': '.x {}\n'.repeat(801),
    };
    const list = [
      "import './base.css';",
      "import './forms.css';",
      "import './base.css';",
      "import './moderation.css';",
      "import './gone.css';",
    ].join('\n');
    expect(stylesheetProblems(sheets, list)).toEqual([
      'base.css is listed 2 times',
      'nearby.css is listed 0 times',
      'gone.css is listed but missing',
      'forms.css loads another sheet (@import)',
      'moderation.css: 801 lines',
    ]);
  });

  it('reaches every sheet of src/styles/ once, names none missing, and no sheet imports another', () => {
    const sheets = Object.fromEntries(
      readdirSync(STYLES)
        .filter((name) => name.endsWith('.css'))
        .map((name) => [name, readFileSync(join(STYLES, name), 'utf8')]),
    );
    const list = readFileSync(LIST, 'utf8');
    expect(stylesheetProblems(sheets, list)).toEqual([]);
    expect(Object.keys(sheets).length).toBeGreaterThan(1);
    expect(listedIn(list)).toHaveLength(Object.keys(sheets).length);
  });

  it('is the only module that imports a sheet, and the renderer imports it', () => {
    const product = readProductFiles();
    const importingASheet = product
      .filter((file) => SHEET_IMPORT.test(file.text))
      .map((file) => file.path);
    expect(importingASheet).toEqual([LIST]);
    expect(importEdges(product)).toContainEqual(
      expect.objectContaining({ from: 'src/renderer/+onRenderHtml.tsx', to: LIST }),
    );
  });
});
