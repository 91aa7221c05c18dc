/**
 * Form fields with their label and error message, wired for
 * react-hook-form's register(); the error text comes from the zod schemas.
 */
import {
  forwardRef,
  useId,
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
} from 'react';

export const inputClass =
  'mt-1 block min-h-11 w-full rounded border border-gray-300 px-3 py-2 focus:border-black focus:outline-none focus:ring-1 focus:ring-black aria-[invalid=true]:border-red-600';

/**
 * What every search box of a list has besides its own props: no spell check,
 * autocorrect or capitals (a phone would "correct" a member number, a
 * security code or a street name as it is typed, and underline them), and
 * the keyboard's Search key.
 */
export const searchBoxProps = {
  type: 'search',
  spellCheck: false,
  autoCorrect: 'off',
  autoCapitalize: 'none',
  autoComplete: 'off',
  enterKeyHint: 'search',
} as const satisfies InputHTMLAttributes<HTMLInputElement>;

export function FieldError({ id, message }: { id: string; message?: string }) {
  if (!message) return null;
  return (
    <p id={id} role="alert" className="mt-1 text-sm text-red-700">
      {message}
    </p>
  );
}

interface Labelled {
  label: ReactNode;
  error?: string;
}

/** The label, the control and its error message, with the ids that tie them together. */
function Labelled({
  label,
  error,
  className,
  control,
}: Labelled & { className?: string; control: (aria: ControlAria) => ReactNode }) {
  const id = useId();
  return (
    <div className={className}>
      <label htmlFor={id} className="block text-sm font-medium">
        {label}
      </label>
      {control({
        id,
        'aria-invalid': error ? true : undefined,
        'aria-describedby': error ? `${id}-error` : undefined,
        className: inputClass,
      })}
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}

interface ControlAria {
  id: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
  className: string;
}

export const TextInput = forwardRef<HTMLInputElement, Labelled & InputHTMLAttributes<HTMLInputElement>>(
  function TextInput({ label, error, className, ...props }, ref) {
    return (
      <Labelled
        label={label}
        error={error}
        className={className}
        control={(aria) => <input ref={ref} {...aria} {...props} />}
      />
    );
  },
);

export const TextArea = forwardRef<HTMLTextAreaElement, Labelled & TextareaHTMLAttributes<HTMLTextAreaElement>>(
  function TextArea({ label, error, className, ...props }, ref) {
    return (
      <Labelled
        label={label}
        error={error}
        className={className}
        control={(aria) => <textarea ref={ref} {...aria} {...props} />}
      />
    );
  },
);

export const SelectInput = forwardRef<HTMLSelectElement, Labelled & SelectHTMLAttributes<HTMLSelectElement>>(
  function SelectInput({ label, error, className, children, ...props }, ref) {
    return (
      <Labelled
        label={label}
        error={error}
        className={className}
        control={(aria) => (
          <select ref={ref} {...aria} {...props}>
            {children}
          </select>
        )}
      />
    );
  },
);
