// The states (content/states/{state}.md) and their cities (content/cities/{state}.csv), compiled
// for compile.ts: every one of the 50 states has its guide and its city list, each city once; a
// city list parsed is remembered in the memo.
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { CITY_COLUMNS, CITY_OPTIONAL_COLUMNS, cityRowSchema } from '../../core/schemas/city.ts';
import type { CompiledState } from '../../core/schemas/compiled-content.ts';
import { stateFrontMatterSchema } from '../../core/schemas/state.ts';
import { US_STATE_NAMES } from '../../core/schemas/us-states.ts';
import type { ContentReader } from './content-reader.ts';
import { readCsv } from './read-csv.ts';
import { readFrontMatterFile } from './read-markdown.ts';
import { problemsFromZod, type ContentProblem } from './report.ts';
import { fillTokens, tokenProblems, type SiteTokens } from './tokens.ts';

/** The states in name order, each with its cities (most populous first). */
export function compileStates(reader: ContentReader, tokens: SiteTokens): CompiledState[] {
  const { contentDir, memo, problems, rel, listFiles, markdownToHtml } = reader;
  const states: CompiledState[] = [];
  const stateFiles = listFiles('states', '.md');
  const cityFiles = listFiles('cities', '.csv');
  const cityFileStems = new Set(cityFiles.map((path) => basename(path, '.csv')));
  const stateFileStems = new Set(stateFiles.map((path) => basename(path, '.md')));
  for (const path of cityFiles) {
    const stem = basename(path, '.csv');
    if (!stateFileStems.has(stem)) {
      problems.push({
        file: rel(path),
        line: 1,
        field: 'file',
        message: `has no state file; add content/states/${stem}.md or remove this CSV`,
      });
    }
  }
  for (const name of US_STATE_NAMES) {
    if (!stateFileStems.has(name)) {
      problems.push({
        file: `content/states/${name}.md`,
        line: 1,
        field: 'file',
        message: 'is missing; every one of the 50 states needs a state file',
      });
    }
  }
  for (const path of stateFiles) {
    const file = rel(path);
    const stem = basename(path, '.md');
    const read = readFrontMatterFile(path, file, stateFrontMatterSchema, problems);
    if (!read) continue;
    const { markdown, data } = read;
    if (data.name !== stem) {
      problems.push({
        file,
        line: markdown.lineOf('name'),
        field: 'name',
        message: `must match the file name ('${stem}'; got '${data.name}')`,
      });
      continue;
    }
    problems.push(...tokenProblems(markdown.body, file, markdown.bodyLine, []));
    if (markdown.body.trim() === '') {
      problems.push({
        file,
        line: markdown.bodyLine,
        field: 'body',
        message: "is empty; write the state's guide below the front matter",
      });
    }
    if (!cityFileStems.has(stem)) {
      problems.push({
        file,
        line: 1,
        field: 'file',
        message: `has no city list; add content/cities/${stem}.csv`,
      });
      continue;
    }
    const cityFile = join(contentDir, 'cities', `${stem}.csv`);
    const cityText = readFileSync(cityFile, 'utf8');
    let cities = memo.get<CompiledState['cities']>('cities', `${cityFile}\0${cityText}`);
    if (!cities) {
      const cityProblems: ContentProblem[] = [];
      cities = readCities(cityText, rel(cityFile), cityProblems);
      problems.push(...cityProblems);
      if (cityProblems.length === 0) memo.set('cities', `${cityFile}\0${cityText}`, cities);
    }
    states.push({
      ...data,
      guideHtml: markdownToHtml(fillTokens(markdown.body, tokens)),
      cities,
    });
  }
  states.sort((a, b) => a.name.localeCompare(b.name, 'en'));
  return states;
}

/** A state's city list; its problems go to `sink`. */
function readCities(text: string, file: string, sink: ContentProblem[]) {
  const { rows, problems: csvProblems } = readCsv(text, file, {
    required: CITY_COLUMNS,
    optional: CITY_OPTIONAL_COLUMNS,
  });
  sink.push(...csvProblems);
  const seen = new Map<string, number>();
  const cities: CompiledState['cities'] = [];
  for (const row of rows) {
    const parsed = cityRowSchema.safeParse(row.cells);
    if (!parsed.success) {
      sink.push(...problemsFromZod(parsed.error, file, () => row.line));
      continue;
    }
    const earlier = seen.get(parsed.data.name);
    if (earlier) {
      sink.push({
        file,
        line: row.line,
        field: 'name',
        message: `'${parsed.data.name}' is already listed on line ${earlier}; city names are unique within a state`,
      });
      continue;
    }
    seen.set(parsed.data.name, row.line);
    const { name, population, latitude, longitude } = parsed.data;
    cities.push({ name, population, latitude, longitude });
  }
  return cities.sort((a, b) => b.population - a.population || a.name.localeCompare(b.name, 'en'));
}
