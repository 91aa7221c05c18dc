/**
 * The narrative shown on a report card (spec §2, §3): the original or the
 * AI-assisted text, 'N/A' when the chosen one is absent. Narratives are
 * always rendered as text; only a leading <p> and trailing </p> (left by
 * the original rich-text editor) are stripped.
 */
import { NOT_AVAILABLE } from './format.ts';

export type NarrativeChoice = 'original' | 'ai';

/** Spec §2: the card opens on the AI-assisted narrative. */
export const DEFAULT_NARRATIVE_CHOICE: NarrativeChoice = 'ai';

export const NARRATIVE_CHOICES: ReadonlyArray<{ value: NarrativeChoice; label: string }> = [
  { value: 'original', label: 'Original' },
  { value: 'ai', label: 'Ai assist' },
];

export function stripParagraph(text: string): string {
  return text.replace(/^\s*<p>/i, '').replace(/<\/p>\s*$/i, '');
}

export function narrativeText(report: { narative: string; ai_generated_narative: string }, choice: NarrativeChoice): string {
  const raw = choice === 'ai' ? report.ai_generated_narative : report.narative;
  const text = stripParagraph(raw ?? '').trim();
  return text || NOT_AVAILABLE;
}
