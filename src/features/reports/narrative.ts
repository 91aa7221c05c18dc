/**
 * The narrative shown on a report card (docs/product.md#the-reports-list): the original or the
 * AI-assisted text, 'N/A' when the chosen one is absent. Narratives are
 * always rendered as text; only a leading <p> and trailing </p> (left by
 * the original rich-text editor) are stripped.
 */
import { NOT_AVAILABLE } from '../../ui/format.ts';

export type NarrativeChoice = 'original' | 'ai';

export const NARRATIVE_CHOICES: ReadonlyArray<{ value: NarrativeChoice; label: string }> = [
  { value: 'original', label: 'Original' },
  { value: 'ai', label: 'Ai assist' },
];

/** 'Original' or 'Ai assist'. */
export const narrativeLabel = (choice: NarrativeChoice) => NARRATIVE_CHOICES.find((c) => c.value === choice)!.label;

export function stripParagraph(text: string): string {
  return text.replace(/^\s*<p>/i, '').replace(/<\/p>\s*$/i, '');
}

type Narratives = { narative: string; ai_generated_narative: string };

function chosenText(report: Narratives, choice: NarrativeChoice): string {
  const raw = choice === 'ai' ? report.ai_generated_narative : report.narative;
  return stripParagraph(raw ?? '').trim();
}

/**
 * docs/product.md#the-reports-list: the card opens on 'Ai assist' when an AI narrative exists,
 * otherwise on 'Original' — most reports are written without AI, and opening
 * them on an empty 'N/A' hid the text the officer wrote.
 */
export function defaultNarrativeChoice(report: Narratives): NarrativeChoice {
  return chosenText(report, 'ai') ? 'ai' : 'original';
}

export function narrativeText(report: Narratives, choice: NarrativeChoice): string {
  return chosenText(report, choice) || NOT_AVAILABLE;
}
