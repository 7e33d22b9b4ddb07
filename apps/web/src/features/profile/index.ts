/** Profile: the user's details and the interface language chosen for them. */
export { useUserInfo } from './api/get-user-info';
export { ProfileForm } from './components/profile-form';
export { chooseLanguage, signedIn, useProfileLanguage } from './language-choice';
