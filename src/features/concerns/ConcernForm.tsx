/**
 * Add and Edit Concern form (one set of limits for both, docs/product.md#validation-limits).
 * `say` is edited as plain text (paragraph tags stripped), and the
 * whole spoken script is previewed as the resident will hear it.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, useWatch } from 'react-hook-form';
import type { ConcernRecord } from '../../api/records.ts';
import { composeScript, plainText } from '../../domain/callScript.ts';
import { concernSchema, LIMITS, type ConcernValues } from '../../domain/schemas.ts';
import { TextArea, TextInput } from '../../ui/Field.tsx';
import { SubmitButton } from '../../ui/SubmitButton.tsx';

export function ConcernForm({
  concern,
  communityName,
  onSubmit,
  blockedReason,
}: {
  /** Absent when adding. */
  concern?: ConcernRecord;
  communityName: string;
  onSubmit: (values: ConcernValues) => Promise<void>;
  /** Set while the form cannot be sent (offline). */
  blockedReason: string | null;
}) {
  const { register, handleSubmit, formState, control } = useForm<ConcernValues>({
    resolver: zodResolver(concernSchema),
    defaultValues: { name: concern?.name ?? '', hint: concern?.hint ?? '', say: plainText(concern?.say ?? '') },
  });
  const say = useWatch({ control, name: 'say' });
  const errors = formState.errors;
  return (
    <form onSubmit={(event) => void handleSubmit(onSubmit)(event)} className="space-y-4" noValidate>
      <TextInput label="Name" autoComplete="off" error={errors.name?.message} {...register('name')} />
      <TextArea label="Hint" rows={2} error={errors.hint?.message} {...register('hint')} />
      <div>
        <TextArea label="What the call says" rows={4} error={errors.say?.message} {...register('say')} />
        <p className="mt-1 text-right text-xs text-gray-700">
          {say.length}/{LIMITS.concern.say}
        </p>
      </div>
      <div>
        <h3 className="text-sm font-medium">Script preview</h3>
        <p className="mt-1 rounded bg-gray-100 px-3 py-2 text-sm text-gray-800">
          {composeScript(communityName, [say])}
        </p>
      </div>
      {blockedReason && <p className="text-sm text-amber-900">{blockedReason}</p>}
      <SubmitButton busy={formState.isSubmitting} disabled={blockedReason !== null}>
        {concern ? 'Save' : 'Add Concern'}
      </SubmitButton>
    </form>
  );
}
