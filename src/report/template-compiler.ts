import type Handlebars from 'handlebars';

/**
 * Report templates compiled to plain JavaScript, for speed: the same output
 * as Handlebars' own compilation (strict mode, as render.ts compiles them),
 * byte for byte, without its runtime's per-value work (a helper call and an
 * options object per `{{#if}}`, prototype checks, a depth list and block
 * parameters per item of every `{{#each}}`), which was a tenth of a big
 * turn's CPU.
 *
 * It covers what report templates use: text, comments, `{{value}}` and
 * `{{{value}}}` over paths (`a.b`, `this`, `../a`, `@index`, `@first`,
 * `@last`, `@key`), the campaign's helpers with literal, path and
 * sub-expression arguments, `#if`, `#unless`, `#each` and `#with` with their
 * `{{else}}`, and partials by name (indented as Handlebars indents them). A
 * template using anything else (hash arguments, block parameters, `@root`,
 * decorators, partial blocks, `lookup`, `log`...) is not compiled here:
 * `compileFast` answers undefined and the caller keeps Handlebars. And at run
 * time, wherever Handlebars would throw (a field missing in strict mode) or
 * do something unusual (a function in the data, a property inherited from a
 * prototype, a null context), the compiled template gives up and Handlebars
 * renders instead (`withFallback`), so errors keep Handlebars' wording and
 * line.
 *
 * Helpers are called as Handlebars calls them, the last argument an options
 * object; this one carries only the helper's name and an empty hash, which
 * is all the campaign's helpers (render.ts, registerHelpers) read.
 */
type Program = hbs.AST.Program;
type Statement = hbs.AST.Statement;
type Expression = hbs.AST.Expression;
type PathExpression = hbs.AST.PathExpression;
type SubExpression = hbs.AST.SubExpression;

/** Thrown where the compiled template hands over to Handlebars. */
class HandOver extends Error {}

class Unsupported extends Error {}

/** Handlebars' built-in helpers this compiler implements itself; any other built-in (lookup, log...) is left to Handlebars. */
const BLOCK_HELPERS = new Set(['if', 'unless', 'each', 'with']);
const BUILT_IN = new Set([...BLOCK_HELPERS, 'lookup', 'log', 'helperMissing', 'blockHelperMissing']);

export type RenderFunction = (context: unknown) => string;

interface Runtime {
  esc: (value: unknown) => string;
  helpers: Record<string, (...args: unknown[]) => unknown>;
  partial: (name: string, context: unknown, data: Frame, indent: string) => string;
}

interface Frame {
  key?: unknown;
  index?: number;
  first?: boolean;
  last?: boolean;
}

/** A template's compiled programs as JavaScript source, and whether it reads `..`. */
class Generator {
  private readonly programs: string[] = [];
  private readonly options: string[] = [];

  constructor(
    private readonly helperNames: ReadonlySet<string>,
    private readonly noEscape: boolean,
  ) {}

  /** The source of a function (R) => main(context, data), or Unsupported. */
  generate(root: Program): string {
    const main = this.program(root);
    return [
      '"use strict";',
      'const esc = R.esc, H = R.helpers, partial = R.partial;',
      ...this.options.map((o, i) => `const O${i} = ${o};`),
      RUNTIME_SOURCE,
      ...this.programs,
      `return (c, d) => p${main}(c, d, ${usesDepth(root) ? '[c]' : 'undefined'});`,
    ].join('\n');
  }

  /** Compiles a program into a function p<N>(c, d, ds), returning N. */
  private program(program: Program): number {
    if (program.blockParams?.length) throw new Unsupported('block parameters');
    const index = this.programs.length;
    this.programs.push('');
    const depth = usesDepth(program);
    const lines = [`function p${index}(c, d, ds) {`];
    // Handlebars' wrapProgram: a new context is pushed on the depths ("..") unless it is the one on top.
    if (depth) lines.push('if (ds !== undefined && c != ds[0]) ds = [c].concat(ds);');
    else lines.push('ds = undefined;');
    lines.push("let o = '';");
    for (const s of program.body) lines.push(this.statement(s));
    lines.push('return o;', '}');
    this.programs[index] = lines.join('\n');
    return index;
  }

