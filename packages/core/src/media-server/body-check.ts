/** A body schema as an OpenAPI 2 description gives it: the part of JSON Schema a director's description uses. */
export interface BodySchema {
  $ref?: string;
  type?: string;
  properties?: Record<string, BodySchema>;
  required?: string[];
  items?: BodySchema;
  enum?: unknown[];
}

/** How deep a schema's references are followed: a description that refers to itself in a loop stops here. */
const MAX_DEPTH = 20;

/**
 * What is wrong with `value` against the description's schema, one line per problem naming where (`body.layers[0]`);
 * none when it fits. Unknown fields of a described object are problems: a typo (`layer` for `layers`) would
 * otherwise be sent and ignored. A schema part it cannot read (a type it does not know) lets the value through.
 */
export function bodyProblems(schema: BodySchema | undefined, definitions: Readonly<Record<string, BodySchema>>, value: unknown, where = 'body', depth = 0): string[] {
  if (!schema || depth > MAX_DEPTH) return [];
  if (schema.$ref !== undefined) return bodyProblems(definitions[schema.$ref.replace(/^#\/definitions\//, '')], definitions, value, where, depth + 1);
  if (schema.enum && !schema.enum.some((allowed) => allowed === value)) return [`${where} must be one of ${schema.enum.map((allowed) => JSON.stringify(allowed)).join(', ')} (got ${shownValue(value)})`];
  const typeProblem = wrongType(schema.type, value, where);
  if (typeProblem) return [typeProblem];
  if (Array.isArray(value)) return value.flatMap((item, index) => bodyProblems(schema.items, definitions, item, `${where}[${index}]`, depth + 1));
  if (schema.properties && typeof value === 'object' && value !== null) return objectProblems(schema, definitions, value as Record<string, unknown>, where, depth);
  return [];
}

function objectProblems(schema: BodySchema, definitions: Readonly<Record<string, BodySchema>>, value: Record<string, unknown>, where: string, depth: number): string[] {
  const properties = schema.properties ?? {};
  const known = Object.keys(properties);
  const missing = (schema.required ?? []).filter((name) => value[name] === undefined).map((name) => `${where}.${name} is required`);
  const unknown = Object.keys(value)
    .filter((name) => !(name in properties))
    .map((name) => `${where}.${name} is not a field the director describes (it knows ${known.length > 0 ? known.join(', ') : 'none'})`);
  const inside = known.filter((name) => value[name] !== undefined).flatMap((name) => bodyProblems(properties[name], definitions, value[name], `${where}.${name}`, depth + 1));
  return [...missing, ...unknown, ...inside];
}

function wrongType(type: string | undefined, value: unknown, where: string): string | undefined {
  const fits: Record<string, (candidate: unknown) => boolean> = {
    object: (candidate) => typeof candidate === 'object' && candidate !== null && !Array.isArray(candidate),
    array: Array.isArray,
    string: (candidate) => typeof candidate === 'string',
    boolean: (candidate) => typeof candidate === 'boolean',
    number: (candidate) => typeof candidate === 'number' && Number.isFinite(candidate),
    integer: Number.isInteger,
  };
  const check = type === undefined ? undefined : fits[type];
  return check && !check(value) ? `${where} must be ${type === 'array' || type === 'object' || type === 'integer' ? `an ${type}` : `a ${type}`} (got ${shownValue(value)})` : undefined;
}

function shownValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  const text = JSON.stringify(value) ?? typeof value;
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
}
