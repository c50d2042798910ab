import { build, type Metafile, type Plugin } from 'esbuild';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { NODE_BUNDLE, NODE_REQUIRE, NODE_SHEBANG, externalPackages, zodEnglishOnly } from './lib/node-bundle';
import { taskBundle } from './lib/task-bundle';
import { publishBuild, removeStaleStaging } from './lib/publish-build';

/**
 * Everything is built into a staging folder beside dist-host/, then moved in with rename() (see
 * scripts/lib/publish-build.ts): an interrupted build, or one made while a host runs, never leaves dist-host/chunks/
 * empty or half-written.
 */
/** DEPUTY_BUILD_HOST_ROOT: the folder that holds dist-host/ (default: here); tests build into a folder of their own. */
const ROOT_DIR = process.env.DEPUTY_BUILD_HOST_ROOT ?? '.';
const TARGET = relative('.', join(ROOT_DIR, 'dist-host')).replaceAll('\\', '/');
/**
 * Beside dist-host (same depth, so the source maps' relative paths hold once moved; same file system for rename), and
 * always the same folder: esbuild's content hash of a chunk covers where it is written, so a folder named per build
 * (by pid) gave every chunk a new name each build and dist-host/chunks/ grew by a whole set of chunks every time.
 * Folders of the old per-pid form, left by an interrupted build, are removed with it.
 */
const STAGING_PREFIX = '.dist-host-staging';
const STAGING = relative('.', join(ROOT_DIR, STAGING_PREFIX)).replaceAll('\\', '/');
/** A host started from an earlier build loads its chunks lazily: they are kept this long after they stop being used. */
const KEEP_UNUSED_CHUNKS_MS = 7 * 24 * 3600_000;
await mkdir(TARGET, { recursive: true });
await removeStaleStaging(ROOT_DIR, STAGING_PREFIX);

/**
 * The libraries the starts that are waited on use (the host's protocol schemas, the command line, the MCP server) are
 * bundled into the host: read as one file each, they cost a fraction of loading their hundreds of modules from
 * node_modules one by one. Every other dependency stays external and is loaded with `await import()` where needed.
 */
const INLINE = ['zod', 'commander', '@modelcontextprotocol/sdk'];

/**
 * The MCP SDK and ajv-formats (which the SDK loads) each install their own copy of ajv, of the same version: bundled
 * as they are, `deputy mcp` parsed ajv twice before it could answer `initialize`. ajv-formats gets the SDK's copy,
 * and only while the versions match.
 */
const oneAjv: Plugin = {
  name: 'one-ajv',
  setup(context) {
    const sdkAjv = 'node_modules/@modelcontextprotocol/sdk/node_modules/ajv/package.json';
    const formatsAjv = 'node_modules/ajv-formats/node_modules/ajv/package.json';
    const version = (file: string): string | undefined => {
      try {
        return (JSON.parse(readFileSync(file, 'utf8')) as { version?: string }).version;
      } catch {
        return undefined;
      }
    };
    const same = version(sdkAjv) !== undefined && version(sdkAjv) === version(formatsAjv);
    context.onResolve({ filter: /^ajv(\/.*)?$/ }, (args) =>
      same && /[\\/]node_modules[\\/]ajv-formats[\\/]/.test(args.importer)
        ? context.resolve(args.path, { kind: args.kind, resolveDir: resolve('node_modules/@modelcontextprotocol/sdk') })
        : undefined,
    );
  },
};

/** One Node bundle for Node 20; npm packages stay external (load from node_modules) unless `inline` is set. */
function bundle(entry: string, outfile: string, options: { inline?: boolean; banner?: string } = {}): Promise<unknown> {
  return build({
    ...NODE_BUNDLE,
    entryPoints: [entry],
    outfile,
    ...(options.inline ? { minify: true } : { packages: 'external', sourcemap: 'linked' }),
    ...(options.banner ? { banner: { js: options.banner } } : {}),
  });
}

/**
 * The native host and CLI: dist-host/deputy.mjs, split into chunks (dist-host/chunks/) so that each command loads
 * only the code it runs: the browser's hello, `--version` and `deputy mcp` answer before the spreadsheet reader, the
 * mail clients or the model SDKs are read from disk (they are loaded with `await import()` where first needed). The
 * metafile (dist-host/deputy.meta.json) is what tests/unit/scripts/host-start-graph.test.ts checks that by.
 */
const outfile = 'dist-host/deputy.mjs';
const staged = (file: string): string => join(STAGING, file.slice('dist-host/'.length));
const host = await build({
  ...NODE_BUNDLE,
  entryPoints: { deputy: 'native-host/index.ts' },
  outdir: STAGING,
  outExtension: { '.js': '.mjs' },
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  external: externalPackages(INLINE),
  sourcemap: 'linked',
  metafile: true,
  plugins: [zodEnglishOnly, oneAjv],
  banner: { js: `${NODE_SHEBANG}\n${NODE_REQUIRE}` },
});
/** The metafile names the files where they end up, not where they were staged. */
const metafile = JSON.stringify(host.metafile satisfies Metafile).replaceAll(`${STAGING}/`, `${TARGET}/`);
await writeFile(staged('dist-host/deputy.meta.json'), metafile);
await chmod(staged(outfile), 0o755);

/**
 * The fix loop's guard hook, which Claude Code starts for every writing tool call: one self-contained file with its
 * few dependencies inlined, so each call costs a Node start and nothing more.
 */
const hookfile = 'dist-host/loop-hook.mjs';
await bundle('native-host/loop-hook.ts', staged(hookfile), { inline: true });
/** The fixer's redaction (PostToolUse hook and shell prefix), started for every tool call and command: the same. */
const redactfile = 'dist-host/loop-redact.mjs';
await bundle('native-host/loop-redact.ts', staged(redactfile), { inline: true });

/**
 * `npm run task`, prebuilt: the CLI starts without compiling TypeScript (scripts/task.mjs runs it, and falls back to
 * the sources through tsx when it has not been built), and with the libraries it reads first bundled in (task-bundle.ts).
 */
const taskfile = 'dist-host/run-task.mjs';
await build(taskBundle(STAGING));
await publishBuild({ staging: STAGING, target: TARGET, chunksDir: 'chunks', keepUnusedMs: KEEP_UNUSED_CHUNKS_MS });
process.stderr.write(`built ${outfile} (and its chunks), ${hookfile}, ${redactfile} and ${taskfile}\n`);
