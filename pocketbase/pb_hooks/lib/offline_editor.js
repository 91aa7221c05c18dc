/// Offline narrative editor for `POST /api/scms/ai-assist`.
///
/// Used when no OpenAI-compatible model is configured. It is a deterministic,
/// conservative clean-up of an officer's incident narrative: it fixes spacing,
/// sentence case and punctuation and expands common patrol abbreviations, and
/// it never changes a fact. Numbers, times, dates, plates, names, addresses,
/// e-mail addresses and links stay exactly as written. When a rule is unsure
/// (for example whether "Dr." is a doctor or a drive) it leaves the text alone.
///
/// editNarrative(editNarrative(x)) === editNarrative(x) for every input.
///
/// Loaded by PocketBase's goja VM with require(): plain ES2015, CommonJS, no
/// Node APIs, no regex lookbehind, no `u`/`s` flags, no named groups.

'use strict';

// Its word tables: the abbreviations it expands and the words its rules look at.
const {
  ABBREVIATIONS,
  STREET_WORDS,
  STREET_ONLY,
  PREFIX_WORDS,
  SUSP_NOUNS,
  SENTENCE_STARTERS,
  ACRONYMS,
  NON_TERMINAL,
  IGNORED_FOR_CAPS,
} = require(`${__hooks}/lib/offline_editor_words.js`);

