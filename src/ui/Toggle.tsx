/** An on/off field (Injury, EMS/PBSO): Headless UI's Switch with its label. */
import { Field, Label, Switch } from '@headlessui/react';

export function Toggle({
  label,
  checked,
  onChange,
}: {
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
}) {
  return (
    <Field className="flex items-center gap-3">
      <Switch
        checked={checked}
        onChange={onChange}
        className="group relative inline-flex h-6 w-11 shrink-0 items-center rounded-full bg-gray-500 transition focus:outline-none data-[checked]:bg-black data-[focus]:ring-2 data-[focus]:ring-black data-[focus]:ring-offset-2"
      >
        <span className="size-4 translate-x-1 rounded-full bg-white transition group-data-[checked]:translate-x-6" />
      </Switch>
      <Label className="flex min-h-11 items-center text-sm font-medium">{label}</Label>
    </Field>
  );
}
