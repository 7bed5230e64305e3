import type { Operation } from './operation.js';

/**
 * GraphQL words out of a REST answer (issue 34 item 2). The REST edge validates a request against the
 * operation's JSON Schema first (rest/validate.ts), but the operation's own rules still answer in GraphQL
 * terms: a `ValidationError` names `input.handle`, a coercion error `Variable "$input" got invalid value …`.
 * Here each argument path becomes the REST field it came from (a JSON pointer into the body, or a path or
 * query parameter), and what is left of a GraphQL coercion message is said without variables or type names.
 */

export interface RestField {
  readonly field: string;
  readonly in: 'body' | 'path' | 'query';
}

const escape = (key: string) => key.replaceAll('~', '~0').replaceAll('/', '~1');

/** `input.action.play` (or `input.tiles[0]`, `input.tiles.0`) → `/action/play` in the body, or the parameter it came from. */
export const restFieldOf = (op: Operation, path: string): RestField | undefined => {
  const segments = path
    .replace(/\[(\d+)\]/g, '.$1')
    .split('.')
    .filter(Boolean);
  let best: { length: number; at: RestField } | undefined;
  for (const [argPath, source] of Object.entries(op.route.args)) {
    const arg = argPath.split('.');
    if (arg.length > segments.length || arg.some((a, i) => segments[i] !== a)) continue;
    if (best && best.length >= arg.length) continue;
    const rest = segments.slice(arg.length).map(escape);
    const tail = rest.length ? `/${rest.join('/')}` : '';
    if (source.from === 'body') best = { length: arg.length, at: { field: tail, in: 'body' } };
    else if (source.from === 'bodyField') best = { length: arg.length, at: { field: `/${escape(source.name)}${tail}`, in: 'body' } };
    else if ((source.from === 'path' || source.from === 'query') && !rest.length)
      best = { length: arg.length, at: { field: source.name, in: source.from } };
  }
  // A rule of the operation that names an argument `input.first` where the field's argument is `first`.
  if (!best && segments[0] === 'input' && segments.length > 1 && !op.field.args.some((a) => a.name === 'input'))
    return restFieldOf(op, segments.slice(1).join('.'));
  return best?.at;
};

const said = (at: RestField | undefined): string => {
  if (!at) return 'A field of the request';
  if (at.in !== 'body') return `The ${at.in} parameter ${at.field}`;
  return at.field === '' ? 'The body' : at.field;
};

/** The argument names of the operation's field (`input`, `first` …): the heads of its argument paths. */
const argNames = (op: Operation): string[] => op.field.args.map((a) => a.name);

/** Argument paths in a sentence (`input.handle: …`, `"input.action"`) as REST fields. */
const rewritePaths = (op: Operation, text: string): string => {
  const names = [...new Set(['input', ...argNames(op)])].map((n) => n.replace(/[^\w]/g, ''));
  if (!names.length) return text;
  const re = new RegExp(`\\b(?:${names.join('|')})(?:\\.[A-Za-z_]\\w*|\\.\\d+|\\[\\d+\\])+`, 'g');
  return text.replace(re, (path) => {
    const at = restFieldOf(op, path);
    return at ? (at.in === 'body' ? at.field || 'the body' : at.field) : path.replace(/^\w+\./, '');
  });
};

const scalarWords = (reason: string): string => {
  const int = /^Int cannot represent non 32-bit signed integer value/.exec(reason);
  if (int) return 'must be an integer from -2147483648 to 2147483647';
  const nonInt = /^(Int|Float) cannot represent non-(integer|numeric) value/.exec(reason);
  if (nonInt) return nonInt[1] === 'Int' ? 'must be an integer' : 'must be a number';
  if (/^(String|ID) cannot represent/.test(reason)) return 'must be a string';
  if (/^Boolean cannot represent/.test(reason)) return 'must be true or false';
  if (/^Enum "\w+" cannot represent/.test(reason)) return 'is not one of the values allowed';
  return 'is not a valid value';
};

/**
 * A GraphQL message in REST words: a variable coercion error as the REST field and what is wrong with it,
 * argument paths as REST fields, and `typeNames` (the schema's input types) never named.
 */
export const restMessage = (op: Operation, message: string, typeNames: ReadonlySet<string>): string => {
  let text = message;
  const variable =
    /^Variable "\$(\w+)" (?:got invalid value [\s\S]*?(?: at "([^"]+)")?; ([\s\S]*)|of required type "[^"]+" was not provided\.?)$/.exec(
      text,
    );
  const nonNull = /^Variable "\$(\w+)" of non-null type "[^"]+" must not be null\.?$/.exec(text);
  if (nonNull) text = `${said(restFieldOf(op, nonNull[1]!))} must not be null.`;
  else if (variable) {
    const [, name, at, reason] = variable;
    const base = restFieldOf(op, at ?? name!);
    if (reason === undefined) text = `${said(base)} is required.`;
    else {
      const field = /^Field "(\w+)" (is not defined by type|of required type) /.exec(reason);
      if (field) {
        const child = base
          ? { ...base, field: base.in === 'body' ? `${base.field}/${escape(field[1]!)}` : `${base.field}.${field[1]}` }
          : undefined;
        text =
          field[2] === 'is not defined by type'
            ? `${said(child)} is not a field of ${base?.field ? said(base) : 'the body'}.`
            : `${said(child)} is required.`;
      } else text = `${said(base)} ${scalarWords(reason)}.`;
    }
  }
  text = rewritePaths(op, text);
  if (typeNames.size) {
    text = text.replace(/"?\b([A-Z]\w*)\b!?"?/g, (word, name: string) => (typeNames.has(name) ? 'a value of the schema' : word));
  }
  return text;
};

/** A problem's members in REST words: `message`, `issues[].field`/`message`, and a `field` member. */
export const restMembers = <T extends Record<string, unknown>>(op: Operation, members: T, typeNames: ReadonlySet<string>): T => {
  const out: Record<string, unknown> = { ...members };
  if (typeof out['message'] === 'string') out['message'] = restMessage(op, out['message'], typeNames);
  if (typeof out['field'] === 'string') {
    const at = restFieldOf(op, out['field']);
    if (at) out['field'] = at.field;
  }
  if (Array.isArray(out['issues'])) {
    out['issues'] = out['issues'].map((issue: unknown) => {
      if (typeof issue !== 'object' || issue === null) return issue;
      const i = issue as { field?: unknown; message?: unknown };
      const at = typeof i.field === 'string' ? restFieldOf(op, i.field) : undefined;
      return {
        ...i,
        ...(at ? { field: at.field, in: at.in } : {}),
        ...(typeof i.message === 'string' ? { message: restMessage(op, i.message, typeNames) } : {}),
      };
    });
  }
  if (out['details'] && typeof out['details'] === 'object' && !Array.isArray(out['details']))
    out['details'] = restMembers(op, out['details'] as Record<string, unknown>, typeNames);
  return out as T;
};
