/**
 * A minimal Caddyfile reader for the tests of the files that configure
 * Caddy (deploy/Caddyfile, scripts/cluster/caddyfile.ts): directives, their
 * arguments and nested blocks; the global options block, first and
 * nameless, is read as a directive named ''.
 */
export interface Directive {
  name: string;
  args: string[];
  block: Directive[];
}

/** A minimal Caddyfile parser: comments, quoted arguments, nested blocks; throws on an unbalanced brace. */
export function parseCaddyfile(text: string): Directive[] {
  const tokens: Array<string | '{' | '}' | '\n'> = [];
  for (const line of text.split('\n')) {
    const code = line.replace(/(^|\s)#.*$/, '');
    for (const match of code.matchAll(/"((?:[^"\\]|\\.)*)"|(\{)|(\})|([^\s{}"]+)/g)) {
      tokens.push(match[2] ?? match[3] ?? match[1] ?? match[4]!);
    }
    tokens.push('\n');
  }
  let at = 0;
  const parseBlock = (nested: boolean): Directive[] => {
    const out: Directive[] = [];
    let current: Directive | null = null;
    while (at < tokens.length) {
      const token = tokens[at++]!;
      if (token === '\n') current = null;
      else if (token === '}') {
        if (!nested) throw new Error('unexpected }');
        return out;
      } else if (token === '{') {
        // A block without a name at the top is Caddy's global options.
        if (!current && !nested && out.length === 0) {
          current = { name: '', args: [], block: [] };
          out.push(current);
        }
        if (!current) throw new Error('a block without a directive');
        current.block = parseBlock(true);
        current = null;
      } else if (current) current.args.push(token);
      else {
        current = { name: token, args: [], block: [] };
        out.push(current);
      }
    }
    if (nested) throw new Error('unclosed {');
    return out;
  };
  return parseBlock(false);
}
