import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setLanguage } from '@/i18n';
import { renderUi } from '@/test/render';
import { SignedInText, SignInForm } from './sign-in-form';

function renderForm() {
  const qc = new QueryClient({ defaultOptions: { mutations: { retry: false } } });
  renderUi(
    <QueryClientProvider client={qc}>
      <MemoryRouter>
        <SignInForm onSignedIn={() => {}} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

afterEach(async () => {
  vi.restoreAllMocks();
  await setLanguage('en');
});

describe('SignInForm', () => {
  it("tells the sign-in in the language the profile brings, not the sign-in page's", async () => {
    renderUi(<SignedInText />);
    expect(screen.getByText('You have successfully logged in!')).toBeInTheDocument();
    await setLanguage('tr');
    expect(await screen.findByText('Başarıyla giriş yaptınız!')).toBeInTheDocument();
  });

  it("shows the server's error in the user's language and drops it once a field is edited", async () => {
    await setLanguage('pl');
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(
      new Response(
        JSON.stringify({
          statusCode: 401,
          error: 'Unauthorized',
          message: 'Invalid email or password',
          errors: [{ field: 'password', message: 'Invalid email or password', key: 'errors.invalidCredentials' }],
        }),
        { status: 401, headers: { 'content-type': 'application/json' } },
      ),
    );
    const user = userEvent.setup();
    renderForm();
    await user.click(screen.getByLabelText(/^E-mail/));
    await user.paste('demo@phasewatch.dev');
    await user.click(screen.getByLabelText(/^Hasło/));
    await user.paste('wrong');
    await user.click(screen.getByRole('button', { name: 'Zaloguj się' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Spróbuj ponownie!');
    expect(alert).toHaveTextContent('Nieprawidłowy e-mail lub hasło.');
    expect(alert).not.toHaveTextContent('Invalid email or password');

    // A new field error stands alone: the previous attempt's alert is gone.
    await user.clear(screen.getByLabelText(/^E-mail/));
    await user.paste('not-an-email');
    await waitFor(() => expect(screen.queryByText('Spróbuj ponownie!')).not.toBeInTheDocument());
    expect(screen.getByText('Podaj poprawny adres e-mail.')).toBeInTheDocument();
  }, 20_000);

  it('refuses a password shorter than 4 characters with the message of every password field, sending nothing', async () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    const user = userEvent.setup();
    renderForm();
    await user.click(screen.getByLabelText(/^Email/));
    await user.paste('demo@phasewatch.dev');
    await user.click(screen.getByLabelText(/^Password/));
    await user.paste('abc');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('The password must be at least 4 characters.')).toBeInTheDocument();
    expect(fetchSpy).not.toHaveBeenCalled();
  }, 20_000);
});
