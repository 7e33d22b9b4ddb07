/** The names people know their meters by, from the model codes the devices report. */
const NAMES: [RegExp, string][] = [
  [/^SPEM-003/i, 'Shelly Pro 3EM'],
  [/^S3EM-003/i, 'Shelly 3EM-63'],
  [/^SPEM-002/i, 'Shelly Pro EM'],
  [/^SHEM-3$/i, 'Shelly 3EM'],
  [/^SHEM$/i, 'Shelly EM'],
  [/^Wi-MEF-3$/i, 'F&F Fox ENERGY-3'],
  [/^Wi-MEF-1$/i, 'F&F Fox ENERGY-1'],
];

/** A device's name to prefill: the model's common name ("Shelly Pro 3EM" for SPEM-003CEBEU), else the code. */
export function modelName(code: string): string {
  return NAMES.find(([re]) => re.test(code))?.[1] ?? code;
}