  private statement(s: Statement): string {
    switch (s.type) {
      case 'ContentStatement': {
        const value = (s as hbs.AST.ContentStatement).value;
        return value ? `o += ${JSON.stringify(value)};` : '';
      }
      case 'CommentStatement':
        return '';
      case 'MustacheStatement':
        return this.mustache(s as hbs.AST.MustacheStatement);
      case 'BlockStatement':
        return this.block(s as hbs.AST.BlockStatement);
      case 'PartialStatement': {
        const p = s as hbs.AST.PartialStatement;
        if (p.params.length || p.hash || p.name.type !== 'PathExpression') throw new Unsupported('partial arguments');
        return `o += partial(${JSON.stringify(p.name.original)}, c, d, ${JSON.stringify(p.indent ?? '')});`;
      }
      default:
        throw new Unsupported(s.type);
    }
  }

  private mustache(m: hbs.AST.MustacheStatement): string {
    if (m.hash) throw new Unsupported('hash arguments');
    if (m.path.type !== 'PathExpression') throw new Unsupported('a literal as a mustache');
    const path = m.path as PathExpression;
    let value: string;
    if (m.params.length) value = this.helperCall(path, m.params);
    else {
      // `{{name}}` could be a helper's name; `{{a.b}}`, `{{this}}`, `{{../a}}` are always paths.
      if (isSimpleId(path) && (this.helperNames.has(path.parts[0]!) || BUILT_IN.has(path.parts[0]!))) throw new Unsupported('a helper without arguments');
      value = `lambda(${this.strictPath(path)})`;
    }
    return m.escaped && !this.noEscape ? `o += esc(${value});` : `{ const v = ${value}; if (v != null) o += v; }`;
  }

  private block(b: hbs.AST.BlockStatement): string {
    const name = b.path.type === 'PathExpression' && isSimpleId(b.path) ? b.path.parts[0]! : '';
    if (!BLOCK_HELPERS.has(name) || b.params.length !== 1 || b.hash) throw new Unsupported(`the block ${b.path.original}`);
    const param = this.expression(b.params[0]!);
    const fn = b.program ? `p${this.program(b.program)}` : undefined;
    const inverse = b.inverse ? `p${this.program(b.inverse)}` : undefined;
    const run = (p: string | undefined, context: string, data = 'd') => (p ? `o += ${p}(${context}, ${data}, ds);` : '');
    // Handlebars calls a block helper on a null context with a stand-in object; that case is left to it.
    const guard = 'if (c == null) throw HAND_OVER;';
    switch (name) {
      case 'if':
        return `{ ${guard} const v = lambda(${param}); if (isEmpty(v)) { ${run(inverse, 'c')} } else { ${run(fn, 'c')} } }`;
      case 'unless':
        return `{ ${guard} const v = lambda(${param}); if (isEmpty(v)) { ${run(fn, 'c')} } else { ${run(inverse, 'c')} } }`;
      case 'with':
        return `{ ${guard} const v = lambda(${param}); if (!isBlank(v)) { ${run(fn, 'v')} } else { ${run(inverse, 'c')} } }`;
      default:
        return [
          `{ ${guard} const v = lambda(${param}); let n = 0;`,
          `if (v && typeof v === 'object') {`,
          `  const f = { key: undefined, index: 0, first: true, last: false };`,
          `  if (Array.isArray(v)) { n = v.length; for (let i = 0; i < n; i++) if (i in v) { f.key = i; f.index = i; f.first = i === 0; f.last = i === n - 1; ${run(fn, 'v[i]', 'f')} } }`,
          `  else if (v[Symbol.iterator]) throw HAND_OVER;`,
          `  else { const keys = Object.keys(v); n = keys.length; for (let i = 0; i < n; i++) { const k = keys[i]; f.key = k; f.index = i; f.first = i === 0; f.last = i === n - 1; ${run(fn, 'v[k]', 'f')} } }`,
          `}`,
          `if (n === 0) { ${run(inverse, 'c')} } }`,
        ].join('\n');
    }
  }

