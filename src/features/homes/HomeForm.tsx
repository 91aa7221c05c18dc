/**
 * The Add Home / Update Home form (docs/product.md#the-home-form): sections Home, Resident, Phone
 * and, on update, House check. Every resident and phone of the home can be
 * added, edited and removed (field arrays). Validation is the schemas'
 * (docs/product.md#validation-limits); the messages show under the fields.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { useState, type ReactNode } from 'react';
import {
  Controller,
  useFieldArray,
  useForm,
  useWatch,
  type Control,
  type FieldErrors,
  type Resolver,
  type UseFormRegister,
  type UseFormSetValue,
} from 'react-hook-form';
import { addHouseSchema, updateHouseSchema } from '../../domain/schemas.ts';
import { STATE_VALUES, stateLabel } from '../../domain/states.ts';
import { FieldError, SelectInput, TextArea, TextInput } from '../../ui/Field.tsx';
import { AddButton, Checkbox, RemoveButton, Section } from '../../ui/FormParts.tsx';
import { SubmitButton } from '../../ui/SubmitButton.tsx';
import { isEndDayDisabled, isStartDayDisabled } from './checkDates.ts';
import { DateField } from '../../ui/DateField.tsx';
import { Toggle } from '../../ui/Toggle.tsx';
import {
  DO_NOT_CALL_HINT,
  emptyPhone,
  emptyResident,
  PHONE_TYPES,
  showsMemberFields,
  showsPhoneDetails,
  showsResidentDetails,
  type HomeFormMode,
  type HomeFormValues,
} from './homeFormValues.ts';
import { HomePhotoField, KEEP_PHOTO, photoToSave, type PhotoChoice } from './HomePhotoField.tsx';
import { PhoneField } from './PhoneField.tsx';

// One value shape for both forms; the add schema simply ignores (strips) the house-check fields.
const resolvers: Record<HomeFormMode, Resolver<HomeFormValues>> = {
  add: zodResolver(addHouseSchema) as unknown as Resolver<HomeFormValues>,
  update: zodResolver(updateHouseSchema) as unknown as Resolver<HomeFormValues>,
};

const PHONE_TYPE_LABELS: Record<string, string> = { cell: 'Cell', home: 'Home', business: 'Business' };

/** One block per row, named 'Resident 1', 'Phone 2'…, so each row's fields and Remove are told apart. */
function Row({ name, onRemove, children }: { name: string; onRemove: () => void; children: ReactNode }) {
  return (
    <div role="group" aria-label={name} className="space-y-3 border-b border-gray-200 pb-3 last:border-b-0">
      <div className="flex items-center justify-between">
        <span className="text-sm font-semibold text-gray-700">{name}</span>
        <RemoveButton label={`Remove ${name.toLowerCase()}`} onClick={onRemove} />
      </div>
      {children}
    </div>
  );
}

interface RowsProps {
  control: Control<HomeFormValues>;
  register: UseFormRegister<HomeFormValues>;
  errors: FieldErrors<HomeFormValues>;
}

function Residents({ control, register, errors }: RowsProps) {
  // keyName: the rows carry their record's `id`, which the default key name would overwrite.
  const { fields, append, remove } = useFieldArray({ control, name: 'residents', keyName: 'key' });
  const rows = useWatch({ control, name: 'residents' });
  return (
    <>
      {fields.map((field, i) => {
        const rowErrors = errors.residents?.[i];
        const row = rows?.[i];
        return (
          <Row key={field.key} name={`Resident ${i + 1}`} onRemove={() => remove(i)}>
            <div className="grid gap-3 sm:grid-cols-2">
              <TextInput
                label="First name"
                autoComplete="off"
                error={rowErrors?.first_name?.message}
                {...register(`residents.${i}.first_name`)}
              />
              <TextInput
                label="Last name"
                autoComplete="off"
                error={rowErrors?.last_name?.message}
                {...register(`residents.${i}.last_name`)}
              />
            </div>
            {showsResidentDetails(row?.first_name, row?.last_name) && (
              <Checkbox label="Owner" {...register(`residents.${i}.owner`)} />
            )}
          </Row>
        );
      })}
      <AddButton label="Add resident" onClick={() => append(emptyResident())} />
    </>
  );
}

