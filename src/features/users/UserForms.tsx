/**
 * Add User and Edit User forms (docs/product.md#validation-limits): validated by the shared zod
 * schemas; a director gives only the manager and regular types.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, type Resolver } from 'react-hook-form';
import type { UserRecord } from '../../api/records.ts';
import {
  addUserSchema,
  SELECTABLE_USER_TYPES,
  updateUserSchema,
  type AddUserValues,
  type UpdateUserValues,
} from '../../domain/schemas.ts';
import { SelectInput, TextInput } from '../../ui/Field.tsx';
import { SubmitButton } from '../../ui/SubmitButton.tsx';
import type { UserUpdate } from './useUserActions.ts';

const TYPE_LABELS: Record<string, string> = { director: 'Director', manager: 'Manager', regular: 'Regular' };

export function userTypeLabel(type: string): string {
  return TYPE_LABELS[type] ?? type;
}

function TypeOptions() {
  return (
    <>
      <option value="" disabled>
        Select type
      </option>
      {SELECTABLE_USER_TYPES.map((type) => (
        <option key={type} value={type}>
          {userTypeLabel(type)}
        </option>
      ))}
    </>
  );
}

function SubmitRow({
  label,
  submitting,
  blockedReason,
}: {
  label: string;
  submitting: boolean;
  blockedReason: string | null;
}) {
  return (
    <div className="pt-2">
      {blockedReason && <p className="mb-2 text-sm text-amber-900">{blockedReason}</p>}
      <SubmitButton busy={submitting} disabled={blockedReason !== null}>
        {label}
      </SubmitButton>
    </div>
  );
}

interface FormProps<V> {
  onSubmit: (values: V) => Promise<void>;
  /** Set while the form cannot be sent (offline). */
  blockedReason: string | null;
}

export function AddUserForm({ onSubmit, blockedReason }: FormProps<AddUserValues>) {
  const { register, handleSubmit, formState } = useForm<AddUserValues>({
    resolver: zodResolver(addUserSchema),
    defaultValues: { first_name: '', last_name: '', type: '', email: '' },
  });
  const errors = formState.errors;
  return (
    <form onSubmit={(event) => void handleSubmit(onSubmit)(event)} className="space-y-4" noValidate>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextInput
          label="First name"
          autoComplete="off"
          error={errors.first_name?.message}
          {...register('first_name')}
        />
        <TextInput label="Last name" autoComplete="off" error={errors.last_name?.message} {...register('last_name')} />
      </div>
      <SelectInput label="Type" error={errors.type?.message} {...register('type')}>
        <TypeOptions />
      </SelectInput>
      <TextInput label="Email" type="email" autoComplete="off" error={errors.email?.message} {...register('email')} />
      <SubmitRow label="Add User" submitting={formState.isSubmitting} blockedReason={blockedReason} />
    </form>
  );
}

// A director's card keeps its type: the selectable types would demote them,
// and the server refuses a change of one's own type anyway.
const namesOnlySchema = updateUserSchema.omit({ type: true });

export function EditUserForm({ user, onSubmit, blockedReason }: FormProps<UserUpdate> & { user: UserRecord }) {
  const fixedType = user.type === 'director';
  const resolver = (
    fixedType ? zodResolver(namesOnlySchema) : zodResolver(updateUserSchema)
  ) as Resolver<UpdateUserValues>;
  const { register, handleSubmit, formState } = useForm<UpdateUserValues>({
    resolver,
    defaultValues: { first_name: user.first_name, last_name: user.last_name, type: user.type },
  });
  const errors = formState.errors;
  const submit = (values: UpdateUserValues) =>
    onSubmit(fixedType ? { first_name: values.first_name, last_name: values.last_name } : values);
  return (
    <form onSubmit={(event) => void handleSubmit(submit)(event)} className="space-y-4" noValidate>
      <p className="text-sm text-gray-700">{user.email}</p>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextInput
          label="First name"
          autoComplete="off"
          error={errors.first_name?.message}
          {...register('first_name')}
        />
        <TextInput label="Last name" autoComplete="off" error={errors.last_name?.message} {...register('last_name')} />
      </div>
      {fixedType ? (
        <p className="text-sm">
          <span className="font-medium">Type:</span> {userTypeLabel(user.type)}
        </p>
      ) : (
        <SelectInput label="Type" error={errors.type?.message} {...register('type')}>
          <TypeOptions />
        </SelectInput>
      )}
      <SubmitRow label="Save" submitting={formState.isSubmitting} blockedReason={blockedReason} />
    </form>
  );
}
