// @vitest-environment jsdom
/**
 * A toast says what happened where it happened (src/ui/toast.tsx): in the
 * sheet or page it was raised in, and when that closes, in the one beneath;
 * never inside a question opened after it, and never inside a question at
 * all: a question's own result shows once it has closed.
 */
import { act, cleanup, render, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, test } from 'vitest';
import { ConfirmDialog } from '../../src/ui/ConfirmDialog.tsx';
import { Sheet } from '../../src/ui/Sheet.tsx';
import { ToastProvider, useToast } from '../../src/ui/toast.tsx';

afterEach(cleanup);

let controls: {
  toast: (description: string) => void;
  setQuestion: (open: boolean) => void;
  setSheet: (open: boolean) => void;
};

function Screen() {
  const toast = useToast();
  const [question, setQuestion] = useState(false);
  const [sheet, setSheet] = useState(false);
  controls = { toast: (description) => toast({ title: 'Success', description }), setQuestion, setSheet };
  return (
    <>
      <Sheet open={sheet} onClose={() => setSheet(false)} title="Update user">
        <p>The form</p>
      </Sheet>
      <ConfirmDialog
        open={question}
        title="Delete user?"
        confirmLabel="Delete"
        onConfirm={() => undefined}
        onCancel={() => setQuestion(false)}
      />
    </>
  );
}

const step = (what: () => void) => act(async () => what());
const toastText = (description: string) => screen.queryByText(description);

describe('where a toast shows', () => {
  test('a page toast does not follow into a question opened after it, and shows again once it closed', async () => {
    render(
      <ToastProvider>
        <Screen />
      </ToastProvider>,
    );
    await step(() => controls.toast('User updated'));
    expect(toastText('User updated')).not.toBeNull();
    await step(() => controls.setQuestion(true));
    const question = await screen.findByRole('dialog', { name: 'Delete user?' });
    expect(within(question).queryByText('User updated')).toBeNull();
    expect(toastText('User updated')).toBeNull();
    await step(() => controls.setQuestion(false));
    expect(toastText('User updated')).not.toBeNull();
  });

  test("a question's own result shows once the question has closed, on the page beneath", async () => {
    render(
      <ToastProvider>
        <Screen />
      </ToastProvider>,
    );
    await step(() => controls.setQuestion(true));
    await screen.findByRole('dialog', { name: 'Delete user?' });
    await step(() => controls.toast('User deleted'));
    expect(toastText('User deleted')).toBeNull();
    await step(() => controls.setQuestion(false));
    expect(toastText('User deleted')).not.toBeNull();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  test('a toast raised in a sheet shows in it, and on the page once it closes; a later sheet does not take a page toast', async () => {
    render(
      <ToastProvider>
        <Screen />
      </ToastProvider>,
    );
    await step(() => controls.setSheet(true));
    const sheet = await screen.findByRole('dialog', { name: 'Update user' });
    await step(() => controls.toast('Check the name'));
    expect(within(sheet).queryByText('Check the name')).not.toBeNull();
    await step(() => controls.setSheet(false));
    expect(toastText('Check the name')).not.toBeNull();
    expect(screen.queryByRole('dialog')).toBeNull();
    // Opened later by the person (not as the result of the sheet's action): the toast stays on the page.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    await step(() => controls.setSheet(true));
    const again = await screen.findByRole('dialog', { name: 'Update user' });
    expect(within(again).queryByText('Check the name')).toBeNull();
  });

  test("a modal opening with a question's result (a new password) shows that result", async () => {
    render(
      <ToastProvider>
        <Screen />
      </ToastProvider>,
    );
    await step(() => controls.setQuestion(true));
    await screen.findByRole('dialog', { name: 'Delete user?' });
    await step(() => controls.toast('Password reset'));
    await step(() => {
      controls.setQuestion(false);
      controls.setSheet(true);
    });
    const result = await screen.findByRole('dialog', { name: 'Update user' });
    expect(within(result).queryByText('Password reset')).not.toBeNull();
  });
});