function Phones({ control, register, setValue, errors }: RowsProps & { setValue: UseFormSetValue<HomeFormValues> }) {
  const { fields, append, remove } = useFieldArray({ control, name: 'phones', keyName: 'key' });
  const rows = useWatch({ control, name: 'phones' });
  return (
    <>
      {fields.map((field, i) => {
        const rowErrors = errors.phones?.[i];
        const primary = register(`phones.${i}.primary`);
        return (
          <Row key={field.key} name={`Phone ${i + 1}`} onRemove={() => remove(i)}>
            <Controller
              control={control}
              name={`phones.${i}.phone_number`}
              render={({ field: number, fieldState }) => (
                <PhoneField
                  label="Phone number"
                  value={number.value}
                  onChange={number.onChange}
                  onBlur={number.onBlur}
                  error={fieldState.error?.message}
                />
              )}
            />
            {showsPhoneDetails(rows?.[i]?.phone_number) && (
              <div className="grid items-end gap-3 sm:grid-cols-2">
                <SelectInput label="Type" error={rowErrors?.type?.message} {...register(`phones.${i}.type`)}>
                  {PHONE_TYPES.map((type) => (
                    <option key={type} value={type}>
                      {PHONE_TYPE_LABELS[type]}
                    </option>
                  ))}
                </SelectInput>
                <div className="pb-2">
                  <Checkbox
                    label="Primary"
                    {...primary}
                    onChange={(event) => {
                      // One primary phone: choosing this one unticks the others.
                      if (event.target.checked)
                        rows?.forEach((_, j) => j !== i && setValue(`phones.${j}.primary`, false));
                      return primary.onChange(event);
                    }}
                  />
                  <FieldError id={`phone-${i}-primary-error`} message={rowErrors?.primary?.message} />
                </div>
                {/* The resident's wish, kept with the number: calls pass over it and the call sheet says why. */}
                <div className="sm:col-span-2">
                  <Checkbox
                    label="Do not call"
                    aria-describedby={`phone-${i}-do-not-call-hint`}
                    {...register(`phones.${i}.do_not_call`)}
                  />
                  <p id={`phone-${i}-do-not-call-hint`} className="mt-1 text-xs text-gray-700">
                    {DO_NOT_CALL_HINT}
                  </p>
                </div>
              </div>
            )}
          </Row>
        );
      })}
      {/* A phone added to a home without a primary one becomes the primary. */}
      <AddButton
        label="Add phone"
        onClick={() => append(emptyPhone(!rows?.some((p) => p.primary && p.phone_number.trim())))}
      />
    </>
  );
}

/**
 * Member number and security code, shown once a resident is an owner
 * (showsMemberFields). It watches the residents itself: a watch in the form
 * would draw the whole form again on every key typed in a name.
 */
function MemberFields({
  control,
  register,
  errors,
}: {
  control: Control<HomeFormValues>;
  register: UseFormRegister<HomeFormValues>;
  errors: FieldErrors<HomeFormValues>;
}) {
  const residents = useWatch({ control, name: 'residents' });
  if (!showsMemberFields(residents)) return null;
  return (
    <div className="grid gap-3 sm:grid-cols-2">
      <TextInput label="Member number" error={errors.member_number?.message} {...register('member_number')} />
      <TextInput label="Security code" error={errors.security_code?.message} {...register('security_code')} />
    </div>
  );
}

/** The house check's end date: waits for a start and refuses days before it (it watches the start itself, as above). */
function EndDate({ control }: { control: Control<HomeFormValues> }) {
  const start = useWatch({ control, name: 'house_check_start_date' });
  return (
    <Controller
      control={control}
      name="house_check_end_date"
      render={({ field, fieldState }) => (
        <DateField
          label="End date"
          value={field.value}
          disabled={!start}
          isDayDisabled={(day) => isEndDayDisabled(day, start)}
          error={fieldState.error?.message}
          onChange={field.onChange}
        />
      )}
    />
  );
}

