/** Imports: bringing a CSV of past readings into a device. */
export { ImportPage } from './components/import-page';
