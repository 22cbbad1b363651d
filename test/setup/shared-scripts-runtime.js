const vm = require('node:vm');
const Runtime = require('jest-runtime').default;

/*
 * Jest's runtime, with what a worker compiles shared between its test files (jest.config.js names it as `runtime`;
 * plain JavaScript, since jest loads it before it transforms anything).
 *
 * Jest gives each test file a fresh module registry and compiles every module again for it: some 2,200 CommonJS
 * and 1,500 ES modules each time a file loads the service, about a quarter of the CPU that loading takes. Each file
 * still gets its own module instances; only the compiling is shared:
 * - a CommonJS module is compiled once into a `vm.Script`, which is not bound to a context, and run in each file's
 *   context (jest's own `vm.compileFunction` binds the function it makes to one context). Its bytecode, including
 *   the functions V8 compiled lazily while it ran, serves every later file;
 * - an ES module is bound to its context, so each file compiles it again, from V8's code cache of the first
 *   compile.
 * A module whose transformed source changed (an edit in watch mode) is compiled afresh. With coverage on, jest
 * compiles CommonJS modules itself.
 */

/** filename -> the wrapped source and the script compiled from it, for the life of this jest worker. */
const scripts = new Map();
/** identifier -> the ES module's source and V8's code cache of it. */
const moduleCaches = new Map();
/** The runtime of the file this worker runs now (one at a time): a dynamic `import()` belongs to its registry. */
let active = null;

class SharedScriptsRuntime extends Runtime {
  constructor(config, environment, resolver, transformer, cacheFS, coverageOptions, ...rest) {
    super(config, environment, resolver, transformer, cacheFS, coverageOptions, ...rest);
    active = this;
    const executor = this.executor;
    // Jest's own compiling where coverage is collected, or where a jest release no longer has this seam.
    if (coverageOptions?.collectCoverage || typeof executor?.compile !== 'function') return;
    const compileAlone = executor.compile.bind(executor);
    const prefix = `(function (${executor.injectedModuleParameters.join(', ')}) {`;
    executor.compile = (source, filename) => {
      const context = executor.environment.getVmContext();
      if (context == null) return null;
      const wrapped = `${prefix}${source}\n})`;
      let entry = scripts.get(filename);
      if (entry?.wrapped !== wrapped) {
        let script;
        try {
          script = new vm.Script(wrapped, {
            filename,
            // The module's own columns on its first line, as jest's compile reports them.
            columnOffset: -prefix.length,
            importModuleDynamically: (specifier, _script, attributes, phase) =>
              active.executor.dynamicImport(
                specifier,
                filename,
                active.executor.environment.getVmContext(),
                attributes,
                phase,
              ),
          });
        } catch {
          // A syntax error, reported jest's way (which also retries ES module syntax as an ES module).
          return compileAlone(source, filename);
        }
        entry = { wrapped, script };
        scripts.set(filename, entry);
      }
      return entry.script.runInContext(context);
    };
  }
}

// Jest constructs ES modules with `vm.SourceTextModule` from this same `node:vm`; they take V8's code cache here.
const SourceTextModule = vm.SourceTextModule;
if (SourceTextModule) {
  vm.SourceTextModule = class CachedSourceTextModule extends SourceTextModule {
    constructor(source, options = {}) {
      const id = options.identifier;
      const cached = id === undefined ? undefined : moduleCaches.get(id);
      if (cached?.source === source) {
        try {
          super(source, { ...options, cachedData: cached.data });
          return;
        } catch {
          // V8 rejected the cache (it throws): compile from the source below.
        }
      }
      super(source, options);
      // A code cache can only be made before the module runs: it holds the top level, not what runs later.
      if (id !== undefined) moduleCaches.set(id, { source, data: this.createCachedData() });
    }
  };
}

module.exports = SharedScriptsRuntime;
