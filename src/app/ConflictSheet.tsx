/**
 * Where a person settles changes someone else overtook while their device
 * was offline (src/data/sync/conflicts.ts): per field, who changed it when, both
 * values, and 'Keep mine' / 'Keep theirs' (text can also be edited into a
 * merged value); a removed record someone changed since can be removed
 * anyway or kept; an edited record someone deleted since can be added
 * again. Saving queues the decision as a new write based on the server's
 * values now (so it works offline too); the other person's values are never
 * lost either way: the home's History keeps every value.
 */
import { useId, useState } from 'react';
import type { FieldChoice, RecordChoice } from '../data/sync/conflicts.ts';
import type { FieldConflict, OutboxEntry, RecordConflict } from '../data/mirror/db.ts';
import { useOnlineActions } from '../data/onlineActions.ts';
import { fieldLabel, FREE_TEXT_FIELDS } from '../domain/directoryFields.ts';
import { parsePbDate } from '../domain/pbDate.ts';
import { valueWords } from '../ui/directoryValues.ts';
import { formatDateTime } from '../ui/format.ts';
import { Sheet } from '../ui/Sheet.tsx';
import { Spinner } from '../ui/Spinner.tsx';
import { useToast } from '../ui/toast.tsx';

const KIND_NAMES = { houses: 'Home', residents: 'Resident', phones: 'Phone' } as const;

/** 'Changed by Maria Lopez at Nov 26, 2026 10:42 while you were offline'. */
export function changedByLine(change: Pick<FieldConflict, 'byName' | 'at'>): string {
  const who = change.byName || 'someone else';
  const when = change.at ? ` at ${formatDateTime(parsePbDate(change.at))}` : '';
  return `Changed by ${who}${when} while you were offline`;
}

function recordTitle(conflict: RecordConflict): string {
  const kind = KIND_NAMES[conflict.collection as keyof typeof KIND_NAMES] ?? 'Record';
  return conflict.label ? `${kind}: ${conflict.label}` : kind;
}

/** The starting choice: the person's own values (what they meant to write). */
function initialChoice(conflict: RecordConflict): RecordChoice {
  if (conflict.kind === 'deleted' || conflict.action === 'delete') return { whole: 'mine' };
  return { fields: Object.fromEntries(conflict.fields.map((f) => [f.field, { keep: 'mine' } as FieldChoice])) };
}

function OptionCard({
  name,
  checked,
  onSelect,
  title,
  value,
}: {
  name: string;
  checked: boolean;
  onSelect: () => void;
  title: string;
  value?: string;
}) {
  return (
    <label
      className={`flex min-h-11 cursor-pointer items-start gap-3 rounded-lg border p-3 ${checked ? 'border-black bg-gray-50' : 'border-gray-300'}`}
    >
      <input type="radio" name={name} checked={checked} onChange={onSelect} className="mt-1 size-4 shrink-0" />
      <span className="min-w-0">
        <span className="block font-medium">{title}</span>
        {value !== undefined && <span className="block break-words whitespace-pre-wrap text-gray-700">{value}</span>}
      </span>
    </label>
  );
}

function FieldDecision({
  change,
  choice,
  onChange,
}: {
  change: FieldConflict;
  choice: FieldChoice;
  onChange: (next: FieldChoice) => void;
}) {
  const name = useId();
  const label = fieldLabel(change.field);
  const freeText = FREE_TEXT_FIELDS.has(change.field);
  return (
    <fieldset className="space-y-2">
      <legend className="font-semibold">{label}</legend>
      <p className="text-sm text-gray-600">{changedByLine(change)}</p>
      <OptionCard
        name={name}
        checked={choice.keep === 'mine'}
        onSelect={() => onChange({ keep: 'mine' })}
        title="Keep mine"
        value={valueWords(change.field, change.mine)}
      />
      <OptionCard
        name={name}
        checked={choice.keep === 'theirs'}
        onSelect={() => onChange({ keep: 'theirs' })}
        title="Keep theirs"
        value={valueWords(change.field, change.theirs)}
      />
      {freeText && (
        <OptionCard
          name={name}
          checked={choice.keep === 'merged'}
          onSelect={() => onChange({ keep: 'merged', value: String(change.mine ?? '') })}
          title="Edit a merged value"
        />
      )}
      {choice.keep === 'merged' && (
        <textarea
          aria-label={`${label}: merged value`}
          className="block w-full rounded border border-gray-300 p-2"
          rows={change.field === 'note' || change.field === 'house_check_note' ? 4 : 1}
          value={choice.value}
          onChange={(event) => onChange({ keep: 'merged', value: event.target.value })}
        />
      )}
    </fieldset>
  );
}

