// The architecture's rules, read from the source (docs/conventions.md): the product's files and
// their imports, found with the TypeScript compiler, and one function a rule that lists what breaks
// it. Each takes the files it judges, so the architecture test can show every rule failing on a
// few files made up to break it, and passing on the product.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import ts from 'typescript';

export interface SourceFile {
  /** Relative to the project: `store/store.ts`. */
  path: string;
  text: string;
}

export interface ImportEdge {
  from: string;
  /** A product file's path, or a package's name (`pg`, `better-sqlite3`). */
  to: string;
  /** Only types are imported: nothing of it runs (`import type`, or every name `type`). */
  typeOnly: boolean;
  /** `import('…')`: loaded when the code gets there, not when the file is. */
  lazy: boolean;
}

/** The folders the product's code lives in (not tests, benchmarks or content). */
export const PRODUCT_FOLDERS = [
  'core',
  'store',
  'search',
  'pipeline',
  'src',
  'server',
  'scripts',
] as const;
/** Folders beside the product: not read, but an import into them is seen (see ALLOWED_IMPORTS). */
const BESIDE_THE_PRODUCT = /^(bench|tests)\//;
const CODE = /\.(ts|tsx|mts|mjs)$/;

export function readProductFiles(root = '.'): SourceFile[] {
  const files: SourceFile[] = [];
  const walk = (folder: string) => {
    for (const name of readdirSync(join(root, folder)).sort()) {
      const path = `${folder}/${name}`;
      if (statSync(join(root, path)).isDirectory()) walk(path);
      else if (CODE.test(name) && !name.endsWith('.d.mts') && !name.endsWith('.d.ts'))
        files.push({ path, text: readFileSync(join(root, path), 'utf8') });
    }
  };
  for (const folder of PRODUCT_FOLDERS) if (existsSync(join(root, folder))) walk(folder);
  return files;
}

const edgesOf = new WeakMap<readonly SourceFile[], ImportEdge[]>();

/**
 * Every import of every file: product files resolved to their paths, packages by name. Parsed
 * once a list of files: the rules all read the same list.
 */
export function importEdges(files: readonly SourceFile[]): ImportEdge[] {
  let edges = edgesOf.get(files);
  if (!edges) edgesOf.set(files, (edges = parseImportEdges(files)));
  return edges;
}

