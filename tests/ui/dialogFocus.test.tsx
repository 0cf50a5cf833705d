// @vitest-environment jsdom
import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfirmDialog, useConfirmAction, type Nothing } from '../../src/ui/ConfirmDialog';

/** A page with a chart-opened dialog (no Dialog.Trigger), opened by a button and by a menu item. */
function Page() {
  const flow = useConfirmAction<Nothing, Nothing>({ closed: { draft: {}, subject: {} }, perform: async () => ({ message: 'Done.' }) });
  const open = () => flow.send({ type: 'confirm.open' });
  return (
    <>
      <button type="button">Before</button>
      <button type="button" onClick={open}>
        Add Member
      </button>
      <DropdownMenu.Root>
        <DropdownMenu.Trigger>More actions</DropdownMenu.Trigger>
        <DropdownMenu.Portal>
          <DropdownMenu.Content>
            <DropdownMenu.Item onSelect={open}>Edit</DropdownMenu.Item>
          </DropdownMenu.Content>
        </DropdownMenu.Portal>
      </DropdownMenu.Root>
      <ConfirmDialog actor={flow} title="Add Member" confirmLabel="Add" />
    </>
  );
}

describe('a chart-opened dialog returns focus to its opener', () => {
  afterEach(cleanup);

  it('after Esc, to the button that opened it', async () => {
    const user = userEvent.setup();
    render(<Page />);
    await user.click(screen.getByRole('button', { name: 'Add Member' }));
    await screen.findByRole('dialog', { name: 'Add Member' });
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Add Member' })));
  });

  it('after Cancel, opened from the keyboard', async () => {
    const user = userEvent.setup();
    render(<Page />);
    screen.getByRole('button', { name: 'Add Member' }).focus();
    await user.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog', { name: 'Add Member' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Add Member' })));
  });

  it('after Esc, to the trigger of the menu whose item opened it', async () => {
    const user = userEvent.setup();
    render(<Page />);
    screen.getByRole('button', { name: 'More actions' }).focus();
    await user.keyboard('{Enter}');
    await user.click(await screen.findByRole('menuitem', { name: 'Edit' }));
    await screen.findByRole('dialog', { name: 'Add Member' });
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'More actions' })));
  });
});
