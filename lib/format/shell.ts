/** A word for a POSIX shell command line: bare when it holds only safe characters, else single-quoted. */
export function shellWord(word: string): string {
  return /^[A-Za-z0-9_./:@=-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
