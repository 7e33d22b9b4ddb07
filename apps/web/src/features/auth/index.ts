/** Auth: signing in and out, registering, the password reset, and the token check of every navigation. */
export { useForgotPassword } from './api/forgot-password';
export { logout } from './api/logout';
export { useResetPassword } from './api/reset-password';
export { ensureValidToken } from './api/verify-token';
export { ApiErrorAlert } from './components/api-errors';
export { AuthCard } from './components/auth-card';
export { RegisterForm } from './components/register-form';
export { SignInForm } from './components/sign-in-form';
