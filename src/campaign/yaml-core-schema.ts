import jsyaml from 'js-yaml';

/**
 * The strict reader's typing of plain scalars, for js-yaml. js-yaml's own core
 * schema reads a few scalars differently (0b101 and 1_000 are numbers to it),
 * so a player's file read by js-yaml is typed here by the YAML 1.2 core schema
 * rules as the `yaml` package applies them, in the same order. js-yaml keeps
 * one implicit type per tag, so the three int and the three float forms are
 * one type each; their patterns are disjoint, so the first match is the same
 * as the strict reader's.
 */
const INT = /^(?:0o[0-7]+|[-+]?[0-9]+|0x[0-9a-fA-F]+)$/;
const FLOAT_SPECIAL = /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/;
const FLOAT = /^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+|[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*))$/;
export const YAML_CORE_SCHEMA = jsyaml.FAILSAFE_SCHEMA.extend({
  implicit: [
    new jsyaml.Type('tag:yaml.org,2002:null', { kind: 'scalar', resolve: (s: string) => /^(?:~|[Nn]ull|NULL)?$/.test(s), construct: () => null }),
    new jsyaml.Type('tag:yaml.org,2002:bool', { kind: 'scalar', resolve: (s: string) => /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/.test(s), construct: (s: string) => s[0] === 't' || s[0] === 'T' }),
    new jsyaml.Type('tag:yaml.org,2002:int', {
      kind: 'scalar',
      resolve: (s: string) => INT.test(s),
      construct: (s: string) => (s.startsWith('0o') ? parseInt(s.slice(2), 8) : s.startsWith('0x') ? parseInt(s.slice(2), 16) : parseInt(s, 10)),
    }),
    new jsyaml.Type('tag:yaml.org,2002:float', {
      kind: 'scalar',
      resolve: (s: string) => FLOAT_SPECIAL.test(s) || FLOAT.test(s),
      construct: (s: string) => (!FLOAT_SPECIAL.test(s) ? parseFloat(s) : s.slice(-3).toLowerCase() === 'nan' ? NaN : s[0] === '-' ? -Infinity : Infinity),
    }),
  ],
});

/** A scalar type of a js-yaml schema: whether a plain scalar is one, and its value. */
export interface ImplicitType {
  resolve(data: string): boolean;
  construct(data: string): unknown;
}
/**
 * js-yaml's own core schema's implicit types (null, bool, int, float), in the order it tries them on a plain
 * scalar: what the processor's own files (state, events) are written and read with.
 */
export const JSYAML_CORE_IMPLICIT = implicitTypesOf(jsyaml.CORE_SCHEMA);
/** YAML_CORE_SCHEMA's implicit types, the same way. */
export const YAML_CORE_IMPLICIT = implicitTypesOf(YAML_CORE_SCHEMA);

function implicitTypesOf(schema: jsyaml.Schema): readonly ImplicitType[] {
  return (schema as unknown as { compiledImplicit: ImplicitType[] }).compiledImplicit;
}
