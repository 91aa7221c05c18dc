/**
 * Error boundaries, so one record the code cannot draw never blanks the
 * whole app: a screen that fails shows 'Something went wrong'
 * with a way back to Homes; a list item that fails shows a compact notice
 * in its place and the rest of the list stays. Each failure is reported on
 * the console with the component stack, the one place to look for it.
 */
import { Component, type ErrorInfo, type ReactNode } from 'react';

interface ErrorBoundaryProps {
  children: ReactNode;
  /** What shows instead of the children; `reset` tries them again. */
  fallback: (reset: () => void) => ReactNode;
  /** When this changes (another screen, a newer copy of the record), the children are tried again. */
  resetKey?: unknown;
  /** Names the failed part in the report. */
  name: string;
}

interface ErrorBoundaryState {
  // A flag, not the error: anything can be thrown, undefined included.
  failed: boolean;
}

/** React catches render errors only in class components. */
export class ErrorBoundary extends Component<ErrorBoundaryProps, ErrorBoundaryState> {
  override state: ErrorBoundaryState = { failed: false };

  static getDerivedStateFromError(): ErrorBoundaryState {
    return { failed: true };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error(`${this.props.name} failed to render:`, error, info.componentStack);
  }

  override componentDidUpdate(previous: ErrorBoundaryProps): void {
    if (this.state.failed && !Object.is(previous.resetKey, this.props.resetKey)) this.reset();
  }

  reset = (): void => this.setState({ failed: false });

  override render(): ReactNode {
    return this.state.failed ? this.props.fallback(this.reset) : this.props.children;
  }
}

/** Around each screen: a failed screen offers the way back to Homes (which also tries again). */
export function ScreenErrorBoundary({
  children,
  resetKey,
  onBack,
}: {
  children: ReactNode;
  resetKey: unknown;
  onBack: () => void;
}) {
  return (
    <ErrorBoundary
      name="Screen"
      resetKey={resetKey}
      fallback={(reset) => (
        <div
          role="alert"
          className="mx-auto flex max-w-md flex-col items-center gap-3 rounded-lg border border-gray-300 bg-white p-8 text-center"
        >
          <h1 className="text-xl font-semibold">Something went wrong</h1>
          <p className="text-sm text-gray-700">
            This screen could not be shown. Changes saved on this device are kept.
          </p>
          <button
            type="button"
            onClick={() => {
              onBack();
              reset();
            }}
            className="rounded bg-black px-4 py-2 font-medium text-white hover:bg-gray-800"
          >
            Back to Homes
          </button>
        </div>
      )}
    >
      {children}
    </ErrorBoundary>
  );
}

/**
 * Around each card of a list: a failed card becomes a compact notice with a
 * retry, the same element type as the card (an `li` in a `ul`), kept to its
 * own height in a grid row; in a table's row (`as="cell"`), one cell
 * across the row. No alert role: a list with several bad records would
 * otherwise keep interrupting.
 */
export function ItemErrorBoundary({
  children,
  resetKey,
  as = 'div',
}: {
  children: ReactNode;
  resetKey?: unknown;
  as?: 'div' | 'li' | 'cell';
}) {
  const Tag = as === 'li' ? 'li' : 'div';
  return (
    <ErrorBoundary
      name="List item"
      resetKey={resetKey}
      fallback={(reset) => (
        <Tag
          role={as === 'cell' ? 'cell' : undefined}
          className={`flex items-center justify-between gap-3 self-start rounded-lg border border-red-200 bg-red-50 text-sm text-red-900 ${as === 'cell' ? 'col-span-full my-1 px-3 py-1' : 'p-4'}`}
        >
          <span>Something went wrong</span>
          <button
            type="button"
            onClick={reset}
            className="rounded border border-red-300 bg-white px-3 py-1 font-medium text-red-900 hover:bg-red-100"
          >
            Try again
          </button>
        </Tag>
      )}
    >
      {children}
    </ErrorBoundary>
  );
}
