/** Word-level text handling shared by the job-spec and candidate readers. */

const STOPWORDS = new Set(
  (
    'a an and or the of for to in on at with by from as is are be we our you your who will must ' +
    'have has years year yrs experience plus strong good great ideal looking seeking role job team ' +
    'work working using use based remote hybrid onsite office least min minimum required preferred nice'
  ).split(' '),
);

/** Lower-case words of two or more characters (keeps tech spellings such as c++, node.js, c#). */
export function words(text: string): string[] {
  return (text.toLowerCase().match(/[a-z0-9][a-z0-9+#.]*[a-z0-9+#]|[a-z0-9]{2,}/g) ?? []).filter(
    (word) => word.length >= 2,
  );
}

/** The words that carry meaning: no stopwords, nothing without a letter ("5+", "2019"). */
export function keywords(text: string): string[] {
  return [...new Set(words(text).filter((word) => !STOPWORDS.has(word) && /[a-z]/.test(word)))];
}

export function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  return '';
}

export function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

export function asRecord(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** Seniority ladder, lowest first; a title's level is its highest matching word. */
const LEVELS: readonly (readonly string[])[] = [
  ['intern', 'trainee', 'apprentice'],
  ['junior', 'jr', 'associate', 'entry', 'graduate'],
  [],
  ['senior', 'sr', 'experienced'],
  ['lead', 'staff', 'principal', 'manager', 'architect'],
  ['head', 'director'],
  ['vp', 'vice', 'chief', 'cto', 'ceo', 'cfo', 'coo', 'cmo', 'cxo', 'founder', 'president'],
];
/** A title with no level word sits in the middle of the ladder. */
export const MID_LEVEL = 2;

export function seniorityOf(text: string): number | null {
  let level: number | null = null;
  for (const word of words(text)) {
    const found = LEVELS.findIndex((names) => names.includes(word));
    if (found >= 0) level = Math.max(level ?? 0, found);
  }
  return level;
}

/** Words that only say how senior a title is, not what the job is. */
export function isLevelWord(word: string): boolean {
  return LEVELS.some((names) => names.includes(word));
}
