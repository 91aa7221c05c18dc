/**
 * The narrative of the create form (docs/product.md#ai-assist): the officer's Original
 * text and, once Ai Assist has answered, an 'Ai Generated' tab that then
 * becomes the shown one. Ai Assist needs text to work on and a connection.
 */
import { Tab, TabGroup, TabList, TabPanel, TabPanels } from '@headlessui/react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import type { AiSource } from '../../data/resources/reports.ts';
import { FieldError, inputClass } from '../../ui/Field.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import { OFFLINE_AI_ASSIST } from '../../ui/offlineWords.ts';

const tabClass =
  'rounded-t border border-b-0 px-3 py-1.5 text-sm font-medium data-[selected]:border-gray-300 data-[selected]:bg-white border-transparent text-gray-700 data-[selected]:text-black';

export function NarrativeField({
  original,
  ai,
  originalText,
  aiSource,
  tab,
  onTabChange,
  online,
  busy,
  onAiAssist,
  error,
  aiError,
}: {
  original: UseFormRegisterReturn<'narative'>;
  ai: UseFormRegisterReturn<'ai_generated_narative'>;
  /** The original narrative as typed: Ai Assist waits for some. */
  originalText: string;
  /** Who wrote the AI narrative; null until Ai Assist has answered. */
  aiSource: AiSource | null;
  tab: number;
  onTabChange: (index: number) => void;
  online: boolean;
  busy: boolean;
  onAiAssist: () => void;
  error?: string;
  aiError?: string;
}) {
  const hasAi = aiSource !== null;
  return (
    <div>
      <div className="flex items-center justify-between gap-2">
        <span className="text-sm font-medium">Narrative</span>
        <button
          type="button"
          onClick={onAiAssist}
          disabled={busy || !online || originalText.trim() === ''}
          aria-describedby={!online ? 'ai-assist-offline' : undefined}
          className="inline-flex items-center gap-2 rounded border border-gray-300 px-3 py-1.5 text-sm font-medium hover:bg-gray-100 disabled:cursor-not-allowed disabled:opacity-50"
        >
          {busy && <Spinner size={16} label="Ai Assist is writing" />}
          Ai Assist
        </button>
      </div>
      {!online && (
        <p id="ai-assist-offline" className="mt-1 text-sm text-gray-700">
          {OFFLINE_AI_ASSIST}
        </p>
      )}
      <TabGroup selectedIndex={hasAi ? tab : 0} onChange={onTabChange} className="mt-2">
        <TabList className="flex gap-1 border-b border-gray-300">
          <Tab className={tabClass}>Original</Tab>
          {hasAi && <Tab className={tabClass}>Ai Generated</Tab>}
        </TabList>
        <TabPanels>
          {/* Panels stay mounted so each text area keeps its place in the form. */}
          <TabPanel unmount={false}>
            <textarea
              aria-label="Original narrative"
              rows={7}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? 'narrative-error' : undefined}
              className={`${inputClass} mt-2`}
              {...original}
            />
          </TabPanel>
          {hasAi && (
            <TabPanel unmount={false}>
              <textarea
                aria-label="Ai generated narrative"
                rows={7}
                aria-invalid={aiError ? true : undefined}
                aria-describedby={aiError ? 'ai-narrative-error' : undefined}
                className={`${inputClass} mt-2`}
                {...ai}
              />
              <FieldError id="ai-narrative-error" message={aiError} />
              {aiSource === 'offline-editor' && (
                <p className="mt-1 text-xs text-gray-600">Edited by the built-in editor</p>
              )}
            </TabPanel>
          )}
        </TabPanels>
      </TabGroup>
      <FieldError id="narrative-error" message={error} />
    </div>
  );
}
