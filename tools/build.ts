/**
 * `npm run build`: the service as plain JavaScript for production, `node dist/src/entry/api.js`
 * and `node dist/src/entry/worker.js` with no tsx. tsc compiles src/, workflows/, activities/ and
 * generated/ (tsconfig.build.json) into dist/, keeping their layout beside the portal's
 * dist/portal; then the workflow bundle is built once, as the worker would at every start, into
 * dist/workflow-bundle.js (and a traced one), which the compiled worker loads instead.
 * `--out-dir <dir>` writes elsewhere (tests).
 */
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleWorkflowCode, DefaultLogger } from '@temporalio/worker';
import ts from 'typescript';
import { preloadModules, tracingWorkflowInterceptors, workflowBundleFile, workflowsPath } from '../src/worker/create-worker';

const root = fileURLToPath(new URL('..', import.meta.url));
const outFlag = process.argv.indexOf('--out-dir');
const outDir = outFlag > 0 && process.argv[outFlag + 1] ? resolve(process.argv[outFlag + 1]!) : join(root, 'dist');
const started = Date.now();

/**
 * The source imports modules without extensions (`moduleResolution: Bundler`, as tsx and vitest
 * resolve them); Node's ESM loader needs the file, so each relative specifier gets the `.js` (or
 * `/index.js`) of the module it names.
 */
function withJsExtension(specifier: string, fromFile: string): string {
  if (!specifier.startsWith('.') || /\.(m?js|json)$/.test(specifier)) return specifier;
  const base = resolve(dirname(fromFile), specifier);
  if (existsSync(`${base}.ts`)) return `${specifier}.js`;
  if (existsSync(join(base, 'index.ts'))) return `${specifier}/index.js`;
  throw new Error(`${fromFile}: cannot resolve ${specifier}`);
}

const rewriteSpecifiers: ts.TransformerFactory<ts.SourceFile> = (context) => (file) => {
  const { factory } = context;
  const literal = (node: ts.Expression | undefined) => (node && ts.isStringLiteral(node) ? factory.createStringLiteral(withJsExtension(node.text, file.fileName)) : node);
  const visit = (node: ts.Node): ts.Node => {
    if (ts.isImportDeclaration(node)) {
      return factory.updateImportDeclaration(node, node.modifiers, node.importClause, literal(node.moduleSpecifier)!, node.attributes);
    }
    if (ts.isExportDeclaration(node) && node.moduleSpecifier) {
      return factory.updateExportDeclaration(node, node.modifiers, node.isTypeOnly, node.exportClause, literal(node.moduleSpecifier), node.attributes);
    }
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0]) {
      return factory.updateCallExpression(node, node.expression, node.typeArguments, [literal(node.arguments[0])!, ...node.arguments.slice(1)]);
    }
    return ts.visitEachChild(node, visit, context);
  };
  return ts.visitEachChild(file, visit, context);
};

// Compiled output of an earlier build goes; dist/portal (tools/build-portal.ts) stays.
for (const dir of ['src', 'workflows', 'activities', 'generated', workflowBundleFile(false), workflowBundleFile(true)]) {
  rmSync(join(outDir, dir), { recursive: true, force: true });
}

const configFile = join(root, 'tsconfig.build.json');
const parsed = ts.getParsedCommandLineOfConfigFile(configFile, { outDir }, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => fail([d]) });
if (!parsed) throw new Error(`cannot read ${configFile}`);
const program = ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options });
const emitted = program.emit(undefined, undefined, undefined, false, { before: [rewriteSpecifiers] });
const diagnostics = [...ts.getPreEmitDiagnostics(program), ...emitted.diagnostics];
if (diagnostics.length > 0) fail(diagnostics);
const compiledMs = Date.now() - started;

function fail(diagnostics: readonly ts.Diagnostic[]): never {
  const host = { getCanonicalFileName: (f: string) => f, getCurrentDirectory: () => root, getNewLine: () => '\n' };
  console.error(ts.formatDiagnosticsWithColorAndContext(diagnostics, host));
  process.exit(1);
}

// Both variants: the worker loads the traced one when OTEL_EXPORTER_OTLP_ENDPOINT turns tracing on.
mkdirSync(outDir, { recursive: true });
for (const traced of [false, true]) {
  const { code } = await bundleWorkflowCode({ workflowsPath, preloadModules, ...(traced ? { workflowInterceptorModules: tracingWorkflowInterceptors } : {}), logger: new DefaultLogger('WARN') });
  writeFileSync(join(outDir, workflowBundleFile(traced)), code);
}
const shown = isAbsolute(outDir) && outDir.startsWith(root) ? outDir.slice(root.length) : outDir;
console.log(`build: compiled ${parsed.fileNames.length} files in ${compiledMs} ms, workflow bundles in ${Date.now() - started - compiledMs} ms, into ${shown}`);
