/**
 * The phone number input (docs/product.md#decisions): a country selector, default US, and
 * an E.164 value ('' when empty, which means "no phone").
 */
import { useId } from 'react';
import PhoneInput, { type FlagProps } from 'react-phone-number-input';
import 'react-phone-number-input/style.css';
import { FieldError } from '../../ui/Field.tsx';

/**
 * The country's code instead of a flag picture: the package's default
 * fetches flag images from another site, which the app's content policy
 * forbids and which would not show offline.
 */
function CountryCode({ country }: FlagProps) {
  return (
    <span className="flex h-full w-full items-center justify-center text-sm font-semibold text-gray-900">
      {country}
    </span>
  );
}

export function PhoneField({
  label,
  value,
  onChange,
  onBlur,
  error,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  onBlur?: () => void;
  error?: string;
}) {
  const id = useId();
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium">
        {label}
      </label>
      <PhoneInput
        id={id}
        defaultCountry="US"
        // A stored US number reads (561) 555-0100, not +1 561 555 0100.
        initialValueFormat="national"
        value={value || undefined}
        onChange={(next) => onChange(next ?? '')}
        onBlur={onBlur}
        flagComponent={CountryCode}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        // The library's look, through its CSS variables: a bordered box for the country like our inputs.
        className="mt-1 gap-1 [--PhoneInput-color--focus:var(--color-black)] [--PhoneInputCountryFlag-aspectRatio:1.4] [--PhoneInputCountryFlag-backgroundColor--loading:var(--color-white)] [--PhoneInputCountryFlag-borderColor:var(--color-gray-300)] [--PhoneInputCountryFlag-height:2.5rem]"
        numberInputProps={{
          className:
            'block w-full rounded border border-gray-300 px-3 py-2 focus:border-black focus:outline-none focus:ring-1 focus:ring-black aria-[invalid=true]:border-red-600',
        }}
      />
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}
