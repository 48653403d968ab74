// The architecture's rules, read from the source (docs/conventions.md): the product's files and
// their imports, found with the TypeScript compiler, and one function a rule that lists what breaks
// it. Each takes the files it judges, so the architecture test can show every rule failing on a
// few files made up to break it, and passing on the product.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import ts from 'typescript';

export interface SourceFile {
  /** Relative to the project: `server/store/store.ts`. */
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
  'server',
  'src',
  'pipeline',
  'search',
  'renderer',
  'scripts',
] as const;
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

/** Every import of every file: product files resolved to their paths, packages by name. */
export function importEdges(files: readonly SourceFile[]): ImportEdge[] {
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
  return candidates.find((candidate) => known.has(candidate));
}

/** Groups of files that import each other when they are loaded (static imports of values). */
export function runtimeCycles(files: readonly SourceFile[]): string[][] {
  const next = new Map<string, string[]>();
  for (const edge of importEdges(files)) {
    if (edge.typeOnly || edge.lazy || !edge.to.includes('/')) continue;
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
export const DRIVER_PLACES = ['server/store/', 'search/'];

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
export const S3_SDK_PLACES = ['server/object-storage/'];

export function s3SdkImportsOutside(files: readonly SourceFile[]): string[] {
  return importEdges(files)
    .filter((edge) => (S3_SDK as readonly string[]).includes(edge.to))
    .filter((edge) => !S3_SDK_PLACES.some((place) => edge.from.startsWith(place)))
    .map((edge) => `${edge.from} imports ${edge.to}`);
}

/** The store returns rows: it never imports a page or a page's types. */
export function storeImportsOfPages(files: readonly SourceFile[]): string[] {
  return importEdges(files)
    .filter((edge) => edge.from.startsWith('server/store/') && edge.to.startsWith('src/pages/'))
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
export const URL_SHAPES_FILE = 'src/paths.ts';

/** A path of the API at the start of a string or template part, or after a space or quote. */
const API_URL = /(?:^|[\s"'(=])\/api(?:[/?#]|$)/;

/**
 * Every URL of the API written as a literal outside src/paths.ts (`file:line text`): strings,
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