  /** A helper call: the campaign's helper by name, its arguments, an options object last. */
  private helperCall(path: PathExpression, params: readonly Expression[]): string {
    if (!isSimpleId(path) || !this.helperNames.has(path.parts[0]!)) throw new Unsupported(`the helper ${path.original}`);
    const name = path.parts[0]!;
    const options = this.options.push(`Object.freeze({ name: ${JSON.stringify(name)}, hash: Object.freeze({}) })`) - 1;
    return `H[${JSON.stringify(name)}](${[...params.map((p) => this.expression(p)), `O${options}`].join(', ')})`;
  }

  /** An argument: a literal, a path (looked up without strict mode's check, as Handlebars does for arguments), or a sub-expression. */
  private expression(e: Expression): string {
    switch (e.type) {
      case 'StringLiteral':
      case 'NumberLiteral':
      case 'BooleanLiteral':
        return JSON.stringify((e as hbs.AST.StringLiteral).value);
      case 'UndefinedLiteral':
        return 'undefined';
      case 'NullLiteral':
        return 'null';
      case 'SubExpression': {
        const sub = e as SubExpression;
        if (sub.hash || !sub.params.length) throw new Unsupported('a sub-expression without arguments');
        return this.helperCall(sub.path, sub.params);
      }
      case 'PathExpression': {
        const path = e as PathExpression;
        let code = this.base(path);
        for (const part of path.parts) code = `prop(${code}, ${JSON.stringify(part)})`;
        return code;
      }
      default:
        throw new Unsupported(e.type);
    }
  }

  /** A mustache's path: every part but the last looked up, the last required (strict mode). */
  private strictPath(path: PathExpression): string {
    let code = this.base(path);
    path.parts.forEach((part, i) => {
      code = i === path.parts.length - 1 ? `strict(${code}, ${JSON.stringify(part)})` : `prop(${code}, ${JSON.stringify(part)})`;
    });
    return code;
  }

  private base(path: PathExpression): string {
    if (path.data) {
      if (path.depth || path.parts[0] === 'root') throw new Unsupported(`@${path.original}`);
      return 'd';
    }
    return path.depth ? `ds[${path.depth}]` : 'c';
  }
}

/** Handlebars' AST.helpers.simpleId: one part, not scoped (`this.`, `./`), no depth. */
function isSimpleId(path: PathExpression): boolean {
  return path.parts.length === 1 && !/^\.|this\b/.test(path.original) && !path.depth;
}

/**
 * Whether a program, or a block inside it, reads `..`: its contexts must then be kept as Handlebars keeps them.
 * Each node's answer is kept: every program asks it of its whole tree, the blocks nested in it again of
 * theirs, and the trees are shared between templates (render.ts parses each source once). Asked afresh
 * at every level, it was a sixth of compiling the templates (a report thread's start).
 */
function usesDepth(node: unknown): boolean {
  if (!node || typeof node !== 'object') return false;
  const known = depthRead.get(node);
  if (known !== undefined) return known;
  const n = node as { type?: string; depth?: number };
  const reads = (n.type === 'PathExpression' && (n.depth ?? 0) > 0) || Object.values(node).some((v) => (Array.isArray(v) ? v.some(usesDepth) : typeof v === 'object' && usesDepth(v)));
  depthRead.set(node, reads);
  return reads;
}
const depthRead = new WeakMap<object, boolean>();

