// The types and the lint of `npm test` on one TypeScript program: `tsc --noEmit`'s check, then
// `eslint .` with its typed rules reading that same program (typescript-eslint's
// `parserOptions.programs`) instead of building and checking a second one. The same files, the same
// compiler options (tsconfig.json), the same rules (eslint.config.mjs) and the same reports as the
// two commands, which stay `npm run typecheck` and `npm run lint`; one process, less work: the typed
// rules find the checker's answers already made.
import { ESLint } from "eslint";
import ts from "typescript";
import { TYPED_FILES } from "../eslint.config.mjs";

const root = new URL("..", import.meta.url).pathname;

const host = { getCanonicalFileName: (name) => name, getCurrentDirectory: () => root, getNewLine: () => ts.sys.newLine };
/** Diagnostics as tsc prints them: in colour with their lines on a terminal, a line each otherwise. */
const format = (diagnostics) =>
  process.stderr.isTTY ? ts.formatDiagnosticsWithColorAndContext(diagnostics, host) : ts.formatDiagnostics(diagnostics, host);

/** The program tsconfig.json describes, its diagnostics printed as tsc prints them; answers the program and whether it checks. */
function checkTypes() {
  const configPath = ts.findConfigFile(root, ts.sys.fileExists, "tsconfig.json");
  if (configPath === undefined) throw new Error(`No tsconfig.json in ${root}`);
  const { config, error } = ts.readConfigFile(configPath, ts.sys.readFile);
  if (error !== undefined) {
    process.stderr.write(format([error]));
    return { program: undefined, typesPass: false };
  }
  const parsed = ts.parseJsonConfigFileContent(config, ts.sys, root, undefined, configPath);
  const program = ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options, projectReferences: parsed.projectReferences, configFileParsingDiagnostics: parsed.errors });
  const diagnostics = ts.sortAndDeduplicateDiagnostics([...parsed.errors, ...ts.getPreEmitDiagnostics(program)]);
  const errors = diagnostics.filter((d) => d.category === ts.DiagnosticCategory.Error).length;
  if (diagnostics.length > 0) {
    process.stderr.write(format(diagnostics));
    process.stderr.write(`\nFound ${errors} error${errors === 1 ? "" : "s"} in the types.\n`);
  }
  return { program, typesPass: errors === 0 };
}

/** `eslint .` with the typed rules on `program` when there is one; answers whether it passes. */
async function lint(program) {
  const eslint = new ESLint({
    cwd: root,
    overrideConfig:
      program === undefined
        ? []
        : [{ files: TYPED_FILES, languageOptions: { parserOptions: { projectService: false, programs: [program] } } }],
  });
  const results = await eslint.lintFiles(["."]);
  const formatter = await eslint.loadFormatter("stylish");
  const report = await formatter.format(results);
  if (report !== "") process.stdout.write(report);
  return results.every((result) => result.errorCount === 0 && result.fatalErrorCount === 0);
}

const { program, typesPass } = checkTypes();
const lintPasses = await lint(program);
if (!typesPass) console.error("The types do not check (tsc).");
if (!lintPasses) console.error("The lint failed (ESLint).");
process.exit(typesPass && lintPasses ? 0 : 1);