/** A decision on a whole record: what happened to it, then the two ways to go. */
function WholeDecision({
  intro,
  lines,
  choice,
  onChange,
  mine,
  theirs,
}: {
  intro: string;
  lines: Array<{ key: string; label: string; text: string; note?: string }>;
  choice: RecordChoice;
  onChange: (next: RecordChoice) => void;
  mine: { title: string; value?: string };
  theirs: { title: string; value?: string };
}) {
  const name = useId();
  return (
    <div className="space-y-2">
      <p className="text-sm text-gray-600">{intro}</p>
      <ul className="space-y-1 text-sm">
        {lines.map((line) => (
          <li key={line.key} className="break-words">
            <span className="font-medium">{line.label}:</span> {line.text}
            {line.note && <span className="block text-gray-600">{line.note}</span>}
          </li>
        ))}
      </ul>
      <OptionCard
        name={name}
        checked={choice.whole === 'mine'}
        onSelect={() => onChange({ whole: 'mine' })}
        {...mine}
      />
      <OptionCard
        name={name}
        checked={choice.whole === 'theirs'}
        onSelect={() => onChange({ whole: 'theirs' })}
        {...theirs}
      />
    </div>
  );
}

function RecordDecision({
  conflict,
  choice,
  onChange,
}: {
  conflict: RecordConflict;
  choice: RecordChoice;
  onChange: (next: RecordChoice) => void;
}) {
  if (conflict.kind === 'deleted') {
    const who = conflict.deletedBy?.name || 'someone else';
    const when = conflict.deletedBy?.at ? ` at ${formatDateTime(parsePbDate(conflict.deletedBy.at))}` : '';
    return (
      <WholeDecision
        intro={`Deleted by ${who}${when} while you were offline. Your changes:`}
        lines={conflict.fields.map((f) => ({
          key: f.field,
          label: fieldLabel(f.field),
          text: valueWords(f.field, f.mine),
        }))}
        choice={choice}
        onChange={onChange}
        mine={{ title: 'Add it again' }}
        theirs={{ title: 'Leave it deleted' }}
      />
    );
  }
  if (conflict.action === 'delete') {
    return (
      <WholeDecision
        intro="You removed this. It was changed since:"
        lines={conflict.fields.map((f) => ({
          key: f.field,
          label: fieldLabel(f.field),
          text: `${valueWords(f.field, f.base)} → ${valueWords(f.field, f.theirs)}`,
          note: changedByLine(f),
        }))}
        choice={choice}
        onChange={onChange}
        mine={{ title: 'Keep mine', value: 'Remove it anyway' }}
        theirs={{ title: 'Keep theirs', value: 'Keep it, with their changes' }}
      />
    );
  }
  return (
    <div className="space-y-4">
      {conflict.fields.map((f) => (
        <FieldDecision
          key={f.field}
          change={f}
          choice={choice.fields?.[f.field] ?? { keep: 'mine' }}
          onChange={(next) => onChange({ fields: { ...choice.fields, [f.field]: next } })}
        />
      ))}
    </div>
  );
}

export function ConflictSheet({ entry, onClose }: { entry: OutboxEntry; onClose: () => void }) {
  const { resolveOutboxConflict } = useOnlineActions();
  const toast = useToast();
  const conflicts = entry.conflicts ?? [];
  const [choices, setChoices] = useState<RecordChoice[]>(() => conflicts.map(initialChoice));
  const [saving, setSaving] = useState(false);

  async function save() {
    setSaving(true);
    try {
      await resolveOutboxConflict(entry.seq!, choices);
      // The result is said once the sheet is closed, never inside it.
      onClose();
      toast({ title: 'Success', description: 'Your choice is saved' });
    } catch {
      setSaving(false);
      toast({ title: 'Fail', description: 'Your choice could not be saved on this device', variant: 'destructive' });
    }
  }

  return (
    <Sheet open onClose={onClose} title="Changed while you were offline">
      <p className="mb-4 text-sm text-gray-600">{entry.label}</p>
      <div className="space-y-6">
        {conflicts.map((conflict, i) => (
          <section
            key={`${conflict.collection}:${conflict.id}`}
            aria-label={recordTitle(conflict)}
            className="space-y-3"
          >
            <h3 className="text-base font-semibold">{recordTitle(conflict)}</h3>
            <RecordDecision
              conflict={conflict}
              choice={choices[i] ?? {}}
              onChange={(next) => setChoices((all) => all.map((c, j) => (j === i ? next : c)))}
            />
          </section>
        ))}
      </div>
      <button
        type="button"
        onClick={() => void save()}
        disabled={saving}
        className="mt-6 flex min-h-11 w-full items-center justify-center gap-2 rounded bg-black px-4 py-2 font-medium text-white disabled:opacity-60"
      >
        {saving && <Spinner size={18} label="Saving" />}
        Save
      </button>
    </Sheet>
  );
}