/** What the generated programs call: Handlebars' own rules, ending in HAND_OVER where they would throw or do something unusual. */
const RUNTIME_SOURCE = `
const HAND_OVER = R.handOver;
const own = Object.prototype.hasOwnProperty;
function prop(parent, name) {
  const v = parent[name];
  if (v == null) return v;
  if (own.call(parent, name) && name !== 'constructor') return v;
  throw HAND_OVER;
}
function strict(obj, name) {
  if (!obj || typeof obj !== 'object' || !(name in obj)) throw HAND_OVER;
  return prop(obj, name);
}
function lambda(v) {
  if (typeof v === 'function') throw HAND_OVER;
  return v;
}
// #if and #unless: false, empty or zero.
function isEmpty(v) {
  return !v || (Array.isArray(v) && v.length === 0);
}
// #with (Handlebars' isEmpty): as #if, but zero is a value.
function isBlank(v) {
  return (!v && v !== 0) || (Array.isArray(v) && v.length === 0);
}
`;

/** Indents every line of a partial's output as Handlebars does for a partial alone on its line. */
function indented(text: string, indent: string): string {
  if (!indent) return text;
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i] && i + 1 === lines.length) break;
    lines[i] = indent + lines[i];
  }
  return lines.join('\n');
}

type Compiled = (context: unknown, data: Frame) => string;

/** A template's source to its syntax tree: Handlebars' parser, or one that keeps what it parsed (the compiler only reads the trees). */
export type ParseTemplate = (source: string) => Program;

/**
 * Compiles a template and the partials it may call for one Handlebars
 * instance (its helpers, its escaping), or answers undefined when the
 * template or one of its partials uses something this compiler leaves to
 * Handlebars.
 */
export function compileFast(hb: typeof Handlebars, body: string, partials: Readonly<Record<string, string>>, noEscape: boolean, parse: ParseTemplate = (source) => hb.parse(source)): RenderFunction | undefined {
  const helperNames = new Set(Object.keys(hb.helpers).filter((h) => !BUILT_IN.has(h)));
  const handOver = new HandOver('handed over to Handlebars');
  const compiled = new Map<string, Compiled | null>();
  const runtime: Runtime & { handOver: HandOver } = {
    esc: hb.Utils.escapeExpression as (value: unknown) => string,
    helpers: Object.fromEntries([...helperNames].map((h) => [h, hb.helpers[h] as (...args: unknown[]) => unknown])),
    partial: (name, context, data, indent) => {
      const fn = partialFn(name);
      if (!fn) throw handOver;
      return indented(fn(context, data), indent);
    },
    handOver,
  };
  const build = (source: string): Compiled | null => {
    try {
      const generated = new Generator(helperNames, noEscape).generate(parse(source));
      // Handlebars compiles templates to functions the same way; the source is our generator's, from the
      // campaign's own templates, and every value it prints goes through the same escaping.
      // eslint-disable-next-line @typescript-eslint/no-implied-eval
      const make = new Function('R', generated) as (r: typeof runtime) => Compiled;
      return make(runtime);
    } catch (e) {
      if (e instanceof Unsupported) return null;
      throw e;
    }
  };
  const partialFn = (name: string): Compiled | null => {
    if (!compiled.has(name)) compiled.set(name, Object.hasOwn(partials, name) ? build(partials[name]!) : null);
    return compiled.get(name)!;
  };
  const main = build(body);
  if (!main) return undefined;
  // Every partial is compiled now, so a template whose partials need Handlebars is left to Handlebars whole.
  for (const name of Object.keys(partials)) if (!partialFn(name)) return undefined;
  return (context) => main(context, {});
}

/** The compiled template, and Handlebars' wherever the compiled one hands over (its errors are Handlebars'). */
export function withFallback(fast: RenderFunction, slow: RenderFunction): RenderFunction {
  return (context) => {
    try {
      return fast(context);
    } catch {
      return slow(context);
    }
  };
}
