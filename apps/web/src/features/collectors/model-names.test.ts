import { describe, expect, it } from 'vitest';
import { modelName } from './model-names';

describe('model names', () => {
  it('prefills the name people know a meter by, keeping unknown codes', () => {
    expect(modelName('SPEM-003CEBEU')).toBe('Shelly Pro 3EM');
    expect(modelName('S3EM-003CXCEU63')).toBe('Shelly 3EM-63');
    expect(modelName('SHEM-3')).toBe('Shelly 3EM');
    expect(modelName('Wi-MEF-3')).toBe('F&F Fox ENERGY-3');
    expect(modelName('XYZ-1')).toBe('XYZ-1');
  });
});
