/** Power quality: a device's voltage, frequency and harmonics report, and its PDF. */
export { PdfButton } from './components/pdf-button';
export { QualityView } from './components/quality-view';
