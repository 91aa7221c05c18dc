/**
 * A part of a screen that only shows on demand (a sheet, a dialog), loaded
 * the first time it is rendered: its libraries (the phone-number input and
 * metadata, the date picker) stay out of what a screen loads before it
 * shows (the bundle budget, scripts/bundle-budget.ts). The service
 * worker precaches its chunk, so it opens offline too.
 *
 * The part suspends in its own boundary, showing nothing for the moment its
 * chunk takes: a boundary higher up would swap the whole screen for a spinner.
 */
import { lazy, Suspense, type ComponentProps, type ComponentType } from 'react';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any props, as React's own lazy()
export function lazyPart<C extends ComponentType<any>>(load: () => Promise<C>): ComponentType<ComponentProps<C>> {
  const Part = lazy(() => load().then((component) => ({ default: component })));
  function LazyPart(props: ComponentProps<C>) {
    return (
      <Suspense fallback={null}>
        <Part {...props} />
      </Suspense>
    );
  }
  return LazyPart;
}