export interface HomeFormProps {
  mode: HomeFormMode;
  defaultValues: HomeFormValues;
  submitLabel: string;
  /** The image to send: `null` takes the home's away, `undefined` leaves it. */
  onSubmit: (values: HomeFormValues, image: File | null | undefined) => Promise<void>;
  /** The home's saved photo, shown with Replace image and Remove image (Update Home). */
  currentPhoto?: ReactNode;
  /** For tests: "today" for the start-date rule. */
  today?: Date;
}

export function HomeForm({ mode, defaultValues, submitLabel, onSubmit, today, currentPhoto }: HomeFormProps) {
  const [photo, setPhoto] = useState<PhotoChoice>(KEEP_PHOTO);
  const { register, control, handleSubmit, setValue, getValues, formState } = useForm<HomeFormValues>({
    resolver: resolvers[mode],
    defaultValues,
  });
  const errors = formState.errors;
  // A half-prepared image is waited for, never sent; one turned away meanwhile stops the save (its message shows).
  const save = async (values: HomeFormValues) => {
    const image = await photoToSave(photo);
    if (image === false) return;
    await onSubmit(values, image);
  };

  return (
    <form onSubmit={(event) => void handleSubmit(save)(event)} noValidate className="space-y-4">
      <Section title="Home">
        <TextInput label="Address" autoComplete="off" error={errors.address?.message} {...register('address')} />
        <TextInput label="Apt." error={errors.apt?.message} {...register('apt')} />
        <div className="grid gap-3 sm:grid-cols-3">
          <TextInput label="City" error={errors.city?.message} {...register('city')} />
          <SelectInput label="State:" error={errors.state?.message} {...register('state')}>
            <option value="" disabled>
              Select state
            </option>
            {STATE_VALUES.map((value) => (
              <option key={value} value={value}>
                {stateLabel(value)}
              </option>
            ))}
          </SelectInput>
          <TextInput label="Zip" inputMode="numeric" error={errors.zip?.message} {...register('zip')} />
        </div>
        <TextArea label="Note" rows={3} error={errors.note?.message} {...register('note')} />
        <HomePhotoField choice={photo} onChoice={setPhoto} current={currentPhoto} />
      </Section>

      <Section title="Resident">
        <Residents control={control} register={register} errors={errors} />
        <MemberFields control={control} register={register} errors={errors} />
      </Section>

      <Section title="Phone">
        <Phones control={control} register={register} setValue={setValue} errors={errors} />
      </Section>

      {mode === 'update' && (
        <Section title="House check">
          <Controller
            control={control}
            name="house_check"
            render={({ field }) => <Toggle label="House check" checked={field.value} onChange={field.onChange} />}
          />
          <div className="grid gap-3 sm:grid-cols-2">
            <Controller
              control={control}
              name="house_check_start_date"
              render={({ field, fieldState }) => (
                <DateField
                  label="Start date"
                  value={field.value}
                  isDayDisabled={(day) => isStartDayDisabled(day, today ?? new Date())}
                  error={fieldState.error?.message}
                  onChange={(date) => {
                    field.onChange(date);
                    // An end date the new start no longer allows is dropped rather than kept invalid.
                    const end = getValues('house_check_end_date');
                    if (end && isEndDayDisabled(end, date)) setValue('house_check_end_date', null);
                  }}
                />
              )}
            />
            <EndDate control={control} />
          </div>
          <TextArea
            label="House check note"
            rows={3}
            error={errors.house_check_note?.message}
            {...register('house_check_note')}
          />
        </Section>
      )}

      <SubmitButton busy={formState.isSubmitting}>
        {formState.isSubmitting && photo.kind === 'new' && !photo.ready ? 'Preparing image…' : submitLabel}
      </SubmitButton>
    </form>
  );
}
