/**
 * The home search of the create form (docs/product.md#incident-reports): type to search the
 * mirror's homes (address, apt, city, state, zip, security code, member
 * number); choosing one fills the box with its address and closes the
 * suggestions; emptying the box clears the chosen home.
 */
import { Combobox, ComboboxInput, ComboboxOption, ComboboxOptions, Field, Label } from '@headlessui/react';
import { useState } from 'react';
import type { HouseRecord } from '../../api/records.ts';
import { streetLine } from '../../domain/address.ts';
import { useHouses } from '../../data/resources/homes.ts';
import { inputClass } from '../../ui/Field.tsx';

/** Enough to choose from while typing; the list scrolls within 40 units. */
const MAX_SUGGESTIONS = 50;

type Chosen = Pick<HouseRecord, 'id' | 'address' | 'apt' | 'city'>;

export function HouseCombobox({ value, onChange }: { value: string; onChange: (houseId: string) => void }) {
  const [query, setQuery] = useState('');
  const [chosen, setChosen] = useState<Chosen | null>(null);
  const houses = useHouses(query);
  // A form reset empties `value`: the box follows.
  const selected = value && chosen?.id === value ? chosen : null;
  const suggestions = (houses ?? []).slice(0, MAX_SUGGESTIONS);

  return (
    <Field>
      <Label className="block text-sm font-medium">Home</Label>
      <Combobox
        value={selected}
        by="id"
        onChange={(house: Chosen | null) => {
          setChosen(house);
          setQuery('');
          onChange(house?.id ?? '');
        }}
        immediate
      >
        <div className="relative">
          <ComboboxInput<Chosen | null>
            className={inputClass}
            placeholder="Search home..."
            autoComplete="off"
            displayValue={(house) => (house ? streetLine(house) : '')}
            onChange={(event) => {
              setQuery(event.target.value);
              if (event.target.value === '') {
                setChosen(null);
                onChange('');
              }
            }}
          />
          {/* Not modal: the rest of the form stays usable (and visible to assistive tech) while suggestions show. */}
          <ComboboxOptions
            modal={false}
            className="absolute z-20 mt-1 max-h-40 w-full overflow-y-auto rounded border border-gray-300 bg-white py-1 shadow-lg empty:invisible"
          >
            {suggestions.map(({ house, residents }) => (
              <ComboboxOption
                key={house.id}
                value={{ id: house.id, address: house.address, apt: house.apt, city: house.city }}
                className="cursor-pointer px-3 py-2 text-sm data-[focus]:bg-gray-100"
              >
                <span className="font-medium">{streetLine(house)}</span>
                <span className="block text-xs text-gray-600">
                  {[
                    house.city,
                    house.member_number && `Member # ${house.member_number}`,
                    residents[0] && `${residents[0].first_name} ${residents[0].last_name}`,
                  ]
                    .filter(Boolean)
                    .join(' · ')}
                </span>
              </ComboboxOption>
            ))}
            {houses && query.trim() !== '' && suggestions.length === 0 && (
              <div className="px-3 py-2 text-sm text-gray-600">No homes found</div>
            )}
          </ComboboxOptions>
        </div>
      </Combobox>
    </Field>
  );
}