function parseImportEdges(files: readonly SourceFile[]): ImportEdge[] {
  const known = new Set(files.map((file) => file.path));
  const edges: ImportEdge[] = [];
  for (const file of files) {
    const source = ts.createSourceFile(file.path, file.text, ts.ScriptTarget.Latest, true);
    const add = (specifier: string, typeOnly: boolean, lazy: boolean) => {
      const to = resolveSpecifier(file.path, specifier, known);
      if (to) edges.push({ from: file.path, to, typeOnly, lazy });
    };
    const visit = (node: ts.Node) => {
      if (
        (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
        node.moduleSpecifier &&
        ts.isStringLiteral(node.moduleSpecifier)
      ) {
        add(node.moduleSpecifier.text, isTypeOnly(node), false);
      } else if (
        ts.isCallExpression(node) &&
        node.expression.kind === ts.SyntaxKind.ImportKeyword &&
        node.arguments[0] &&
        ts.isStringLiteral(node.arguments[0])
      ) {
        add(node.arguments[0].text, false, true);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return edges;
}

function isTypeOnly(node: ts.ImportDeclaration | ts.ExportDeclaration): boolean {
  if (ts.isExportDeclaration(node)) {
    if (node.isTypeOnly) return true;
    const clause = node.exportClause;
    return (
      !!clause &&
      ts.isNamedExports(clause) &&
      clause.elements.length > 0 &&
      clause.elements.every((element) => element.isTypeOnly)
    );
  }
  const clause = node.importClause;
  if (!clause) return false; // `import './x'`: run for its effects
  if (clause.isTypeOnly) return true;
  if (clause.name) return false;
  const bindings = clause.namedBindings;
  return (
    !!bindings &&
    ts.isNamedImports(bindings) &&
    bindings.elements.length > 0 &&
    bindings.elements.every((element) => element.isTypeOnly)
  );
}

function resolveSpecifier(from: string, specifier: string, known: Set<string>): string | undefined {
  if (!specifier.startsWith('.')) {
    if (specifier.startsWith('node:') || specifier.startsWith('virtual:')) return undefined;
    const parts = specifier.split('/');
    return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
  }
  const base = normalize(join(dirname(from), specifier));
  const candidates = [base, base.replace(/\.js$/, '.ts'), `${base}.ts`, `${base}/index.ts`];
  const found = candidates.find((candidate) => known.has(candidate));
  // A file of the folders beside the product (not read, so not known): kept, so that the table
  // can say who may import them.
  return found ?? (BESIDE_THE_PRODUCT.test(base) ? base : undefined);
}

/** Groups of files that import each other when they are loaded (static imports of values). */
export function runtimeCycles(files: readonly SourceFile[]): string[][] {
  return cyclesOf(files, (edge) => !edge.typeOnly && !edge.lazy);
}

/** Groups of files that import each other in any way: types and lazy imports too. */
export function importCycles(files: readonly SourceFile[]): string[][] {
  return cyclesOf(files, () => true);
}

function cyclesOf(files: readonly SourceFile[], counts: (edge: ImportEdge) => boolean): string[][] {
  const next = new Map<string, string[]>();
  for (const edge of importEdges(files)) {
    if (!counts(edge) || !edge.to.includes('/')) continue;
    next.set(edge.from, [...(next.get(edge.from) ?? []), edge.to]);
  }
  // Tarjan's strongly connected components: each of more than one file is a cycle.
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const connect = (file: string) => {
    index.set(file, counter);
    low.set(file, counter);
    counter += 1;
    stack.push(file);
    onStack.add(file);
    for (const to of next.get(file) ?? []) {
      if (!index.has(to)) {
        connect(to);
        low.set(file, Math.min(low.get(file)!, low.get(to)!));
      } else if (onStack.has(to)) low.set(file, Math.min(low.get(file)!, index.get(to)!));
    }
    if (low.get(file) === index.get(file)) {
      const group: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        group.push(member);
      } while (member !== file);
      if (group.length > 1 || next.get(file)?.includes(file)) cycles.push(group.sort());
    }
  };
  for (const file of files.map((each) => each.path)) if (!index.has(file)) connect(file);
  return cycles;
}

/** The database drivers: only the store and the search index speak to a database. */
export const DRIVERS = ['better-sqlite3', 'pg', 'kysely'] as const;
/** Where a driver may be imported: the store, and the search index (search/). */
export const DRIVER_PLACES = ['store/', 'search/'];

export function driverImportsOutside(
  files: readonly SourceFile[],
  places: readonly string[] = DRIVER_PLACES,
): string[] {
  return importEdges(files)
    .filter((edge) => (DRIVERS as readonly string[]).includes(edge.to))
    .filter((edge) => !places.some((place) => edge.from.startsWith(place)))
    .map((edge) => `${edge.from} imports ${edge.to}`);
}

/** The S3 client: only the object storage module speaks to an S3 server. */
export const S3_SDK = ['@aws-sdk/client-s3', '@aws-sdk/lib-storage'] as const;
export const S3_SDK_PLACES = ['store/object-storage/'];

export function s3SdkImportsOutside(files: readonly SourceFile[]): string[] {
  return importEdges(files)
    .filter((edge) => (S3_SDK as readonly string[]).includes(edge.to))
    .filter((edge) => !S3_SDK_PLACES.some((place) => edge.from.startsWith(place)))
    .map((edge) => `${edge.from} imports ${edge.to}`);
}

/**
 * Which top-level folders the files of each folder may import (types included); a file follows
 * the row of the most specific folder it is in. The kernel imports nothing of ours; the store and
 * the web (src/) only the kernel; search the kernel; the build (pipeline/) all of those. The
 * server's domain imports everything below it but the web: the view contracts it shares with the
 * pages are in the kernel (core/views/); only the server's HTTP layer (server/http/, which renders
 * the pages) and its dev server (server/dev/) import src/. scripts/ (commands, run by hand or by
 * npm) import the server and what is below it, and the benchmarks (bench/) they start; never the
 * web or the tests.
 */
export const ALLOWED_IMPORTS: Readonly<Record<string, readonly string[]>> = {
  core: [],
  store: ['core'],
  src: ['core'],
  search: ['core'],
  pipeline: ['core', 'store', 'search', 'src'],
  server: ['core', 'store', 'search', 'pipeline'],
  'server/http': ['core', 'store', 'search', 'pipeline', 'src'],
  'server/dev': ['core', 'store', 'search', 'pipeline', 'src'],
  scripts: ['core', 'store', 'search', 'pipeline', 'server', 'bench'],
};

const topFolder = (path: string) => path.split('/')[0]!;
/** A product file, as importEdges resolves one (a package is a bare name). */
const PRODUCT_FILE = /\.(ts|tsx|mts|mjs)$/;

/** The row of the table a file follows: its most specific folder's, if any. */
function rowOf(
  path: string,
  allowed: Readonly<Record<string, readonly string[]>>,
): readonly string[] | undefined {
  const folders = Object.keys(allowed).filter((folder) => path.startsWith(`${folder}/`));
  const mostSpecific = folders.sort((a, b) => b.length - a.length)[0];
  return mostSpecific === undefined ? undefined : allowed[mostSpecific];
}

/** Imports from one top-level folder into another that the table does not allow. */
export function importsAgainstDirection(
  files: readonly SourceFile[],
  allowed: Readonly<Record<string, readonly string[]>> = ALLOWED_IMPORTS,
): string[] {
  return importEdges(files)
    .filter((edge) => PRODUCT_FILE.test(edge.to))
    .filter((edge) => {
      const to = topFolder(edge.to);
      const row = rowOf(edge.from, allowed);
      return topFolder(edge.from) !== to && row !== undefined && !row.includes(to);
    })
    .map((edge) => `${edge.from} imports ${edge.to}`);
}

/**
 * Where the build (pipeline/) may enter the store: its narrow reader of the published ads, where
 * the database is, and the photos' and the site's object storage. Never the store with its parts
 * (store.ts, open-store.ts, store/parts/): compiling content opens only the reader.
 */
export const BUILD_STORE_DOORS = [
  'store/published-ads-reader.ts',
  'store/store-location.ts',
  'store/photo-storage/',
  'store/object-storage/',
];

/** Imports from pipeline/ into store/ other than by its doors, types included. */
export function buildImportsOfTheStore(
  files: readonly SourceFile[],
  doors: readonly string[] = BUILD_STORE_DOORS,
): string[] {
  const isDoor = (path: string) =>
    doors.some((door) => (door.endsWith('/') ? path.startsWith(door) : path === door));
  return importEdges(files)
    .filter((edge) => edge.from.startsWith('pipeline/') && edge.to.startsWith('store/'))
    .filter((edge) => !isDoor(edge.to))
    .map((edge) => `${edge.from} imports ${edge.to}`);
}

/** The files of store/ the build loads when it runs: value imports from pipeline/, lazy too, followed. */
export function storeFilesTheBuildLoads(files: readonly SourceFile[]): string[] {
  const next = new Map<string, string[]>();
  for (const edge of importEdges(files))
    if (!edge.typeOnly && edge.to.includes('/'))
      next.set(edge.from, [...(next.get(edge.from) ?? []), edge.to]);
  const seen = new Set<string>();
  const queue = files.map((file) => file.path).filter((path) => path.startsWith('pipeline/'));
  for (let path = queue.shift(); path !== undefined; path = queue.shift())
    for (const to of next.get(path) ?? [])
      if (!seen.has(to)) {
        seen.add(to);
        queue.push(to);
      }
  return [...seen].filter((path) => path.startsWith('store/')).sort();
}

/** The HTTP layer: routes, forms, middleware, the app; the server's other folders are its domain. */
export const HTTP_LAYER = 'server/http/';

/** Server modules outside the HTTP layer (its domain) that import it, types included. */
export function domainImportsOfHttp(files: readonly SourceFile[]): string[] {
  const outsideTheDomain = [HTTP_LAYER, 'server/dev/', 'server/index.ts'];
  return importEdges(files)
    .filter((edge) => edge.from.startsWith('server/') && edge.to.startsWith(HTTP_LAYER))
    .filter((edge) => !outsideTheDomain.some((place) => edge.from.startsWith(place)))
    .map((edge) => `${edge.from} imports ${edge.to}`);
}

export const MAX_FILE_LINES = 400;

export function filesOverLines(files: readonly SourceFile[], max = MAX_FILE_LINES): string[] {
  return files
    .map((file) => ({
      path: file.path,
      lines: file.text.split('\n').length - (file.text.endsWith('\n') ? 1 : 0),
    }))
    .filter((file) => file.lines > max)
    .map((file) => `${file.path}: ${file.lines} lines`);
}

/** The one file that writes the API's URLs; everything else builds them with its functions. */
export const URL_SHAPES_FILE = 'core/paths.ts';

/** A path of the API at the start of a string or template part, or after a space or quote. */
const API_URL = /(?:^|[\s"'(=])\/api(?:[/?#]|$)/;

/**
 * Every URL of the API written as a literal outside core/paths.ts (`file:line text`): strings,
 * template parts and JSX text, not comments, which may name the endpoints they describe.
 */
export function apiLiteralsOutsidePaths(files: readonly SourceFile[]): string[] {
  const found: string[] = [];
  for (const file of files) {
    if (file.path === URL_SHAPES_FILE || !file.text.includes('/api')) continue;
    const source = ts.createSourceFile(file.path, file.text, ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node) => {
      const literal =
        ts.isStringLiteralLike(node) ||
        ts.isTemplateLiteralToken(node) ||
        node.kind === ts.SyntaxKind.JsxText;
      if (literal && API_URL.test((node as ts.LiteralLikeNode).text)) {
        const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
        found.push(`${file.path}:${line} ${node.getText(source).trim()}`);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

/** The docs that describe the code: every path they name must exist. */
export const CODE_DOCS = ['docs/architecture.md', 'docs/conventions.md'];

const TOP_FOLDERS = /^(core|store|src|search|pipeline|server|scripts|bench|tests|docs|content)\//;

/** Paths named in backquotes in `text` (`server/http/app.ts`) that are not in the project. */
export function missingPathsIn(
  doc: string,
  text: string,
  exists: (path: string) => boolean = existsSync,
): string[] {
  const named = [...text.matchAll(/`([^`\s]+)`/g)].map((match) => match[1]!);
  return named
    .filter((path) => TOP_FOLDERS.test(path) && !/[{<*…]/.test(path))
    .filter((path) => !exists(path.replace(/[.,:;]$/, '')))
    .map((path) => `${doc} names ${path}`);
}