// Titles after which an ALL-CAPS name is written "Smith" when lowering.
const TITLES_RE = /(^|[^A-Za-z])(mr|mrs|ms|sgt|lt|det|ofc|ofcr|dep|capt|cpl)\. ([a-z][a-z'\u2019-]*)/g;

// Placeholders for protected text (links, e-mail addresses, file names,
// ellipses): private-use characters, so no rule below sees letters or digits.
const PH_OPEN = '\uE000';
const PH_CLOSE = '\uE001';
const PH_BASE = 0xe100;
const PH_RE = /\uE000([\uE100-\uF8FF])\uE001/g;
const ELLIPSIS = '\uE002'; // stands for "..."
const ELLIPSIS_RE = /\uE002/g;

const URL_RE = /(^|[^A-Za-z0-9_])((?:https?|ftp):\/\/|www\.)([^ \n]+)/gi;
const EMAIL_RE = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g;
const FILE_RE =
  /(^|[^A-Za-z0-9_-])([A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*\.(?:com|net|org|gov|edu|mil|pdf|jpe?g|png|gif|heic|webp|mp4|mov|docx?|xlsx?|txt|csv))(?![A-Za-z0-9_])/gi;

const LIST_RE = /^([-*\u2022]|\d{1,2}[.)]) +(?=\S)/;

function isLetter(ch) {
  return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z');
}

function isUpper(ch) {
  return ch >= 'A' && ch <= 'Z';
}

function isDigit(ch) {
  return ch >= '0' && ch <= '9';
}

function capitalise(word) {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

function makeMasker() {
  const saved = [];
  function put(original) {
    if (saved.length >= 0xf8ff - PH_BASE) return original; // absurdly many: leave as is
    saved.push(original);
    return PH_OPEN + String.fromCharCode(PH_BASE + saved.length - 1) + PH_CLOSE;
  }
  return {
    put,
    restore(s) {
      return s
        .replace(PH_RE, (m, c) => {
          const v = saved[c.charCodeAt(0) - PH_BASE];
          return v === undefined ? m : v;
        })
        .replace(ELLIPSIS_RE, '...');
    },
  };
}

/** Protect links, e-mail addresses and file / domain names from every rule. */
function protect(s, masker) {
  s = s.replace(URL_RE, (m, pre, scheme, rest) => {
    const trail = /[.,;:!?)\]'"\u2019\u201D]+$/.exec(rest);
    const core = trail ? rest.slice(0, rest.length - trail[0].length) : rest;
    if (!core) return m;
    return pre + masker.put(scheme + core) + (trail ? trail[0] : '');
  });
  s = s.replace(EMAIL_RE, (m) => masker.put(m));
  s = s.replace(FILE_RE, (m, pre, name) => pre + masker.put(name));
  return s;
}

/** Spacing around punctuation and repeated punctuation, on one unit. */
function fixPunctuation(s) {
  // Ellipses stay "..." (longer runs of dots become "..."), spaced as written.
  s = s.replace(/\.{3,}/g, ELLIPSIS);
  // No space before , ; : ! ? and before a "." that does not start a number.
  s = s.replace(/ +([,;:!?])/g, '$1');
  s = s.replace(/ +\.(?![0-9])/g, '.');
  s = s.replace(/\.{3,}/g, ELLIPSIS).replace(/\.*(?:\uE002\.*)+/g, ELLIPSIS);
  // Repeated punctuation collapses: ".." -> ".", "!!!" -> "!".
  s = s.replace(/\.\./g, '.');
  s = s.replace(/([!?,;:])\1+/g, '$1');
  // One space after , ; : ! ? unless inside a number or time (1,000 14:30).
  s = s.replace(/([,;:!?])(?=[A-Za-z0-9])/g, (m, p, off, str) => {
    if (isDigit(str.charAt(off - 1)) && isDigit(str.charAt(off + 1))) return p;
    return p + ' ';
  });
  // One space after "." before a letter, except in "a.m.", "e.g.", "U.S.A."
  // and leading dots. Digits after "." (3.5, No.5) are never separated.
  s = s.replace(/\.(?=[A-Za-z])/g, (m, off, str) => {
    if (off === 0 || /[ \n]/.test(str.charAt(off - 1))) return m;
    if (/(^|\n)[0-9]{1,2}$/.test(str.slice(Math.max(0, off - 3), off))) return m; // "1.st" is no list item
    let before = 0;
    for (let i = off - 1; i >= 0 && isLetter(str.charAt(i)); i--) before++;
    let after = 0;
    for (let j = off + 1; j < str.length && isLetter(str.charAt(j)); j++) after++;
    if (before === 1 && after === 1 && str.charAt(off + 2) !== '/' && str.charAt(off - 2) !== '/') return m;
    return '. ';
  });
  return s;
}

/** Is the "." at index `dot` a sentence end? */
function dotEndsSentence(str, dot) {
  let i = dot - 1;
  let run = '';
  while (i >= 0 && isLetter(str.charAt(i))) {
    run = str.charAt(i) + run;
    i--;
  }
  if (run.length === 1 && !isDigit(str.charAt(i))) return false; // initials, a.m., e.g. (not "4b.")
  if (run && NON_TERMINAL[run.toLowerCase()]) return false;
  return true;
}

/** Does a sentence start at index `idx` (start of a word) of a unit? */
function isSentenceStart(str, idx) {
  let i = idx - 1;
  while (i >= 0 && /[ \n"'([\u201C\u2018\u201D\u2019)\]]/.test(str.charAt(i))) i--;
  if (i < 0) return true;
  const c = str.charAt(i);
  if (c === '!' || c === '?') return true;
  if (c === '.') return dotEndsSentence(str, i);
  return false;
}

/** Token before index `idx`, separated from it by spaces only. */
function previousToken(str, idx) {
  let i = idx - 1;
  if (i < 0 || str.charAt(i) !== ' ') return null;
  while (i >= 0 && str.charAt(i) === ' ') i--;
  const end = i + 1;
  while (i >= 0 && !/[ \n]/.test(str.charAt(i))) i--;
  if (end === i + 1) return null;
  return { text: str.slice(i + 1, end), index: i + 1 };
}

/** Token after index `idx`, separated from it by spaces only. */
function nextToken(str, idx) {
  let i = idx;
  if (str.charAt(i) !== ' ') return null;
  while (i < str.length && str.charAt(i) === ' ') i++;
  const start = i;
  while (i < str.length && !/[ \n]/.test(str.charAt(i))) i++;
  if (i === start) return null;
  return str.slice(start, i);
}

function isNumberToken(tok) {
  return !!tok && /^#?[0-9]/.test(tok);
}

function wordOf(tok) {
  const m = tok ? /^[A-Za-z]+/.exec(tok) : null;
  return m ? m[0] : '';
}

function inStreetContext(str, wordStart) {
  const prev = previousToken(str, wordStart);
  if (!prev) return false;
  if (/^[0-9]+[A-Za-z]?$/.test(prev.text)) return true;
  if (/^I(['\u2019]|$)/.test(prev.text)) return false; // "I", "I'm": not a name
  return /^[A-Z][A-Za-z'\u2019-]+$/.test(prev.text) && !isSentenceStart(str, prev.index);
}

const SLASH_RE = /(^|[^A-Za-z0-9_/])([wWbB])\/((?:[oOcC](?![A-Za-z0-9_/\uE000-\uF8FF]))?)(?!\/)/g;
const WORD_RE =
  /(^|[^A-Za-z0-9_'\u2019\-/@.&\uE000-\uF8FF])([A-Za-z]+)(\.(?=[ \n]|$))?(?=$|[^A-Za-z0-9_\-/@&'\u2019\uE000-\uF8FF]|['\u2019]s(?![A-Za-z0-9]))/g;

/**
 * Like String#replace with a global regex, but left to right on the string as
 * it is being edited, so each match sees the expansions made before it (the
 * same context a second run would see). fn returns the replacement.
 */
function replaceInOrder(s, re, fn) {
  re.lastIndex = 0;
  let m;
  while ((m = re.exec(s)) !== null) {
    const rep = fn(m, s);
    if (rep !== m[0]) {
      s = s.slice(0, m.index) + rep + s.slice(m.index + m[0].length);
      // Back up one character: the next match may need it as its boundary.
      re.lastIndex = Math.max(m.index + 1, m.index + rep.length - 1);
    } else if (m[0].length === 0) {
      re.lastIndex++;
    }
  }
  return s;
}

function expandAbbreviations(s) {
  s = replaceInOrder(s, SLASH_RE, (m, str) => {
    const pre = m[1];
    const first = m[2];
    const second = m[3];
    const end = m.index + m[0].length;
    const next = str.charAt(end);
    const key = first.toLowerCase() + '/' + second.toLowerCase();
    // "w/other" never reaches here as w/o: the regex wants a boundary after o.
    if (key !== 'w/' && key !== 'w/o' && key !== 'b/c') return m[0];
    const glued = second ? null : /^[A-Za-z0-9]+/.exec(str.slice(end));
    if (glued && str.charAt(end + glued[0].length) === '/') return m[0]; // "w/w/o", "w/and/or"
    let exp = ABBREVIATIONS[key];
    if (isUpper(first)) exp = capitalise(exp);
    if (!second && (glued || next === PH_OPEN)) exp += ' '; // "w/res" -> "with res"
    return pre + exp;
  });

  return replaceInOrder(s, WORD_RE, (m, str) => {
    const pre = m[1];
    const word = m[2];
    const dot = m[3] || '';
    const key = word.toLowerCase();
    if (!Object.prototype.hasOwnProperty.call(ABBREVIATIONS, key) || key.indexOf('/') >= 0) return m[0];
    const start = m.index + pre.length;
    const end = start + word.length + dot.length;
    const after = nextToken(str, end);
    const afterWord = wordOf(after);

    let street = false;
    if (STREET_WORDS[key]) {
      street = inStreetContext(str, start);
      if (STREET_ONLY[key]) {
        if (!street) return m[0];
        if (afterWord && isUpper(afterWord.charAt(0))) return m[0]; // St. Lucie, Dr. Jones
      }
    }
    if (key === 'sec') {
      const before = previousToken(str, start);
      if (isNumberToken(before && before.text) || isNumberToken(after)) return m[0]; // seconds
    }
    if (key === 'susp' && !SUSP_NOUNS[afterWord.toLowerCase()]) return m[0];

    let exp = ABBREVIATIONS[key].toLowerCase();
    if (street || isUpper(word.charAt(0))) exp = capitalise(exp);

    let tail = dot;
    const nextChar = after ? after.charAt(0) : '';
    if (dot && str.charAt(end) === ' ' && nextChar) {
      if (PREFIX_WORDS[key]) {
        if (isDigit(nextChar) || isLetter(nextChar)) tail = '';
      } else if (isDigit(nextChar)) {
        tail = '';
      } else if (isLetter(nextChar) && !isUpper(nextChar) && !SENTENCE_STARTERS[afterWord]) {
        tail = '';
      }
    }
    return pre + exp + tail;
  });
}

/** Capitalise the first letter of every sentence of a unit. */
function sentenceCase(s) {
  const starts = [0];
  const re = /([.!?])(['"\u201D\u2019)\]]*)([ \n]+)/g;
  let m;
  while ((m = re.exec(s)) !== null) {
    if (m[1] === '.' && !dotEndsSentence(s, m.index)) continue;
    starts.push(m.index + m[0].length);
  }
  let out = s;
  for (let k = 0; k < starts.length; k++) {
    let p = starts[k];
    while (p < out.length && /["'([\u201C\u2018]/.test(out.charAt(p))) p++;
    const tok = /^[^ \n]+/.exec(out.slice(p));
    if (!tok) continue;
    const core = tok[0].replace(/[.,;:!?'"\u201D\u2019)\]\u2026\uE002]+$/, '');
    if (/^[a-z][a-z'\u2019-]*$/.test(core)) {
      out = out.slice(0, p) + out.charAt(p).toUpperCase() + out.slice(p + 1);
    }
  }
  return out;
}

/** A lone lowercase "i" (also "i'm", "i've") becomes "I". */
function capitalI(s) {
  return s.replace(
    /(^|[^A-Za-z0-9_'\u2019\-/.@&\uE000-\uF8FF])i(?=$|[^A-Za-z0-9_\-/.@&\uE000-\uF8FF]|\.(?![A-Za-z]))/g,
    '$1I',
  );
}

/** End a unit with ".", unless it already ends with . ! ? or an ellipsis. */
function finish(s, keepColon) {
  if (!/[A-Za-z0-9]/.test(s)) return s;
  if (keepColon && /:$/.test(s)) return s; // introduces the list below
  s = s.replace(/[ ,;:]+$/, '');
  const core = s.replace(/['"\u201D\u2019)\]]+$/, '');
  const last = core.charAt(core.length - 1);
  if (last === '.' || last === '!' || last === '?' || last === '\u2026' || last === ELLIPSIS) return s;
  return s + '.';
}

/** Letters that decide whether a text is written ALL IN CAPS. */
function capsStats(units) {
  let upper = 0;
  let total = 0;
  units.forEach((u) => {
    u.body.split(/[ \n]+/).forEach((tok) => {
      if (!tok || /[0-9@\uE000-\uF8FF]/.test(tok)) return;
      const runs = tok.match(/[A-Za-z]+/g) || [];
      runs.forEach((run) => {
        if (ACRONYMS[run.toUpperCase()] || IGNORED_FOR_CAPS[run.toLowerCase()]) return;
        for (let i = 1; i < run.length; i++) {
          total++;
          if (isUpper(run.charAt(i))) upper++;
        }
      });
    });
  });
  return { upper, total };
}

function unshout(s) {
  s = s
    .split(/([ \n]+)/)
    .map((tok) => {
      if (!tok || /[ \n]/.test(tok.charAt(0)) || /[0-9@\uE000-\uF8FF]/.test(tok)) return tok;
      return tok.replace(/[A-Za-z]+/g, (run) => (ACRONYMS[run] ? run : run.toLowerCase()));
    })
    .join('');
  return s.replace(TITLES_RE, (m, pre, title, name) => pre + capitalise(title) + '. ' + capitalise(name));
}

/**
 * Split text into paragraphs of units: a list item ("- ", "* ", "1. ", "2) ")
 * is a unit of its own; other consecutive lines flow together as one unit.
 * Lines are already cleaned (and masked) here, so list markers are final.
 */
function parse(lines) {
  const paragraphs = [];
  let current = null;
  lines.forEach((line) => {
    if (!line) {
      current = null;
      return;
    }
    if (!current) {
      current = [];
      paragraphs.push(current);
    }
    const lm = LIST_RE.exec(line);
    const last = current[current.length - 1];
    if (lm) current.push({ marker: lm[0], body: line.slice(lm[0].length), list: true });
    else if (last && !last.list) last.body += '\n' + line;
    else current.push({ marker: '', body: line, list: false });
  });
  return paragraphs;
}

/**
 * Clean up an incident narrative without changing any fact.
 * @param {string} text
 * @returns {string}
 */
function editNarrative(text) {
  if (text === null || text === undefined) return '';
  const s = String(text)
    .replace(/\r\n?/g, '\n')
    .replace(/[\t\f\v\u00A0\u1680\u2000-\u200A\u202F\u205F\u3000\uFEFF]/g, ' ')
    .replace(/[\u2028\u2029]/g, '\n');

  const masker = makeMasker();
  const lines = s.split('\n').map((raw) => {
    const line = raw.replace(/ +/g, ' ').trim();
    return line ? fixPunctuation(protect(line, masker)) : '';
  });
  const paragraphs = parse(lines);
  const all = [];
  paragraphs.forEach((units) => units.forEach((u) => all.push(u)));

  const stats = capsStats(all);
  const shouting = stats.total >= 6 && stats.upper / stats.total > 0.7;

  return paragraphs
    .map((units) =>
      units
        .map((u, idx) => {
          let b = u.body;
          if (shouting) b = unshout(b);
          b = expandAbbreviations(b);
          b = sentenceCase(b);
          b = capitalI(b);
          const next = units[idx + 1];
          b = finish(b, !!(next && next.list));
          return masker.restore(u.marker + b);
        })
        .join('\n'),
    )
    .join('\n\n');
}

module.exports = { editNarrative, ABBREVIATIONS };
